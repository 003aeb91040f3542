"""Helpers for the Tournament aggregate's and the pairing's unit tests (issue 45): a
tournament created and folded, and rounds played by a rule for who wins."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

from domain.tournament import Tournament
from service.pairing.history import Game, History, RoundRecord
from service.pairing.points import placement_points
from service.pairing.result import Pairing

T0 = datetime(2030, 1, 1, tzinfo=UTC)
SEED = "tournament-seed-1"
HEAD = {"version": 9, "chain": "ab" * 32}

# a table's result: the players in seat order -> placements (1 best)
Rule = Callable[[tuple[str, ...]], dict[str, int]]


def new_tournament(
    format: str = "swiss",
    ruleset: str = "district_war",
    players: Sequence[str] = (),
    tournament_id: UUID | None = None,
    **kwargs: Any,
) -> Tournament:
    """Returns a tournament created at T0 with `players` registered (events pending)."""
    tournament = Tournament.create(
        tournament_id or uuid4(),
        "Spring Cup",
        format,
        ruleset,
        {},
        SEED,
        "organiser-hash",
        1,
        T0,
        **kwargs,
    )
    for player in players:
        tournament.register(player, T0)
    return tournament


def fold(events: list[Any]) -> Any:
    """Returns the aggregate rebuilt from its events."""
    aggregate = None
    for domain_event in events:
        aggregate = domain_event.mutate(aggregate)
    return aggregate


def players(count: int, prefix: str = "p") -> tuple[str, ...]:
    """Returns player ids p1 .. p<count>, registration (and seed) order."""
    return tuple(f"{prefix}{n}" for n in range(1, count + 1))


def by_registration(history: History) -> Rule:
    """Returns a rule: the player registered earlier places higher (no ties)."""
    number = {player: index for index, player in enumerate(history.players)}
    return lambda table: {p: sorted(table, key=number.__getitem__).index(p) + 1 for p in table}


def game(table: tuple[str, ...], placements: dict[str, int]) -> Game:
    """Returns a table's game scored by placement, each player's score its points."""
    points = placement_points(placements)
    return Game(table, points, dict(points))


def played(history: History, pairing: Pairing, rule: Rule | None = None) -> History:
    """Returns the history with `pairing` played, each table's result by `rule`
    (registration order by default)."""
    rule = rule or by_registration(history)
    record = RoundRecord(
        pairing.round,
        pairing.tables,
        pairing.byes,
        tuple((game(table, rule(table)),) for table in pairing.tables),
    )
    return History(history.players, history.seed, (*history.rounds, record), history.withdrawn)
