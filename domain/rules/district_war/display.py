"""District War's Public Display: the position as plain text for mail and forum posts.

Everything in a District War state is public, so the display shows it all:
who places first, the board with every troop, the last troop marked, each
district's troops and holder (DW-4), the points, and what comes next with the
cells DW-3 allows.
"""

from __future__ import annotations

import textwrap

from domain.rules.district_war.board import COLUMNS, SIDE
from domain.rules.district_war.placement import allowed_cells
from domain.rules.district_war.scoring import district_winner, outcome, points, troop_counts
from domain.rules.district_war.state import SEATS, State, is_over, occupants, troops_placed

WIDTH = 72  # columns of a mail or forum line
_LEGEND = (
    "A1 = a troop of seat 1 in district A, A. = an empty cell of district A, "
    "* = the last troop placed; row 1 is the top row."
)


def display(state: State) -> str:
    """Returns the Public Display of a position: plain text, one trailing newline."""
    sections = [
        [_who_places_first(state)],
        _board(state),
        _districts(state),
        _standing(state),
    ]
    return "\n\n".join("\n".join(lines) for lines in sections) + "\n"


def _who_places_first(state: State) -> str:
    dmo = state.settings.dmo
    if state.first is None:
        return f"Seat {dmo} is the DMO; it has not chosen who places first yet (DW-2)."
    return f"Seat {dmo} is the DMO; seat {state.first} places first (DW-2)."


def _board(state: State) -> list[str]:
    taken = occupants(state)
    last = state.placements[-1] if state.placements else None
    board = state.settings.board
    lines = ["     " + "   ".join(COLUMNS)]
    for row in range(1, SIDE + 1):
        cells = []
        for column in COLUMNS:
            cell = f"{column}{row}"
            seat = taken.get(cell)
            mark = "*" if cell == last else " "
            cells.append(board.district(cell) + ("." if seat is None else str(seat)) + mark)
        lines.append(f"{row:>2}   " + " ".join(cells).rstrip())
    return [*lines, *textwrap.wrap(_LEGEND, WIDTH)]


def _districts(state: State) -> list[str]:
    board = state.settings.board
    lines = ["district  size  seat 1  seat 2  held by (DW-4)"]
    for district, troops in troop_counts(state).items():
        winner = district_winner(troops)
        holder = "nobody" if winner is None else f"seat {winner}"
        size = board.size(district)
        lines.append(f"{district:<8}  {size:>4}  {troops[1]:>6}  {troops[2]:>6}  {holder}")
    return lines


def _standing(state: State) -> list[str]:
    troops = state.settings.troops
    placed = ", ".join(f"seat {s} {troops_placed(state, s)} of {troops}" for s in SEATS)
    scores = points(state)
    lines = [
        f"Troops placed: {placed}.",
        f"Points: seat 1 {scores[1]}, seat 2 {scores[2]}.",
        *textwrap.wrap(_sentence(outcome(state).reason), WIDTH),
    ]
    if state.first is not None and not is_over(state):
        clause, cells = allowed_cells(state)
        allowed = f"Allowed cells (DW-3, {clause}): {', '.join(cells)}."
        lines += textwrap.wrap(allowed, WIDTH)
    return lines


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
