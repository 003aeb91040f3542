"""The DRTS Team 23 board: squares and neighbours (DRTS-1), start squares (DRTS-3), recovery areas.

Squares are numbered 1..42 row by row from the top-left of a 6-column,
7-row board: square n is in row ceil(n/6) and column n - 6(row - 1).
Neighbour tables are computed once, at import.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache

COLUMNS = 6
ROWS = 7
SQUARE_COUNT = COLUMNS * ROWS
CORNERS = (1, 6, 37, 42)

# DRTS-18: the base recovery area, its centre row and the extended area.
BASE_RECOVERY = (15, 16, 19, 20, 21, 22, 23, 24, 27, 28)
CENTRE_ROW = (19, 20, 21, 22, 23, 24)
EXTENDED_RECOVERY = (13, 14, 15, 16, 17, 18, 25, 26, 27, 28, 29, 30)
_CENTRE_ROW_MINIMUM = 5  # "4 or fewer of 19-24 usable" opens the extended area

# DRTS-3: the first square of each seat's three, Water, Fire, Plant left to right.
_START_FIRST_SQUARE = (1, 4, 7, 10, 31, 34, 37, 40)


def is_square(value: int) -> bool:
    """Returns whether `value` is a square number of the board (1..42)."""
    return 1 <= value <= SQUARE_COUNT


def row(square: int) -> int:
    """Returns the row (1..7, top to bottom) of a square."""
    return (square - 1) // COLUMNS + 1


def column(square: int) -> int:
    """Returns the column (1..6, left to right) of a square."""
    return (square - 1) % COLUMNS + 1


def square_at(row_number: int, column_number: int) -> int | None:
    """Returns the square at a row and column, or None off the board."""
    if 1 <= row_number <= ROWS and 1 <= column_number <= COLUMNS:
        return (row_number - 1) * COLUMNS + column_number
    return None


def _neighbours(square: int, offsets: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    found = (square_at(row(square) + dr, column(square) + dc) for dr, dc in offsets)
    return tuple(sorted(n for n in found if n is not None))


_ORTHOGONAL_OFFSETS = ((-1, 0), (0, -1), (0, 1), (1, 0))
_DIAGONAL_OFFSETS = ((-1, -1), (-1, 1), (1, -1), (1, 1))

# Indexed by square number; index 0 is unused.
ORTHOGONAL: tuple[tuple[int, ...], ...] = (
    (),
    *(_neighbours(s, _ORTHOGONAL_OFFSETS) for s in range(1, SQUARE_COUNT + 1)),
)
DIAGONAL: tuple[tuple[int, ...], ...] = (
    (),
    *(_neighbours(s, _DIAGONAL_OFFSETS) for s in range(1, SQUARE_COUNT + 1)),
)


def is_orthogonal_step(origin: int, target: int) -> bool:
    """Returns whether `target` is one square up, down, left or right of `origin`."""
    return target in ORTHOGONAL[origin]


def is_diagonal_step(origin: int, target: int) -> bool:
    """Returns whether `target` is one square diagonally next to `origin`."""
    return target in DIAGONAL[origin]


def start_squares(seat: int) -> tuple[int, int, int]:
    """Returns seat's start squares of Water, Fire and Plant (DRTS-3; seats 1..8)."""
    first = _START_FIRST_SQUARE[seat - 1]
    return (first, first + 1, first + 2)


def recovery_squares(blocked: Collection[int] = ()) -> tuple[int, ...]:
    """Returns the squares a seat may recover on, given the squares blocked for it (DRTS-18).

    `blocked` holds the squares with an own or ally Generator or DeathStar or
    with a Blackhole. The base area minus the blocked squares is usable; if 4
    or fewer of the centre row 19-24 are usable, the unblocked squares of the
    extended area 13-18 and 25-30 are usable too.
    """
    return _recovery_squares(frozenset(blocked))


@lru_cache(maxsize=256)  # few blocked sets recur: none in v1, a handful of items in v2
def _recovery_squares(blocked: frozenset[int]) -> tuple[int, ...]:
    base = [s for s in BASE_RECOVERY if s not in blocked]
    usable_centre = sum(1 for s in CENTRE_ROW if s not in blocked)
    if usable_centre >= _CENTRE_ROW_MINIMUM:
        return tuple(base)
    extended = (s for s in EXTENDED_RECOVERY if s not in blocked)
    return tuple(sorted(set(base).union(extended)))


# DRTS-11: the direction (row, column) from a square towards each corner.
_TOWARDS_CORNER = {1: (-1, -1), 6: (-1, 1), 37: (1, -1), 42: (1, 1)}
_RAY_LENGTH = 3


def deathstar_area(square: int, corner: int, ray: bool = False) -> tuple[int, ...]:
    """Returns the area of a DeathStar on `square` pointing at `corner` (DRTS-11), clipped
    at the edges: the three neighbours towards the corner (pointing at 1: north, north-west,
    west), or with `ray` the three squares along the diagonal towards it (the option)."""
    return _AREAS[square, corner, ray]


def _area(square: int, corner: int, ray: bool) -> tuple[int, ...]:
    dr, dc = _TOWARDS_CORNER[corner]
    if ray:
        offsets = tuple((dr * k, dc * k) for k in range(1, _RAY_LENGTH + 1))
    else:
        offsets = ((dr, 0), (dr, dc), (0, dc))
    return _neighbours(square, offsets)


_AREAS = {
    (square, corner, ray): _area(square, corner, ray)
    for square in range(1, SQUARE_COUNT + 1)
    for corner in CORNERS
    for ray in (False, True)
}
