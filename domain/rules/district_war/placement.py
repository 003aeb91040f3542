"""Where a troop may go (DW-3), with the reason when it may not."""

from __future__ import annotations

from enum import StrEnum

from domain.errors import IllegalOrderError
from domain.rules.district_war.board import CELLS, column_of, row_of, shares_line
from domain.rules.district_war.state import (
    State,
    occupants,
    placer,
    seat_to_act,
    troops_placed,
)

_SMALL = 3  # DW-3: no first troop in a district of size 3 or less


class Clause(StrEnum):
    """The clause of DW-3 that governs a troop."""

    FIRST = "first troop of the game: outside districts of size 3 or less"
    LINE = "row or column of the opponent's last troop, outside its district"
    ANYWHERE = "no empty cell in that row or column outside its district: anywhere"
    LAST = "the seat's last troop: anywhere"


def allowed_cells(state: State) -> tuple[Clause, tuple[str, ...]]:
    """Returns the DW-3 clause governing the next troop and the empty cells it allows."""
    taken = occupants(state)
    empty = tuple(cell for cell in CELLS if cell not in taken)
    board = state.settings.board
    if not state.placements:
        return Clause.FIRST, tuple(c for c in empty if board.size(board.district(c)) > _SMALL)
    seat = seat_to_act(state)
    if seat is not None and troops_placed(state, seat) == state.settings.troops - 1:
        return Clause.LAST, empty
    last = state.placements[-1]
    line = tuple(
        c for c in empty if shares_line(c, last) and board.district(c) != board.district(last)
    )
    return (Clause.LINE, line) if line else (Clause.ANYWHERE, empty)


def check_placement(state: State, cell: str) -> Clause:
    """Returns the clause allowing the next troop on `cell`; raises IllegalOrderError if none."""
    taken = occupants(state)
    if cell in taken:
        raise IllegalOrderError(f"{cell} is taken by a troop of seat {taken[cell]} (DW-3)")
    clause, cells = allowed_cells(state)
    if cell not in cells:
        raise IllegalOrderError(_why_not(state, cell))
    return clause


def _why_not(state: State, cell: str) -> str:
    board = state.settings.board
    district = board.district(cell)
    if not state.placements:
        return (
            f"{cell} is in district {district} of size {board.size(district)}: the first troop "
            f"of the game goes in a district of size {_SMALL + 1} or more (DW-3)"
        )
    last = state.placements[-1]
    owner = placer(state, len(state.placements) - 1)
    where = f"seat {owner}'s last troop at {last}"
    if not shares_line(cell, last):
        return (
            f"{cell} is not in the row or column of {where} "
            f"(row {row_of(last)}, column {column_of(last)}) (DW-3)"
        )
    return f"{cell} is in district {district}, the district of {where} (DW-3)"
