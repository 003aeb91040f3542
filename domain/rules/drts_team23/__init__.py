"""DRTS Team 23 (`drts_team23`): version 1, the match without items; version 2 with items.

Source text: rules/drts_team23.txt beside DESIGN.md; binding rulings
DRTS-1..DRTS-22 (rules/DECISIONS.md). This version applies DRTS-1 to
DRTS-10 and DRTS-18 to DRTS-22; the items of DRTS-11 to DRTS-17 (Stars,
DeathStars, Blackholes, Generators, Meetings) are not part of it: their
invocation words are refused, each seat's item stock (DRTS-21) is kept
untouched, and resolution keeps the text's step order 0..9 with the item
steps empty. Version 2 (`RULESET_V2`) adds Stars, DeathStars and Blackholes
(DRTS-11 to DRTS-14, DRTS-16, DRTS-21) and merges a seat's orders per piece;
Generators and Meetings (DRTS-15, DRTS-17) are not part of it yet. The
rules as implemented: docs/games/drts_team23.md.

The package follows the ruleset skeleton (docs/rulesets.md): `config`,
`state` (values and state JSON), `orders` (syntax, legality, listing),
`resolve` (DRTS-5), `display` and `ruleset` (the contract and its metadata),
with the game's own concerns in `board` (DRTS-1, DRTS-3, DRTS-18 areas),
`moves` (operations: DRTS-4, DRTS-6, DRTS-7, DRTS-18), `battle` (DRTS-7,
DRTS-9), `scoring` (DRTS-10, DRTS-20) and `teams` (DRTS-19).
"""

from domain.rules.drts_team23.ruleset import RULESET, RULESET_V1, RULESET_V2

__all__ = ["RULESET", "RULESET_V1", "RULESET_V2"]
