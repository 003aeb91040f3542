"""Builders of DRTS Team 23 positions for the unit tests."""

from __future__ import annotations

from collections.abc import Mapping

from domain.rules.contract import Step
from domain.rules.drts_team23 import RULESET
from domain.rules.drts_team23.config import GameSettings
from domain.rules.drts_team23.orders import Order, parse_order
from domain.rules.drts_team23.resolve import resolve
from domain.rules.drts_team23.state import KINDS, SEATS, Piece, Seat, State, Team
from domain.rules.rng import Rng

_LETTER = {"W": 0, "F": 1, "P": 2}
DEFAULT_TEAMS = {
    1: "green",
    2: "green",
    3: "green",
    4: "yellow",
    5: "yellow",
    6: "yellow",
    7: "blue",
    8: "blue",
}


def position(
    pieces: Mapping[str, int] | None = None,
    *,
    out: Mapping[str, int] | None = None,
    teams: Mapping[int, str] | None = None,
    scores: Mapping[int, int] | None = None,
    team_scores: tuple[int, int, int] = (0, 0, 0),
    movement: int = 1,
    **config: object,
) -> State:
    """Returns a state with the pieces named like "3F" on their squares, every other piece out.

    `out` gives the first recovery movement of out pieces (default 1); teams
    default to none.
    """
    on_board, off = pieces or {}, out or {}
    made = []
    for seat in range(1, SEATS + 1):
        for kind in KINDS:
            name = f"{seat}{kind.value[0].upper()}"
            if name in on_board:
                made.append(Piece(seat, kind, on_board[name]))
            else:
                made.append(Piece(seat, kind, None, off.get(name, 1)))
    seats = tuple(
        Seat(n, Team(teams[n]) if teams and n in teams else None, (scores or {}).get(n, 0))
        for n in range(1, SEATS + 1)
    )
    return State(
        GameSettings.of(RULESET.validate_config(config)), movement, seats, tuple(made), team_scores
    )


def square_of(state: State, name: str) -> int | None:
    """Returns the square of a piece named like "3F" (None when out)."""
    seat, letter = int(name[:-1]), name[-1]
    return state.pieces[(seat - 1) * 3 + _LETTER[letter]].square


def play(state: State, orders: Mapping[int, str | Order]) -> tuple[State, tuple[Step, ...]]:
    """Returns the result of resolving one movement with text or parsed orders, by seat."""
    parsed = [(seat, parse_order(o) if isinstance(o, str) else o) for seat, o in orders.items()]
    return resolve(state, parsed, Rng("tests", state.movement))


def rules(steps: tuple[Step, ...]) -> list[str]:
    """Returns the rule ids of the steps, in order."""
    return [step.rule for step in steps]
