"""The map of a Shades match (SH-1, SH-2): its squares, read from PPM content or rows.

A map is data (SH-2): a plain-text PPM image ("P3") whose pixels are white
(empty ground), blue (water) or red (a tomb). It reaches the rules as content,
never as a path; the match config records it in its normalized form, one
string a row, one character a square, top row first:

    "."  empty ground
    "~"  water: no shade may stand on it, attacks reach across it (SH-1)
    "T"  a tomb square (a seat's base when assigned, plain ground otherwise, SH-2)

Coordinates are (x, y): x the column, y the row, (0, 0) the top left, as in the
contest's protocol. Edges do not wrap (SH-1).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from domain.errors import InvalidConfigError
from domain.rules.contract import JSON

Square = tuple[int, int]

GROUND, WATER, TOMB = ".", "~", "T"
MIN_SIDE, MAX_SIDE = 2, 100  # squares a side: sane limits, not rules
MIN_TOMBS = 2  # one a seat for the fewest seats (2)

ATTACK_RANGE = 5  # SH-1: squared Euclidean distance
CONVERSION_RANGE = 1  # SH-1: squared Euclidean distance
# SH-1: every offset within the attack range (the shade's own square excluded)
ATTACK_OFFSETS: tuple[Square, ...] = tuple(
    (dx, dy) for dy in range(-2, 3) for dx in range(-2, 3) if 0 < dx * dx + dy * dy <= ATTACK_RANGE
)
# SH-1: the human's own square and its four neighbours
CONVERSION_OFFSETS: tuple[Square, ...] = ((0, 0), (0, -1), (1, 0), (0, 1), (-1, 0))

_ROW = re.compile(r"^[.~T]+$")
_COMMENT = re.compile(r"#[^\n]*")


@dataclass(frozen=True)
class Board:
    """A map's squares: size, water, tomb squares (in map order) and land squares."""

    rows: tuple[str, ...]
    width: int
    height: int
    water: frozenset[Square]
    tombs: tuple[Square, ...]  # row by row, left to right (the map's order)
    land: tuple[Square, ...]  # every square not water, in map order (births, SH-8)

    def inside(self, square: Square) -> bool:
        """Returns whether a square is on the map (SH-1: edges do not wrap)."""
        x, y = square
        return 0 <= x < self.width and 0 <= y < self.height

    def is_open(self, square: Square) -> bool:
        """Returns whether a shade may stand on the square: on the map and not water."""
        return self.inside(square) and square not in self.water


@functools.lru_cache(maxsize=64)
def board_of(rows: tuple[str, ...]) -> Board:
    """Returns the Board of normalized rows (cached: the same map serves every turn)."""
    water = frozenset(_squares(rows, WATER))
    return Board(
        rows=rows,
        width=len(rows[0]),
        height=len(rows),
        water=water,
        tombs=tuple(_squares(rows, TOMB)),
        land=tuple(_squares(rows, GROUND, TOMB)),
    )


def parse_map(value: JSON) -> list[str]:
    """Returns a map's normalized rows from PPM content (a string) or rows (a list).

    Raises InvalidConfigError saying what is wrong: not PPM, a bad header, a
    pixel of another colour (with its square), the wrong number of values, a
    size outside 2..100 a side, fewer than 2 tombs, or rows that are not
    equally long strings of ".", "~" and "T".
    """
    if isinstance(value, str):
        return _checked(_rows_of_ppm(value))
    if isinstance(value, list) and all(isinstance(row, str) for row in value):
        return _checked(list(value))
    raise InvalidConfigError(
        "a map is PPM content (a string starting 'P3') or a list of rows of '.', '~' and 'T'; "
        f"got {_preview(value)} (a map name is expanded only by the service, at creation)"
    )


def to_ppm(rows: Sequence[str], comment: str = "") -> str:
    """Returns the plain PPM text of a map (white ground, blue water, red tombs)."""
    colours = {GROUND: "255 255 255", WATER: "0 0 255", TOMB: "255 0 0"}
    lines = ["P3"] + ([f"# {comment}"] if comment else [])
    lines += [f"{len(rows[0])} {len(rows)}", "255"]
    lines += ["  ".join(colours[c] for c in row) for row in rows]
    return "\n".join(lines) + "\n"


def _squares(rows: Sequence[str], *kinds: str) -> list[Square]:
    return [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c in kinds]


def _rows_of_ppm(text: str) -> list[str]:
    tokens = _COMMENT.sub(" ", text).split()
    if not tokens or tokens[0] != "P3":
        raise InvalidConfigError(
            f"a map is a plain PPM image starting 'P3', got {_preview(text)} "
            "(a map name is expanded only by the service, at creation)"
        )
    width, height, top = (_header_number(tokens, i, name) for i, name in _HEADER)
    _check_size(width, height)
    values = tokens[4:]
    if len(values) != 3 * width * height:
        raise InvalidConfigError(
            f"a {width}x{height} PPM map has {3 * width * height} colour values, got {len(values)}"
        )
    kinds = {(top, top, top): GROUND, (0, 0, top): WATER, (top, 0, 0): TOMB}
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            at = 3 * (y * width + x)
            red, green, blue = (_colour(values[at + i], top, x, y) for i in range(3))
            kind = kinds.get((red, green, blue))
            if kind is None:
                raise InvalidConfigError(
                    f"map square ({x}, {y}) has colour ({red}, {green}, {blue}): only white "
                    f"({top}, {top}, {top}), blue (0, 0, {top}) and red ({top}, 0, 0) are "
                    "allowed (SH-2)"
                )
            row.append(kind)
        rows.append("".join(row))
    return rows


_HEADER = ((1, "width"), (2, "height"), (3, "maximum colour value"))


def _header_number(tokens: list[str], index: int, name: str) -> int:
    if len(tokens) <= index or not tokens[index].isdigit():
        found = tokens[index] if len(tokens) > index else "nothing"
        raise InvalidConfigError(f"the PPM header needs its {name} as a number, got {found!r}")
    number = int(tokens[index])
    if index == 3 and not 1 <= number <= 65535:
        raise InvalidConfigError(f"the PPM maximum colour value must be 1..65535, got {number}")
    return number


def _colour(token: str, top: int, x: int, y: int) -> int:
    if not token.isdigit() or int(token) > top:
        raise InvalidConfigError(
            f"map square ({x}, {y}): {token!r} is not a colour value from 0 to {top}"
        )
    return int(token)


def _check_size(width: int, height: int) -> None:
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise InvalidConfigError(
            f"a map is {MIN_SIDE} to {MAX_SIDE} squares a side, got {width}x{height}"
        )


def _checked(rows: list[str]) -> list[str]:
    if not rows:
        raise InvalidConfigError("a map needs at least one row")
    _check_size(len(rows[0]), len(rows))
    for y, row in enumerate(rows):
        if len(row) != len(rows[0]) or not _ROW.match(row):
            raise InvalidConfigError(
                f"map row {y} must be {len(rows[0])} characters of '.', '~' and 'T', got {row!r}"
            )
    tombs = sum(row.count(TOMB) for row in rows)
    if tombs < MIN_TOMBS:
        raise InvalidConfigError(f"a map needs at least {MIN_TOMBS} tombs (SH-2), got {tombs}")
    return rows


def _preview(value: JSON) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
