"""Tournaments played through the service for the pages' tests (issue 45): players
created and registered by their keys, rounds paired by `Tournaments.advance`, and each
table's match finished by the operator forfeiting its second seat (so the first seat
wins), as tests/service/test_tournaments.py plays them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

from service.clock import ManualClock
from service.matches import Matches
from service.settings import Settings
from service.tournaments import Tournaments
from service.usecases.players import NewPlayer
from tests.support.tournaments import players

OPERATOR = "pages-operator"


def operated(folder: Path) -> Matches:
    """Returns a Matches application on a SQLite store in `folder`, on its own clock, with
    the operator (who forfeits seats)."""
    store = folder / "tournaments.sqlite"
    env = Settings(f"sqlite:///{store}").event_store_env()
    return Matches(env=env, clock=ManualClock(), operator_token=OPERATOR)


@dataclass(frozen=True)
class Entered:
    """A tournament and its players (by name, with their keys)."""

    tournament_id: UUID
    made: dict[str, NewPlayer]


def entered(app: Matches, prefix: str, count: int, format: str, **create: Any) -> Entered:
    """Returns a District War tournament of `format` with `count` players registered,
    named `<prefix>1` .. (registration order: seed 1 first)."""
    tournaments = Tournaments(app)
    new = tournaments.create(f"{prefix} cup", format, "district_war", **create)
    made = {name: app.players.create(name) for name in players(count, prefix)}
    for player in made.values():
        tournaments.register(new.tournament_id, player.name, player.key)
    return Entered(new.tournament_id, made)


def current_matches(app: Matches, tournament_id: UUID) -> list[str]:
    """Returns the latest match of each table of the latest round."""
    record = Tournaments(app).get(tournament_id).rounds[-1]
    return [links[-1] for links in record["links"] if links]


def play_round(app: Matches, tournament_id: UUID) -> None:
    """Finishes every unfinished match of the latest round: the operator forfeits seat 2,
    so seat 1 wins; then advances the tournament."""
    for match_id in current_matches(app, tournament_id):
        if not app.get_match(match_id).finished:
            app.act(match_id, OPERATOR, "forfeit", {"seat": 2}, "pages test")
    Tournaments(app).advance(tournament_id)


def play_to_the_end(app: Matches, tournament_id: UUID) -> None:
    """Pairs and plays every round until the tournament has finished."""
    tournaments = Tournaments(app)
    tournaments.advance(tournament_id)
    for _ in range(20):
        if tournaments.get(tournament_id).finished:
            return
        play_round(app, tournament_id)
    raise AssertionError(f"tournament {tournament_id} did not finish in 20 rounds")
