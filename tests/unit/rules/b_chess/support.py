"""Builders of B-Chess positions for the unit tests."""

from __future__ import annotations

from collections.abc import Sequence

from domain.rules.b_chess.config import GameSettings
from domain.rules.b_chess.field import Kind
from domain.rules.b_chess.state import Piece, Seat, State


def position(
    pieces: Sequence[tuple[str, int, int, int]],
    *,
    seats: int = 2,
    macks: int = 50,
    torus: bool = True,
    refund: bool = False,
) -> State:
    """Returns a state at Turn 0 holding `pieces`, each (id, owner, row, col), top first."""
    objects = tuple(Piece(int(i[1:]), Kind(i[0]), owner, (r, c)) for i, owner, r, c in pieces)
    return State(
        settings=GameSettings(torus=torus, refund=refund),
        turn=0,
        seats=tuple(Seat(n, macks) for n in range(1, seats + 1)),
        pieces=objects,
        next_number=max((p.number for p in objects), default=0) + 1,
    )
