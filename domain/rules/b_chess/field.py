"""The Field of B-Chess and how its pieces move (BC-1, BC-8).

Squares are (row, col), 0..19 each (BC-1). On a torus (the default) a step
off one edge comes back at the opposite edge; otherwise the edge stops a
move. Each square has 8 neighbours (BC-1). A move is a direction and a
distance: King 1 in any of the 8 directions, Pawn 1 orthogonal (a move) or 1
diagonal (a capture), Rook 1..8 orthogonal, Bishop 1..8 diagonal, Queen 1..8
in any of the 8 directions, Knight a (2, 1) leap (BC-8). On a 20 x 20 torus
a target square is reached by at most one such move (8 + 8 < 20), so a move
is named by its target square alone ("the shortest and most direct route").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from domain.rules.b_chess.config import SIZE

Square = tuple[int, int]
Direction = tuple[int, int]

ORTHOGONAL: tuple[Direction, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
DIAGONAL: tuple[Direction, ...] = ((-1, -1), (-1, 1), (1, 1), (1, -1))
EVERY_WAY = ORTHOGONAL + DIAGONAL
KNIGHT_LEAPS: tuple[Direction, ...] = (
    (-2, -1), (-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2),
)  # fmt: skip
SLIDE = 8  # BC-8: Rook, Bishop and Queen move 1 to 8 squares


class Kind(StrEnum):
    """The kinds of Field Object, by the letter that starts their Priority List id."""

    KING = "K"
    PAWN = "P"
    ROOK = "R"
    KNIGHT = "N"
    BISHOP = "B"
    QUEEN = "Q"

    @property
    def noun(self) -> str:
        """Returns the kind's name, e.g. "Queen"."""
        return self.name.capitalize()


MOVES: dict[Kind, str] = {
    Kind.KING: "a King moves 1 square in any of the 8 directions",
    Kind.PAWN: "a Pawn moves 1 square orthogonally to an empty square or captures 1 square "
    "diagonally",
    Kind.ROOK: "a Rook moves 1 to 8 squares orthogonally",
    Kind.KNIGHT: "a Knight leaps 2 squares one way and 1 square across",
    Kind.BISHOP: "a Bishop moves 1 to 8 squares diagonally",
    Kind.QUEEN: "a Queen moves 1 to 8 squares in any of the 8 directions",
}


@dataclass(frozen=True)
class Move:
    """A geometric move: where it ends, the squares it passes through (which must be empty
    unless it leaps) and whether it is a Pawn's diagonal capture."""

    target: Square
    between: tuple[Square, ...] = ()
    leaps: bool = False
    pawn_capture: bool = False


def shift(square: Square, dr: int, dc: int, torus: bool) -> Square | None:
    """Returns the square (dr, dc) away, wrapping on a torus; None when it is off the Field."""
    row, col = square[0] + dr, square[1] + dc
    if torus:
        return (row % SIZE, col % SIZE)
    return (row, col) if 0 <= row < SIZE and 0 <= col < SIZE else None


def neighbours(square: Square, torus: bool) -> tuple[Square, ...]:
    """Returns the (up to 8) squares adjacent to `square` (BC-1), in a fixed order."""
    found = (shift(square, dr, dc, torus) for dr, dc in EVERY_WAY)
    return tuple(s for s in found if s is not None)


def _ways(kind: Kind) -> tuple[tuple[Direction, ...], int]:
    if kind in (Kind.KING, Kind.PAWN):
        return (EVERY_WAY, 1)
    if kind is Kind.ROOK:
        return (ORTHOGONAL, SLIDE)
    if kind is Kind.BISHOP:
        return (DIAGONAL, SLIDE)
    if kind is Kind.QUEEN:
        return (EVERY_WAY, SLIDE)
    return (KNIGHT_LEAPS, 1)


@cache
def moves(kind: Kind, origin: Square, torus: bool) -> tuple[Move, ...]:
    """Returns every geometric move of a piece of `kind` on `origin` (BC-8), in a fixed
    order, before any look at what stands on the Field (cached: the Field never changes)."""
    return tuple(_moves(kind, origin, torus))


def _moves(kind: Kind, origin: Square, torus: bool) -> Iterator[Move]:
    directions, reach = _ways(kind)
    for dr, dc in directions:
        for distance in range(1, reach + 1):
            target = shift(origin, dr * distance, dc * distance, torus)
            if target is None:
                break
            between = tuple(
                s
                for step in range(1, distance)
                if (s := shift(origin, dr * step, dc * step, torus)) is not None
            )
            yield Move(
                target,
                between=() if kind is Kind.KNIGHT else between,
                leaps=kind is Kind.KNIGHT,
                pawn_capture=kind is Kind.PAWN and dr != 0 and dc != 0,
            )


def move_to(kind: Kind, origin: Square, target: Square, torus: bool) -> Move | None:
    """Returns the one geometric move of `kind` from `origin` to `target` (BC-8), or None
    when the piece cannot get there in one move."""
    return next((m for m in moves(kind, origin, torus) if m.target == target), None)


def square_text(square: Square) -> str:
    """Returns a square as the order syntax writes it: "3,12" (row, col)."""
    return f"{square[0]},{square[1]}"
