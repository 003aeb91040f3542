"""Shades (`shades`): the simultaneous bot game of the KSP Proboj spring 2026 contest.

Source text: the contest's rules page (in Slovak, with an English
translation) and its bot protocol; binding rulings SH-1..SH-12. The rules as
implemented: docs/games/shades.md. Two versions: `RULESET_V2` (the latest;
`RULESET` is the same object) and `RULESET_V1`, kept for the matches created
under it (version 2 adds the options of SH-6 and SH-12 and cites SH-12 for a
contested human).

The package follows the ruleset skeleton (docs/rulesets.md): `config` (the
map, clock, razing, scoring, elimination bonus and contested human options,
the `contest` preset: SH-1, SH-2, SH-5, SH-6, SH-10, SH-12), `state` (values
and state JSON), `orders` (commands in the protocol's reply shape and a text
syntax, each shade's legal commands: SH-1, SH-4, SH-11), `resolve` (the
turn's phases in the order of SH-3), `display` and `ruleset` (the contract
and its metadata, SH-2 tomb assignment, SH-4 elimination of a silent seat,
SH-8 human cap), with the game's own concerns in `board` (maps: SH-1, SH-2),
`moves` (moves and collisions: SH-1, SH-3, SH-4), `combat` (attack and
razing: SH-3, SH-5, SH-7), `humans` (spawning, conversion, births: SH-3,
SH-8, SH-12), `scoring` (SH-6, SH-7, SH-9) and `protocol` (the bot messages,
SH-11).
"""

from domain.rules.shades.ruleset import RULESET, RULESET_V1, RULESET_V2

__all__ = ["RULESET", "RULESET_V1", "RULESET_V2"]
