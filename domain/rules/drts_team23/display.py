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
from domain.rules.drts_team23.state import KINDS, TEAMS, Item, Piece, Seat, State

WIDTH = 72  # columns of a mail or forum line
_LEGEND = "3F = the Fire of seat 3 (W Water, F Fire, P Plant); an empty square shows its number."
_OUT_LEGEND = "out = off the board, may be recovered now; back m9 = from movement 9 (DRTS-18)."


_ITEM_LEGEND = (
    "1F* = a Star (until movement m, in the table below); 1F# = a Generator (its counter "
    "below); D2 = a DeathStar of seat 2, B2 = a Blackhole of seat 2 (DRTS-11, DRTS-13, "
    "DRTS-15, DRTS-16)."
)
_ITEM_TAGS = {Item.DEATHSTAR: "D", Item.BLACKHOLE: "B"}


def display(state: State) -> str:
    """Returns the Public Display of a position: plain text, one trailing newline."""
    sections = [_clock(state), _board(state), _seats(state), _teams(state)]
    return "\n\n".join("\n".join(lines) for lines in sections) + "\n"


def display_v2(state: State) -> str:
    """Returns version 2's Public Display: version 1's with Stars, Generators, DeathStars
    and Blackholes on the board, each seat's Stars and item stock, the Generators' and
    running meetings' counters."""
    board = _board(state, items=True) + textwrap.wrap(_ITEM_LEGEND, WIDTH)
    sections = [_clock(state), board, _seats(state), _items(state), _teams(state)]
    return "\n\n".join("\n".join(lines) for lines in sections) + "\n"


def _items(state: State) -> list[str]:
    lines = ["seat  stars  deathstars  blackholes  star status"]
    for seat in state.seats:
        starred = [state.piece(seat.number, kind) for kind in KINDS]
        status = ", ".join(f"{p.kind.value} until m{p.star_until}" for p in starred if p.star_until)
        stock = seat.stock
        lines.append(
            f"{seat.number:<4}  {stock.stars:>5}  {stock.deathstars:>10}  "
            f"{stock.blackholes:>10}  {status or '-'}".rstrip()
        )
    for item in state.board_items:
        if item.item is Item.DEATHSTAR:
            lines.append(
                f"DeathStar of seat {item.seat} on {item.square}, pointing at {item.corner}."
            )
        else:
            lines.append(f"Blackhole of seat {item.seat} on {item.square}.")
    for piece in state.pieces:
        if piece.generator is not None:
            lines.append(
                f"Generator: {piece.label} on {piece.square}, counter {piece.generator} "
                "(a point every 3, DRTS-15)."
            )
    for meeting in state.meetings:
        team = f" of {meeting.team.value}" if meeting.team is not None else ""
        lines.append(
            f"Meeting: {meeting.kind.value}{team} on {meeting.square}, counter "
            f"{meeting.counter} (Stars every 3, DRTS-17)."
        )
    return lines


def _clock(state: State) -> list[str]:
    settings = state.settings
    plan = (
        f"{settings.movements} regular movements, golden point up to movement "
        f"{settings.max_movements} (DRTS-2, DRTS-20)"
    )
    if is_finished(state):
        return textwrap.wrap(f"Finished after movement {state.last_resolved}: {plan}.", WIDTH)
    return textwrap.wrap(f"Movement {state.movement} is open: {plan}.", WIDTH)


def _board(state: State, items: bool = False) -> list[str]:
    cells: dict[int, str] = {}
    tags = [
        (item.square, f"{_ITEM_TAGS[item.item]}{item.seat}")
        for item in (state.board_items if items else ())
    ]
    for piece in state.pieces:
        if piece.square is not None:
            star = "*" if items and piece.is_star(state.movement) else ""
            star = "#" if piece.generator is not None else star
            tags.append((piece.square, f"{piece.seat}{piece.kind.value[0].upper()}{star}"))
    for square, tag in tags:
        cells[square] = f"{cells[square]}+{tag}" if square in cells else tag
    squares = [
        [square_at(row, column) or 0 for column in range(1, COLUMNS + 1)]
        for row in range(1, ROWS + 1)
    ]
    width = max(3, *(len(text) for text in cells.values()))
    lines = []
    legend = [] if items else textwrap.wrap(_LEGEND, WIDTH)
    for row in squares:
        lines.append("  ".join(cells.get(s, str(s)).rjust(width) for s in row))
    return [*lines, *(legend or textwrap.wrap(_LEGEND, WIDTH))]


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
