"""Dris et-Tessa's Public Display: the position as plain text for mail and forum posts.

Nothing in a Dris et-Tessa state is hidden, so the display shows it all: the
board drawn with its lines, each seat's pieces on the board and in hand,
the mills standing, the last turn, the count toward the draw (DT-6), what
comes next with the plies the seat to move has (DT-2) and the enemy pieces
a mill would let it remove (DT-4), and the position notation.
"""

from __future__ import annotations

import textwrap

from domain.rules.dris_et_tessa.board import (
    LINES,
    NAMES,
    in_mills,
    line_name,
    names_of,
    points_of,
)
from domain.rules.dris_et_tessa.engine import plies, removable
from domain.rules.dris_et_tessa.notation import format_order, format_position, ply_text
from domain.rules.dris_et_tessa.outcome import outcome
from domain.rules.dris_et_tessa.state import SEATS, State, opponent, pieces

WIDTH = 72  # columns of a mail or forum line
_COLUMNS = "abcdefg"
_LEGEND = "1 = a piece of seat 1, 2 = a piece of seat 2, . = an empty point."


def display(state: State) -> str:
    """Returns the Public Display of a position: plain text, one trailing newline."""
    sections = [_board(state), _seats(state), _play(state)]
    return "\n\n".join("\n".join(lines) for lines in sections) + "\n"


def board_drawing(marks: dict[str, str]) -> list[str]:
    """Returns the board drawn with its lines, `marks[point]` (one character) on each point."""
    canvas = [[" "] * 25 for _ in range(13)]
    for line in LINES:
        (x1, y1), _, (x2, y2) = sorted(_xy(NAMES[p]) for p in points_of(line))
        for x in range(x1, x2 + 1):
            for y in range(y1, y2 + 1):
                canvas[y][x] = "-" if y1 == y2 else "|"
    for name in NAMES:
        x, y = _xy(name)
        canvas[y][x] = marks[name]
    lines = []
    for y, row in enumerate(canvas):
        label = str(7 - y // 2) if y % 2 == 0 else " "
        lines.append(f"{label}  {''.join(row)}".rstrip())
    return [*lines, "   " + "   ".join(_COLUMNS)]


def _xy(name: str) -> tuple[int, int]:
    return 4 * _COLUMNS.index(name[0]), 2 * (7 - int(name[1]))


def _board(state: State) -> list[str]:
    marks = dict.fromkeys(NAMES, ".")
    for seat in SEATS:
        for point in points_of(state.position.boards[seat - 1]):
            marks[NAMES[point]] = str(seat)
    return [*board_drawing(marks), _LEGEND]


def _seats(state: State) -> list[str]:
    lines = []
    for seat in SEATS:
        board, hand = state.position.boards[seat - 1], state.position.hands[seat - 1]
        mills = [line_name(line) for line in LINES if board & line == line]
        text = (
            f"Seat {seat}: {board.bit_count()} on the board, {hand} in hand "
            f"({pieces(state, seat)} pieces); mills: {', '.join(mills) or 'none'}."
        )
        lines += textwrap.wrap(text, WIDTH)
    return lines


def _play(state: State) -> list[str]:
    lines = [f"Turns played: {state.turn}."]
    if state.last is not None:
        lines.append(
            f"Last turn: seat {opponent(state.position.mover)} {format_order(state.last)}."
        )
    draw = state.settings.draw_turns
    lines.append(f"Turns without a removal: {state.quiet_turns} of {draw} (DT-6).")
    result = outcome(state)
    lines += textwrap.wrap(_sentence(result.reason), WIDTH)
    if not result.finished:
        lines += _choices(state)
    return [*lines, f"Position: {format_position(state.position)}"]


def _choices(state: State) -> list[str]:
    seat = state.position.mover
    moves = ", ".join(sorted(ply_text(ply) for ply in plies(state.position)))
    kind = "Placements" if state.position.hands[seat - 1] else "Steps"
    enemy = state.position.boards[opponent(seat) - 1]
    free = removable(enemy)
    rule = "all in mills, so any" if not enemy & ~in_mills(enemy) else "in no mill"
    lines = textwrap.wrap(f"{kind} (DT-2): {moves}.", WIDTH)
    if enemy:
        text = f"A mill would remove one of (DT-4, {rule}): {', '.join(names_of(free))}."
        lines += textwrap.wrap(text, WIDTH)
    return lines


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
