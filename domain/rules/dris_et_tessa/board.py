"""Dris et-Tessa's board (DT-1): the 24 points, their lines and neighbours, as bit tables.

The board is the Nine Men's Morris board: three concentric squares whose side
midpoints are joined, no diagonals and no centre. Points are named as in
Morris notation, column a-g from the left and row 1-7 from the bottom:

    7  a7----------d7----------g7
       |           |           |
    6  |   b6------d6------f6  |
       |   |       |       |   |
    5  |   |   c5--d5--e5  |   |
       |   |   |       |   |   |
    4  a4--b4--c4      e4--f4--g4
       |   |   |       |   |   |
    3  |   |   c3--d3--e3  |   |
       |   |       |       |   |
    2  |   b2------d2------f2  |
       |           |           |
    1  a1----------d1----------g1
       a   b   c   d   e   f   g

A position is two 24-bit masks, one per seat. Bit `8 * ring + step` is the
point `step` places clockwise round a ring from its lower-left corner
(ring 0 the outer square, 2 the inner): corners have even steps, side
midpoints odd ones. So a step along a ring is a rotation of that ring's byte
by one bit, and a step along a spoke (the joined midpoints) a shift by 8
bits of the midpoints: `SHIFTS` are those four directions, and every table
below is computed from these two facts.
"""

from __future__ import annotations

from collections.abc import Callable

RINGS: tuple[tuple[str, ...], ...] = (
    ("a1", "d1", "g1", "g4", "g7", "d7", "a7", "a4"),
    ("b2", "d2", "f2", "f4", "f6", "d6", "b6", "b4"),
    ("c3", "d3", "e3", "e4", "e5", "d5", "c5", "c4"),
)
NAMES: tuple[str, ...] = tuple(name for ring in RINGS for name in ring)  # by bit index
INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
POINTS = 24
FULL = (1 << POINTS) - 1

# The rows of the board top to bottom, each left to right: the reading order of a drawing.
ROWS: tuple[tuple[str, ...], ...] = (
    ("a7", "d7", "g7"),
    ("b6", "d6", "f6"),
    ("c5", "d5", "e5"),
    ("a4", "b4", "c4", "e4", "f4", "g4"),
    ("c3", "d3", "e3"),
    ("b2", "d2", "f2"),
    ("a1", "d1", "g1"),
)
READING_ORDER: tuple[str, ...] = tuple(name for row in ROWS for name in row)
ALPHABETICAL: tuple[str, ...] = tuple(sorted(NAMES))

_EVEN = 0x555555  # the corners
_MIDPOINTS = 0xAAAAAA
_INNER_SIDE = 0x00AAAA  # midpoints of rings 0 and 1: they have a neighbour one ring in
_OUTER_SIDE = 0xAAAA00  # midpoints of rings 1 and 2: they have a neighbour one ring out


def clockwise(mask: int) -> int:
    """Returns the mask moved one point clockwise round each ring."""
    return ((mask << 1) & 0xFEFEFE) | ((mask >> 7) & 0x010101)


def anticlockwise(mask: int) -> int:
    """Returns the mask moved one point anticlockwise round each ring."""
    return ((mask >> 1) & 0x7F7F7F) | ((mask << 7) & 0x808080)


def inwards(mask: int) -> int:
    """Returns the midpoints of the mask moved one ring in (the inner ring's stay out)."""
    return (mask & _INNER_SIDE) << 8


def outwards(mask: int) -> int:
    """Returns the midpoints of the mask moved one ring out (the outer ring's stay out)."""
    return (mask & _OUTER_SIDE) >> 8


# The four directions of a step, each with its inverse (the way back to the origin).
SHIFTS: tuple[tuple[Callable[[int], int], Callable[[int], int]], ...] = (
    (clockwise, anticlockwise),
    (anticlockwise, clockwise),
    (inwards, outwards),
    (outwards, inwards),
)


def _lines() -> tuple[int, ...]:
    sides = [
        (1 << (8 * ring + step))
        | (1 << (8 * ring + (step + 1) % 8))
        | (1 << (8 * ring + (step + 2) % 8))
        for ring in range(3)
        for step in (0, 2, 4, 6)
    ]
    spokes = [(1 << step) | (1 << (step + 8)) | (1 << (step + 16)) for step in (1, 3, 5, 7)]
    return tuple(sides + spokes)


LINES: tuple[int, ...] = _lines()  # the 16 lines of three (DT-1)
# The two lines through each point: every point lies on exactly one row and one column.
LINES_AT: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a, b in (tuple(line for line in LINES if line >> i & 1) for i in range(POINTS))
)
NEIGHBOURS: tuple[int, ...] = tuple(
    clockwise(1 << i) | anticlockwise(1 << i) | inwards(1 << i) | outwards(1 << i)
    for i in range(POINTS)
)
# STEP_FROM[d][t]: the point a step in direction d comes from to reach t (-1: none).
STEP_FROM: tuple[tuple[int, ...], ...] = tuple(
    tuple(back(1 << t).bit_length() - 1 for t in range(POINTS)) for _, back in SHIFTS
)

# Set bits of every 12-bit value, for picking the k-th point of a mask by two look-ups.
_LOW_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(12) if value >> i & 1) for value in range(1 << 12)
)
_HIGH_BITS: tuple[tuple[int, ...], ...] = tuple(tuple(i + 12 for i in bits) for bits in _LOW_BITS)


def points_of(mask: int) -> tuple[int, ...]:
    """Returns the indices of the points in a mask, in bit order."""
    return _LOW_BITS[mask & 0xFFF] + _HIGH_BITS[mask >> 12]


def nth_point(mask: int, k: int) -> int:
    """Returns the index of the k-th point (0-based, bit order) of a mask with more than k."""
    low = _LOW_BITS[mask & 0xFFF]
    if k < len(low):
        return low[k]
    return _HIGH_BITS[mask >> 12][k - len(low)]


def in_mills(mask: int) -> int:
    """Returns the points of a seat's mask that lie on a line of three of its pieces (DT-4)."""
    turned = anticlockwise(mask)
    corners = mask & turned & anticlockwise(turned) & _EVEN  # a side starting at each corner
    sides = corners | clockwise(corners) | clockwise(clockwise(corners))
    spokes = mask & (mask >> 8) & (mask >> 16) & _MIDPOINTS & 0xFF
    return sides | spokes | (spokes << 8) | (spokes << 16)


def mills_through(mask: int, point: int) -> tuple[int, ...]:
    """Returns the lines through `point` that `mask` fills (none, one or two; DT-3)."""
    return tuple(line for line in LINES_AT[point] if mask & line == line)


def mask_of(names: tuple[str, ...] | list[str]) -> int:
    """Returns the mask of the named points (names must be valid)."""
    mask = 0
    for name in names:
        mask |= 1 << INDEX[name]
    return mask


def names_of(mask: int) -> tuple[str, ...]:
    """Returns the names of the points in a mask, alphabetically."""
    return tuple(sorted(NAMES[i] for i in points_of(mask)))


def line_name(line: int) -> str:
    """Returns a line's points joined by dashes, alphabetically (`a1-a4-a7`, `a7-d7-g7`)."""
    return "-".join(name for name in ALPHABETICAL if line >> INDEX[name] & 1)
