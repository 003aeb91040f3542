"""B-Chess's Public Display: the Field and the Priority List as plain text for the forum.

The referee of B Nomic kept a Public Display of the Field, its objects and
the Priority List (the Field rule). Each square is three columns: `.` for
an empty square, else the owner's seat number and the object's kind letter
(`2Q`: a Queen of seat 2; the seat comes first so that a square never reads
as a Priority List id). Below the Field: the Priority List top first,
each object's id, owner and square (the ids orders name), each seat's macks
and King, and what comes next.
"""

from __future__ import annotations

import textwrap

from domain.rules.b_chess.config import SIZE
from domain.rules.b_chess.field import square_text
from domain.rules.b_chess.resolve import TROPHY
from domain.rules.b_chess.state import Seat, State

WIDTH = 72


def display(state: State) -> str:
    """Returns the Public Display of a state: plain text ending with one newline."""
    settings = state.settings
    shape = "a torus (edges wrap)" if settings.torus else "edges do not wrap"
    lines = [
        f"B-Chess after Turn of the Field {state.turn}; Field 20 x 20, {shape}",
        "",
        *_grid(state),
        "",
        *_wrap(
            "Squares: . empty, else the owner's seat and the kind (K, P, R, N, B, Q): "
            "2Q is a Queen of seat 2; orders name objects by their ids below (Q7)."
        ),
        "",
        "Priority List (top first):",
        *_priority_list(state),
        "",
        *(line for seat in state.seats for line in _wrap(_seat_line(state, seat), "    ")),
        "",
        *_wrap(_next(state)),
    ]
    return "\n".join(lines) + "\n"


def _grid(state: State) -> list[str]:
    cells = {p.square: f"{p.owner}{p.kind.value}" for p in state.pieces}
    rows = ["    " + "".join(f"{col:<3d}" for col in range(SIZE)).rstrip()]
    for row in range(SIZE):
        line = "".join(f"{cells.get((row, col), '.'):<3s}" for col in range(SIZE))
        rows.append(f"{row:2d}  {line}".rstrip())
    return rows


def _priority_list(state: State) -> list[str]:
    if not state.pieces:
        return ["  (empty)"]
    return [
        f"{place:4d}. {p.id:<6s} {p.kind.noun:<6s} seat {p.owner} on {square_text(p.square)}"
        for place, p in enumerate(state.pieces, 1)
    ]


def _seat_line(state: State, seat: Seat) -> str:
    king = state.king_of(seat.number)
    owned = sum(p.owner == seat.number for p in state.pieces)
    if seat.out:
        standing = "forfeited"
    elif king is None:
        standing = "no King (cannot purchase or win, BC-9)"
    else:
        standing = f"King {king.id} on {square_text(king.square)}"
    return f"Seat {seat.number}: {seat.macks} macks; {standing}; {owned} object(s) on the Field"


def _next(state: State) -> str:
    if state.ended is not None:
        if state.ended.winner is None:
            return f"The match ended in Turn {state.ended.turn}: no King was left, no winner."
        return (
            f"The match ended in Turn {state.ended.turn}: seat {state.ended.winner} has the last "
            f"King and wins {TROPHY.lower()}."
        )
    hours = state.settings.turn_seconds / 3600
    period = f"{hours:g} h" if hours >= 1 else f"{state.settings.turn_seconds} s"
    return (
        f"Next: the Field turns every {period} when orders are pending. Post one action a "
        "line, e.g. 'Q7 to 3,12' or 'purchase' (the first purchase of a Turn is free, then "
        "10, 20, ... macks)."
    )


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent)
