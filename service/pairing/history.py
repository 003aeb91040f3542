"""What a pairing is derived from, as plain data (issue 45): the players in registration
order, who had withdrawn, the seed, and each round before it with its tables, byes and
recorded results. `history_before` folds it from a tournament's events in their public
form, so that an audit re-derives round n from exactly what was recorded before round n
was paired (a result corrected later does not change a pairing made before it)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Game:
    """One match's result at a table: the players in seat order, each one's tournament
    points (two players: a win 2, a draw 1, a loss 0; tables: by placement) and score."""

    players: tuple[str, ...]
    points: Mapping[str, int]
    scores: Mapping[str, int] = field(default_factory=dict)

    @property
    def drawn(self) -> bool:
        """Returns whether every player at the table scored the same points."""
        return len(set(self.points.values())) == 1

    def opponents(self, player: str) -> tuple[str, ...]:
        """Returns the other players at the table."""
        return tuple(other for other in self.players if other != player)


@dataclass(frozen=True)
class RoundRecord:
    """One paired round: its tables in seat order, its byes, and each table's games in
    the order their matches were linked (a replay after a draw; () while none has a
    result)."""

    number: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()
    games: tuple[tuple[Game, ...], ...] = ()

    def table_games(self, table: int) -> tuple[Game, ...]:
        """Returns the games of table `table` (1-based) with a result, in linked order."""
        return self.games[table - 1] if table <= len(self.games) else ()

    def final_games(self) -> list[Game]:
        """Returns the latest game of each table that has one."""
        return [games[-1] for games in self.games if games]


@dataclass(frozen=True)
class History:
    """Everything a round's pairing depends on."""

    players: tuple[str, ...]
    seed: str
    rounds: tuple[RoundRecord, ...] = ()
    withdrawn: frozenset[str] = frozenset()

    @property
    def active(self) -> list[str]:
        """Returns the players who have not withdrawn, in registration order."""
        return [player for player in self.players if player not in self.withdrawn]

    @property
    def next_round(self) -> int:
        """Returns the number of the round to pair."""
        return len(self.rounds) + 1


def history_before(items: Iterable[Mapping[str, Any]], number: int, seed: str) -> History:
    """Returns the history round `number` is paired from: the tournament's events (public
    form: `type` and `data`) folded up to, not including, round `number`'s RoundPaired."""
    players: list[str] = []
    withdrawn: set[str] = set()
    rounds: list[dict[str, Any]] = []
    linked: dict[str, tuple[int, int]] = {}
    results: dict[str, Game] = {}
    for item in items:
        kind, data = item["type"], item["data"]
        if kind == "RoundPaired" and data["round"] == number:
            break
        if kind == "PlayerRegistered":
            players.append(data["player_id"])
        elif kind == "PlayerWithdrawn":
            withdrawn.add(data["player_id"])
        elif kind == "RoundPaired":
            rounds.append({"data": data, "links": [[] for _ in data["tables"]]})
        elif kind == "MatchLinked":
            rounds[data["round"] - 1]["links"][data["table"] - 1].append(data["match_id"])
            linked[data["match_id"]] = (data["round"], data["table"])
        elif kind == "ResultRecorded":
            table = rounds[data["round"] - 1]["data"]["tables"][data["table"] - 1]
            results[data["match_id"]] = Game(tuple(table), data["points"], data["scores"])
    return History(
        tuple(players),
        seed,
        tuple(_round_record(entry, results) for entry in rounds),
        frozenset(withdrawn),
    )


def _round_record(entry: Mapping[str, Any], results: Mapping[str, Game]) -> RoundRecord:
    data = entry["data"]
    return RoundRecord(
        data["round"],
        tuple(tuple(table) for table in data["tables"]),
        tuple(data["byes"]),
        tuple(
            tuple(results[match] for match in links if match in results) for links in entry["links"]
        ),
    )
