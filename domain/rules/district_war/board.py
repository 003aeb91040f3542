"""The District War board (DW-1): a 7x7 grid of district labels.

Cells are named by column letter a-g (left to right) and row number 1-7, row
1 being the top row, the first string of the board as DW-1 prints it: `a1`
is the top-left cell, `g7` the bottom-right one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from domain.errors import InvalidConfigError

SIDE = 7
DISTRICT_COUNT = 11
COLUMNS = "abcdefg"
CELLS: tuple[str, ...] = tuple(f"{c}{r}" for r in range(1, SIDE + 1) for c in COLUMNS)
DEFAULT_BOARD: tuple[str, ...] = (
    "AAABBBB",
    "AACCDBB",
    "EEFFDDD",
    "EEGFHHI",
    "EGGGHHI",
    "JGGGKII",
    "JJJKKKI",
)


def row_of(cell: str) -> int:
    """Returns the row number (1-7, top to bottom) of a cell name."""
    return int(cell[1:])


def column_of(cell: str) -> str:
    """Returns the column letter (a-g, left to right) of a cell name."""
    return cell[0]


def shares_line(cell: str, other: str) -> bool:
    """Returns whether two cells are in the same row or the same column."""
    return row_of(cell) == row_of(other) or column_of(cell) == column_of(other)


@dataclass(frozen=True)
class Board:
    """A validated board: 7 rows of 7 district labels, top row first (DW-1)."""

    rows: tuple[str, ...]

    def district(self, cell: str) -> str:
        """Returns the label of the district holding a cell."""
        return self.rows[row_of(cell) - 1][COLUMNS.index(column_of(cell))]

    def size(self, district: str) -> int:
        """Returns the number of cells of a district."""
        return sum(row.count(district) for row in self.rows)

    def districts(self) -> tuple[str, ...]:
        """Returns the district labels in alphabetical order."""
        return tuple(sorted(set("".join(self.rows))))

    def cells_of(self, district: str) -> tuple[str, ...]:
        """Returns the cells of a district, row by row from the top-left."""
        return tuple(cell for cell in CELLS if self.district(cell) == district)


def parse_board(value: object) -> Board:
    """Returns the board a config value describes; raises InvalidConfigError naming the fault.

    The value is a list of 7 strings of 7 labels (letters or digits), top row
    first, or one string of those rows separated by `/` or whitespace.
    """
    rows = _rows(value)
    if len(rows) != SIDE:
        raise InvalidConfigError(f"board has {len(rows)} rows; DW-1 needs 7 rows of 7 labels")
    for number, row in enumerate(rows, 1):
        _check_row(number, row)
    board = Board(tuple(rows))
    labels = board.districts()
    if len(labels) != DISTRICT_COUNT:
        raise InvalidConfigError(
            f"board has {len(labels)} districts ({', '.join(labels)}); DW-1 needs exactly 11"
        )
    for label in labels:
        _check_connected(board, label)
    return board


def _rows(value: object) -> list[str]:
    if isinstance(value, str):
        return [row for row in re.split(r"[\s/]+", value) if row]
    if isinstance(value, list | tuple) and all(isinstance(row, str) for row in value):
        return list(value)
    raise InvalidConfigError(f"board must be a list of 7 strings of 7 labels, got {value!r}")


def _check_row(number: int, row: str) -> None:
    if len(row) != SIDE:
        raise InvalidConfigError(f"board row {number} {row!r} has {len(row)} labels; DW-1 needs 7")
    for label in row:
        if not (label.isascii() and label.isalnum()):
            raise InvalidConfigError(
                f"board row {number} {row!r} holds {label!r}: labels are letters or digits"
            )


def _check_connected(board: Board, district: str) -> None:
    cells = board.cells_of(district)
    reached = {cells[0]}
    frontier = [cells[0]]
    while frontier:
        for neighbour in _neighbours(frontier.pop()):
            if neighbour not in reached and board.district(neighbour) == district:
                reached.add(neighbour)
                frontier.append(neighbour)
    cut_off = [cell for cell in cells if cell not in reached]
    if cut_off:
        raise InvalidConfigError(
            f"district {district} is not 4-connected: {', '.join(cut_off)} "
            f"cannot be reached from {cells[0]} through cells of {district}"
        )


def _neighbours(cell: str) -> Iterator[str]:
    column, row = COLUMNS.index(column_of(cell)), row_of(cell)
    for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        if 0 <= column + dc < SIDE and 1 <= row + dr <= SIDE:
            yield f"{COLUMNS[column + dc]}{row + dr}"
