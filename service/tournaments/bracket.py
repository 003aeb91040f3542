"""A single elimination tournament's bracket, as the tournament page draws it (issue 45):
every round's slots in bracket order, from the seeds (the registration order) and what
the tournament recorded.

The bracket is the pairing's own (service/pairing/elimination.py): the next power of
two, seeds in `bracket_order`, each round's winners meeting in that order. A slot holds
a player, is empty (a seed the field lacks, or two empty slots' winner), or is still
undecided (the winner of a match not played yet). Who goes on comes from the round's
`RoundCompleted` (`advancing`: by result, bye or seed); before that, a player alone
beside an empty slot is shown going on by a bye, as the pairing will give it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from service.pairing.elimination import bracket_order, rounds_needed

PLAYER, EMPTY, UNDECIDED = "player", "empty", "undecided"


@dataclass(frozen=True)
class Slot:
    """One side of a bracket match: a player (with its seed), empty, or undecided."""

    kind: str
    player_id: str | None = None
    seed: int | None = None


@dataclass(frozen=True)
class BracketMatch:
    """One match of the bracket: its two slots, the round's table that plays it (None:
    a bye, an empty match or a round not paired yet), the matches linked to that table
    (a replay after a draw: more than one), and who went on and by what."""

    round: int
    first: Slot
    second: Slot
    table: int | None
    match_ids: tuple[str, ...]
    winner: str | None
    by: str | None


@dataclass(frozen=True)
class Bracket:
    """Every round of the bracket, round 1 first, each in bracket order."""

    rounds: tuple[tuple[BracketMatch, ...], ...]


def bracket(players: Sequence[str], rounds: Sequence[Mapping[str, Any]]) -> Bracket:
    """Returns the bracket of an elimination tournament from its players (registration
    order: seed 1 first) and its recorded rounds (the aggregate's `rounds`)."""
    count = rounds_needed(len(players))
    if count == 0:
        return Bracket(())
    seeds = {player: index for index, player in enumerate(players, 1)}
    slots = [
        Slot(PLAYER, players[seed - 1], seed) if seed <= len(players) else Slot(EMPTY)
        for seed in bracket_order(1 << count)
    ]
    drawn: list[tuple[BracketMatch, ...]] = []
    for number in range(1, count + 1):
        record = rounds[number - 1] if number <= len(rounds) else None
        matches = tuple(
            _match(number, slots[i], slots[i + 1], record) for i in range(0, len(slots), 2)
        )
        drawn.append(matches)
        slots = [_going_on(match, seeds) for match in matches]
    return Bracket(tuple(drawn))


def _match(
    number: int, first: Slot, second: Slot, record: Mapping[str, Any] | None
) -> BracketMatch:
    present = {s.player_id for s in (first, second) if s.kind == PLAYER}
    table, links = None, ()
    if record is not None and len(present) == 2:
        for index, seated in enumerate(record["tables"], 1):
            if set(seated) == present:
                table, links = index, tuple(record["links"][index - 1])
    winner, by = _decided(first, second, record)
    return BracketMatch(number, first, second, table, links, winner, by)


def _decided(
    first: Slot, second: Slot, record: Mapping[str, Any] | None
) -> tuple[str | None, str | None]:
    """Returns who went on and by what; (None, None) while undecided or for no one."""
    present = [s.player_id for s in (first, second) if s.kind == PLAYER]
    if record is not None and record["completed"]:
        for going in record["advancing"]:
            if going["player_id"] in present:
                return str(going["player_id"]), str(going["by"])
        return None, None
    kinds = {first.kind, second.kind}
    if kinds == {PLAYER, EMPTY}:
        return present[0], "bye"
    return None, None


def _going_on(match: BracketMatch, seeds: Mapping[str, int]) -> Slot:
    if match.winner is not None:
        return Slot(PLAYER, match.winner, seeds.get(match.winner))
    if match.first.kind == EMPTY and match.second.kind == EMPTY:
        return Slot(EMPTY)
    return Slot(UNDECIDED)
