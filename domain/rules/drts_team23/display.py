"""DRTS Team 23's Public Display: the position as plain text for mail and forum posts.

A DRTS Team 23 state holds nothing secret (the open movement's orders live
outside it), so the display shows it all: the movement and the clock of the
match (DRTS-2, DRTS-20), the board with every piece, each seat's team, score
and pieces (out ones with the movement they may come back, DRTS-18), and the
teams' points.
"""

from __future__ import annotations

import textwrap

from domain.rules.drts_team23.board import COLUMNS, ROWS, square_at
from domain.rules.drts_team23.scoring import is_finished, outcome
from domain.rules.drts_team23.state import KINDS, TEAMS, Piece, Seat, State

WIDTH = 72  # columns of a mail or forum line
_LEGEND = "3F = the Fire of seat 3 (W Water, F Fire, P Plant); an empty square shows its number."
_OUT_LEGEND = "out = off the board, may be recovered now; back m9 = from movement 9 (DRTS-18)."


def display(state: State) -> str:
    """Returns the Public Display of a position: plain text, one trailing newline."""
    sections = [_clock(state), _board(state), _seats(state), _teams(state)]
    return "\n\n".join("\n".join(lines) for lines in sections) + "\n"


def _clock(state: State) -> list[str]:
    settings = state.settings
    plan = (
        f"{settings.movements} regular movements, golden point up to movement "
        f"{settings.max_movements} (DRTS-2, DRTS-20)"
    )
    if is_finished(state):
        return textwrap.wrap(f"Finished after movement {state.last_resolved}: {plan}.", WIDTH)
    return textwrap.wrap(f"Movement {state.movement} is open: {plan}.", WIDTH)


def _board(state: State) -> list[str]:
    cells: dict[int, str] = {}
    for piece in state.pieces:
        if piece.square is not None:
            tag = f"{piece.seat}{piece.kind.value[0].upper()}"
            cells[piece.square] = f"{cells[piece.square]}+{tag}" if piece.square in cells else tag
    squares = [
        [square_at(row, column) or 0 for column in range(1, COLUMNS + 1)]
        for row in range(1, ROWS + 1)
    ]
    width = max(3, *(len(text) for text in cells.values()))
    lines = []
    for row in squares:
        lines.append("  ".join(cells.get(s, str(s)).rjust(width) for s in row))
    return [*lines, *textwrap.wrap(_LEGEND, WIDTH)]


def _seats(state: State) -> list[str]:
    lines = ["seat  team    score  water      fire       plant"]
    for seat in state.seats:
        pieces = [_where(state, state.piece(seat.number, kind)) for kind in KINDS]
        lines.append(
            f"{seat.number:<4}  {_team(seat):<6}  {seat.score:>5}  "
            + " ".join(f"{text:<10}" for text in pieces).rstrip()
            + ("  forfeited" if seat.forfeited else "")
        )
    return [*lines, *textwrap.wrap(_OUT_LEGEND, WIDTH)]


def _where(state: State, piece: Piece) -> str:
    if piece.square is not None:
        return str(piece.square)
    if piece.recover_from <= state.movement:
        return "out"
    return f"back m{piece.recover_from}"


def _team(seat: Seat) -> str:
    return seat.team.value if seat.team is not None else "-"


def _teams(state: State) -> list[str]:
    parts = []
    for team in TEAMS:
        members = ", ".join(map(str, state.members(team)))
        parts.append(f"{team.value} {state.team_score(team)} ({_seats_text(members)})")
    lines = textwrap.wrap("Team points: " + "; ".join(parts) + ".", WIDTH)
    if is_finished(state):
        reason = outcome(state).reason
        lines += textwrap.wrap(reason[:1].upper() + reason[1:] + ".", WIDTH)
    return lines


def _seats_text(members: str) -> str:
    if not members:
        return "no seat"
    return f"seat {members}" if "," not in members else f"seats {members}"
