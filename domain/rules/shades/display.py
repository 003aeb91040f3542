"""Shades's Public Display: the position as plain text for mail and forum posts.

A Shades state holds nothing secret (the open turn's orders live outside
it), so the display shows it all: the turn and the clock of the match, the
map with every tomb, shade and human, and each seat's shades, tombs, stored
humans, score and elimination. Each square is two characters: the ground
(`.` ground, `~` water, `+` a tomb square with no standing tomb, `A`-`H` a
standing tomb of seat 1-8), then what stands on it (`1`-`8` a shade of that
seat, `h` a human, a space for nothing); on plain ground what stands there
takes the ground's place (`1 ` rather than `.1`).
"""

from __future__ import annotations

import textwrap
from fractions import Fraction

from domain.rules.shades.board import TOMB, WATER
from domain.rules.shades.config import ContestedHuman
from domain.rules.shades.scoring import end_reason, outcome_of
from domain.rules.shades.state import Reason, Seat, State

WIDTH = 72
_REASONS = {Reason.FORFEIT: "no reply by the deadline", Reason.NO_SHADES: "no shade left"}


def display(state: State) -> str:
    """Returns the Public Display of a state: plain text ending with one newline."""
    settings = state.settings
    lines = [
        f"Shades, turn {state.turn} of {settings.turns} (turns count from 0); "
        f"razing: {settings.razing.value}, scoring: {settings.scoring.value}",
        *_wrap(_original_options(state)),
        f"Humans: {len(state.humans)} on the map, at most {state.human_cap}",
        "",
        *_grid(state),
        "",
        *_wrap(
            "Squares: . ground, ~ water, + tomb square without a standing tomb, A-H a tomb "
            "of seat 1-8; 1-8 a shade of that seat, h a human (after the tomb: A1)."
        ),
        "",
        *(line for seat in state.seats for line in _wrap(_seat_line(state, seat), "    ")),
        "",
        *_wrap(_next(state)),
    ]
    return "\n".join(lines) + "\n"


def _grid(state: State) -> list[str]:
    board = state.settings.board
    ground = {square: TOMB for square in board.tombs} | {square: WATER for square in board.water}
    tombs = {tomb.square: chr(ord("A") + tomb.owner - 1) for tomb in state.standing_tombs}
    above = {human.square: "h" for human in state.humans}
    above |= {shade.square: str(shade.owner) for shade in state.shades}
    header = "   " + "".join(f"{x % 10} " for x in range(board.width))
    rows = [header.rstrip()]
    for y in range(board.height):
        cells = []
        for x in range(board.width):
            base = tombs.get((x, y)) or {TOMB: "+", WATER: "~"}.get(ground.get((x, y), ""), ".")
            on = above.get((x, y), " ")
            cells.append(on + " " if base == "." and on != " " else base + on)
        rows.append(f"{y:2d} " + "".join(cells).rstrip())
    return rows


def _original_options(state: State) -> str:
    """Returns the line naming version 2's options where a match takes the original's (an
    empty text, and no line, where it takes neither)."""
    settings, taken = state.settings, []
    if settings.sequential_bonus:
        taken.append("elimination bonus: sequential (SH-6 option)")
    if settings.contested_human is ContestedHuman.FIRST_FOUND:
        taken.append("contested human: to the first shade found (SH-12 option)")
    return "; ".join(taken)


def _seat_line(state: State, seat: Seat) -> str:
    shades = sum(shade.owner == seat.number for shade in state.shades)
    tombs = [tomb for tomb in state.tombs if tomb.owner == seat.number]
    standing = sum(tomb.standing for tomb in tombs)
    if seat.eliminated is None:
        status = "alive"
    else:
        status = f"eliminated in turn {seat.eliminated.turn} ({_REASONS[seat.eliminated.reason]})"
    return (
        f"Seat {seat.number}: {status}; shades {shades}, tombs standing {standing} of "
        f"{len(tombs)}, humans stored {seat.stored}; score {_score(seat.score)}"
    )


def _next(state: State) -> str:
    reason = end_reason(state)
    if reason is not None:
        outcome = outcome_of(state)
        winners = ", ".join(map(str, outcome.winners))
        return f"The match is over: {reason}. Best score: seat(s) {winners}."
    seats = ", ".join(map(str, state.alive))
    return (
        f"Next: turn {state.turn}; seats alive: {seats}; commands within "
        f"{state.settings.turn_seconds} s; a seat that sends none is eliminated."
    )


def _score(score: Fraction) -> str:
    if score.denominator == 1:
        return str(score.numerator)
    cents = round(score * 100)
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent)
