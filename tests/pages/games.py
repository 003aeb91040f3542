"""Matches of every game played through the Matches application for the page tests:
known seeds, and each seat's orders drawn by the game's own `random_order` from an Rng
of the seed and movement (so the same every run)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from domain.rules.registry import get_ruleset
from domain.rules.rng import Rng
from service.clock import ManualClock
from service.matches import Matches

SEATS = {"district_war": 2, "drts_team23": 8, "shades": 4, "dris_et_tessa": 2, "b_chess": 4}
GAMES = tuple(SEATS)


@dataclass
class Played:
    """A match being played: its id and seat tokens (by seat number)."""

    match_id: UUID
    referee: str
    tokens: dict[int, str]
    seed: str


def new_match(app: Matches, ruleset: str, seed: str, **create: object) -> Played:
    """Creates, fills and starts a match of `ruleset` with the seed `seed`."""
    new = app.create_match(ruleset, seats=SEATS[ruleset], seed=seed, **create)  # type: ignore[arg-type]
    tokens = {}
    for number in range(1, SEATS[ruleset] + 1):
        seat = app.join(new.match_id, f"player {number}")
        tokens[seat.seat] = seat.token
    app.start(new.match_id, new.referee_token)
    return Played(new.match_id, str(new.referee_token), tokens, seed)


def play_movement(app: Matches, played: Played, only: int | None = None) -> None:
    """Sends one legal order from every seat to move (from seat `only` alone if given);
    the movement resolves once every seat to move has ordered."""
    table = app.get_match(played.match_id).table()
    ruleset = table.ruleset
    rng = Rng(played.seed, table.movement, "pages-test")
    for seat in table.to_move().seats:
        if only is not None and seat != only:
            continue
        order = ruleset.dump_order(ruleset.random_order(table.state, seat, rng))
        app.submit_order(played.match_id, played.tokens[seat], order)
    if only is None:
        close_at_deadline(app, played.match_id, table.movement)


def close_at_deadline(app: Matches, match_id: UUID, movement: int) -> None:
    """Resolves the movement at its deadline if it is still open (a game that waits for
    the deadline), moving the hand-driven clock there."""
    summary = app.summary(match_id)
    if summary.status == "started" and summary.movement == movement and summary.deadline:
        clock = app.clock
        assert isinstance(clock, ManualClock), "the page tests drive the clock by hand"
        clock.reach(datetime.fromisoformat(summary.deadline) + timedelta(seconds=1))
        app.resolve(match_id, movement, clock.now)


def played_match(app: Matches, ruleset: str, movements: int, seed: str = "pages") -> Played:
    """Returns a match of `ruleset` with `movements` movements resolved (fewer if it ends)."""
    played = new_match(app, ruleset, seed)
    for _ in range(movements):
        if app.summary(played.match_id).status != "started":
            break
        play_movement(app, played)
    return played


def ruleset_title(ruleset: str) -> str:
    return get_ruleset(ruleset).info.title
