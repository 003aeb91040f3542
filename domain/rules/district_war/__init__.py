"""District War (`district_war`): two seats place troops on a 7x7 board of 11 districts.

The package follows the ruleset skeleton (docs/rulesets.md): `config`,
`state`, `orders`, `resolve`, `display` and `ruleset` (the contract and its
metadata), with the game's own concerns in `board` (DW-1), `placement`
(DW-3) and `scoring` (DW-4, DW-5).
"""

from domain.rules.district_war.ruleset import RULESET

__all__ = ["RULESET"]
