"""Dris et-Tessa (`dris_et_tessa`): the Morris-type game of the Ludii ruleset "Dris et-Tessa
(Ludii 4)", for two seats on the 24-point Nine Men's Morris board.

The package follows the ruleset skeleton (docs/rulesets.md): `config`,
`state`, `orders`, `resolve`, `display` and `ruleset` (the contract and its
metadata), with the game's own concerns in `board` (DT-1, the bit tables),
`engine` (the ply generator: DT-2 to DT-5, perft, random games), `notation`
(points, orders, plies, the position notation) and `outcome` (DT-5, DT-6).
"""

from domain.rules.dris_et_tessa.ruleset import RULESET

__all__ = ["RULESET"]
