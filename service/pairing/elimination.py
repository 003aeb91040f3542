"""Single elimination with seeding (issue 45).

- Seeds are the registration order (seed 1 registered first). The bracket is the
  standard one for the next power of two: 1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight, each
  round's winners meeting in bracket order; a field short of a power of two leaves the
  missing seeds empty, so the top seeds have byes in round 1.
- The higher seed sits first.
- A drawn match is replayed: District War by its own rematch (DW-5: the match creates
  its replay, which the tournament links), any other game by a new match of the same
  table with the seats swapped; at most `max_replays` times (3 by default), then the
  higher seed advances, recorded in RoundCompleted's `advancing` as `by: "seed"`.
- A withdrawn player's opponent advances with a bye (a walkover).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from service.pairing.history import Game, History, RoundRecord
from service.pairing.result import Pairing

PAIRING_VERSION = 1
DW_RULESET = "district_war"


@dataclass(frozen=True)
class Decision:
    """What a table's games decide: who advances and by what ("result", "bye", "seed"),
    or, with `advances` None, that the table plays again (`replay`) or waits for its
    result."""

    advances: str | None
    by: str = "result"
    replay: bool = False


def bracket_order(size: int) -> list[int]:
    """Returns the seeds in bracket order for a power of two (8: 1 8 4 5 2 7 3 6)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def pair(history: History, max_replays: int) -> Pairing | None:
    """Returns the next round's pairing, or None once one player is left (the winner)."""
    entrants = _entrants(history, max_replays)
    if sum(player is not None for player in entrants) <= 1:
        return None
    tables, byes = [], []
    for first, second in _slots(entrants):
        present = [p for p in (first, second) if p is not None and p not in history.withdrawn]
        if len(present) == 2:
            tables.append(_seeded(present, history.players))
        else:
            byes.extend(present)
    return Pairing(history.next_round, tuple(tables), tuple(byes))


def decide(games: Sequence[Game], seeds: Sequence[str], max_replays: int) -> Decision:
    """Returns what a table's games decide: the latest game's winner; after a draw a
    replay, unless `max_replays` replays were drawn already: then the higher seed."""
    if not games:
        return Decision(None)
    last = games[-1]
    if not last.drawn:
        return Decision(max(last.points, key=last.points.__getitem__))
    if len(games) > max_replays:
        return Decision(_seeded(list(last.players), seeds)[0], by="seed")
    return Decision(None, replay=True)


def advancing(history: History, number: int, max_replays: int) -> list[dict[str, object]]:
    """Returns who goes on from round `number` (RoundCompleted's `advancing`): each
    `{"player_id", "table", "by"}`, table 0 for a bye."""
    record = history.rounds[number - 1]
    chosen: list[dict[str, object]] = []
    for index, _ in enumerate(record.tables, 1):
        decision = decide(record.table_games(index), history.players, max_replays)
        if decision.advances is not None:
            chosen.append({"player_id": decision.advances, "table": index, "by": decision.by})
    chosen.extend({"player_id": player, "table": 0, "by": "bye"} for player in record.byes)
    return chosen


def replay_seats(table: Sequence[str], attempt: int) -> tuple[str, ...]:
    """Returns the seats of a table's `attempt`-th match: swapped on every replay."""
    return tuple(table) if attempt % 2 else tuple(reversed(table))


def replay_kind(ruleset: str) -> str:
    """Returns how a drawn match is replayed: "rematch" (District War's own, DW-5) or
    "new_match" (a new match of the same table)."""
    return "rematch" if ruleset == DW_RULESET else "new_match"


def rounds_needed(players: int) -> int:
    """Returns the rounds a field of `players` plays: log2 of the bracket's size."""
    return max(players - 1, 0).bit_length()


def _entrants(history: History, max_replays: int) -> list[str | None]:
    """Returns the bracket's slots still in, after the rounds recorded (None: empty)."""
    size = 1 << rounds_needed(len(history.players))
    seeds = list(history.players)
    entrants: list[str | None] = [
        seeds[seed - 1] if seed <= len(seeds) else None for seed in bracket_order(size)
    ]
    for record in history.rounds:
        entrants = [
            _winner(first, second, record, history, max_replays)
            for first, second in _slots(entrants)
        ]
    return entrants


def _winner(
    first: str | None,
    second: str | None,
    record: RoundRecord,
    history: History,
    max_replays: int,
) -> str | None:
    for player in (first, second):
        if player in record.byes:
            return player
    for index, table in enumerate(record.tables, 1):
        if set(table) == {first, second}:
            return decide(record.table_games(index), history.players, max_replays).advances
    return None


def _slots(entrants: list[str | None]) -> list[tuple[str | None, str | None]]:
    return [(entrants[i], entrants[i + 1]) for i in range(0, len(entrants), 2)]


def _seeded(players: list[str], seeds: Sequence[str]) -> tuple[str, str]:
    """Returns two players higher seed first."""
    a, b = sorted(players, key=list(seeds).index)
    return a, b
