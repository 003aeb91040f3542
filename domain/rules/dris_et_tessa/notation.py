"""Dris et-Tessa's notations: point names (DT-1), orders, plies, and the position notation.

An order is one turn: a placement (`d7`) or a step (`d7-d6`), with the
removal when it forms a mill (`a1 xb2`, `d7-d6 xg4`; DT-3). Its JSON form is
`{"place": "d7"}` or `{"from": "d7", "to": "d6"}`, with `"remove": "g4"` beside
when a mill forms. Text is read in any letter case, `place ` may start a
placement, spaces around `-` and after `x` are allowed (`a1xb2` too).

Plies, the unit of perft: `d7` (a placement), `d7-d6` (a step), `xg4` (a removal).

A position (for perft and set-ups) is four or five fields separated by spaces:

    <board> <seat to move> <seat 1's hand> <seat 2's hand> [x]

The board lists the 24 points row by row from the top (row 7) to the bottom
(row 1), each row left to right, rows separated by `/`: 3, 3, 3, 6, 3, 3 and 3
points (`a7 d7 g7 / b6 d6 f6 / c5 d5 e5 / a4 b4 c4 e4 f4 g4 / c3 d3 e3 /
b2 d2 f2 / a1 d1 g1`), each `1` or `2` for a piece of that seat or `.` for an
empty point. The hands are the pieces each seat has still to place (0-9).
A final `x` says the seat to move has just formed a mill and owes its
removal (DT-3). The start is

    .../.../.../....../.../.../... 1 9 9

and `start` is accepted for it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from domain.errors import InvalidOrderError, InvalidStateError
from domain.rules.contract import JSON, json_order_object
from domain.rules.dris_et_tessa.board import INDEX, NAMES, ROWS, mask_of
from domain.rules.dris_et_tessa.engine import PIECES, REMOVE, START, Position

START_TEXT = ".../.../.../....../.../.../... 1 9 9"
_ROW_NAMES = {str(8 - number): row for number, row in enumerate(ROWS, start=1)}
_POINT = r"([a-z]\d+)"
_ORDER = re.compile(rf"(?:place )?{_POINT}(?: ?- ?{_POINT})?(?: ?x ?{_POINT})?")
_EXAMPLES = "a placement such as 'd7', a step such as 'd7-d6', with ' xg4' after it for a mill"
_JSON_KEYS = ({"place"}, {"place", "remove"}, {"from", "to"}, {"from", "to", "remove"})


@dataclass(frozen=True)
class Order:
    """One turn: a placement on `to` (no `origin`) or a step from `origin` to `to`, and the
    enemy piece it removes when it forms a mill (DT-3)."""

    to: str
    origin: str | None = None
    remove: str | None = None


def parse_order(text_or_json: str | Mapping[str, JSON]) -> Order:
    """Returns the order a text or JSON form describes; raises InvalidOrderError saying why not."""
    if isinstance(text_or_json, Mapping):
        return _order_from_json(text_or_json)
    if not isinstance(text_or_json, str):
        raise InvalidOrderError(f"an order is a text or a JSON object, got {text_or_json!r}")
    if text_or_json.strip().startswith("{"):
        return _order_from_json(json_order_object(text_or_json))
    text = " ".join(text_or_json.split()).lower()
    if not text:
        raise InvalidOrderError(f"empty order: send {_EXAMPLES}")
    match = _ORDER.fullmatch(text)
    if not match:
        raise InvalidOrderError(f"cannot read order {text_or_json.strip()!r}: send {_EXAMPLES}")
    first, second, removed = match.groups()
    remove = None if removed is None else parse_point(removed)
    if second is None:
        return Order(parse_point(first), None, remove)
    return Order(parse_point(second), parse_point(first), remove)


def format_order(order: Order) -> str:
    """Returns the canonical text of an order: `d7`, `d7-d6`, `a1 xb2`, `d7-d6 xg4`."""
    move = order.to if order.origin is None else f"{order.origin}-{order.to}"
    return move if order.remove is None else f"{move} x{order.remove}"


def dump_order(order: Order) -> JSON:
    """Returns the JSON form of an order (module docstring)."""
    data: dict[str, JSON] = (
        {"place": order.to} if order.origin is None else {"from": order.origin, "to": order.to}
    )
    return data if order.remove is None else {**data, "remove": order.remove}


def _order_from_json(value: Mapping[str, JSON]) -> Order:
    keys = set(value)
    if keys not in _JSON_KEYS or not all(isinstance(v, str) for v in value.values()):
        raise InvalidOrderError(
            'a JSON order is {"place": "d7"} or {"from": "d7", "to": "d6"}, with "remove": '
            f'"g4" beside for a mill, got {dict(value)!r}'
        )
    remove = parse_point(value["remove"]) if "remove" in keys else None
    if "place" in keys:
        return Order(parse_point(value["place"]), None, remove)
    return Order(parse_point(value["to"]), parse_point(value["from"]), remove)


def parse_point(text: str) -> str:
    """Returns the point a text names (`D7` -> `d7`); raises InvalidOrderError saying why not."""
    name = text.strip().lower()
    if name in INDEX:
        return name
    if re.fullmatch(r"[a-g][1-7]", name):
        on_row = ", ".join(_ROW_NAMES[name[1]])
        raise InvalidOrderError(
            f"{name} is not a point of the board (DT-1): row {name[1]} has {on_row}"
        )
    raise InvalidOrderError(
        f"no point {text.strip()!r} on the board: points are a column a-g and a row 1-7, "
        "such as a1, d2 or g7 (DT-1)"
    )


def ply_text(ply: int) -> str:
    """Returns the text of a ply: `d7`, `d7-d6` or `xg4`."""
    if ply & REMOVE:
        return "x" + NAMES[ply & 31]
    target = NAMES[ply & 31]
    return target if ply < 32 else f"{NAMES[(ply >> 5) - 1]}-{target}"


def format_position(position: Position) -> str:
    """Returns the position notation of a position (module docstring)."""
    rows = []
    for row in ROWS:
        rows.append("".join(_mark(position, INDEX[name]) for name in row))
    fields = ["/".join(rows), str(position.mover), *map(str, position.hands)]
    return " ".join(fields + (["x"] if position.removal else []))


def parse_position(text: str) -> Position:
    """Returns the position a notation describes; raises InvalidStateError naming the fault."""
    fields = text.split()
    if fields == ["start"]:
        return START
    if len(fields) not in (4, 5) or (len(fields) == 5 and fields[4].lower() != "x"):
        raise InvalidStateError(
            f"position {text.strip()!r} is not '<board> <seat to move> <hand 1> <hand 2> [x]', "
            f"such as {START_TEXT!r}"
        )
    boards = _boards(fields[0])
    mover = _number("seat to move", fields[1], 1, 2)
    hands = (_number("seat 1's hand", fields[2]), _number("seat 2's hand", fields[3]))
    for seat in (1, 2):
        owned = boards[seat - 1].bit_count() + hands[seat - 1]
        if owned > PIECES:
            raise InvalidStateError(
                f"position: seat {seat} owns {owned} pieces (board and hand); "
                f"each seat has {PIECES} (DT-2)"
            )
    removal = len(fields) == 5
    if removal and not boards[2 - mover]:
        raise InvalidStateError(
            f"position: seat {mover} owes a removal but seat {3 - mover} has no piece on the board"
        )
    return Position(boards, hands, mover, removal)


def _mark(position: Position, point: int) -> str:
    for seat in (1, 2):
        if position.boards[seat - 1] >> point & 1:
            return str(seat)
    return "."


def _boards(text: str) -> tuple[int, int]:
    rows = text.split("/")
    sizes = [len(row) for row in ROWS]
    if [len(row) for row in rows] != sizes:
        raise InvalidStateError(
            f"position board {text!r} must be 7 rows of {', '.join(map(str, sizes))} points "
            "separated by '/', top row first"
        )
    seats: dict[str, list[str]] = {"1": [], "2": []}
    for marks, names in zip(rows, ROWS, strict=True):
        for mark, name in zip(marks, names, strict=True):
            if mark in seats:
                seats[mark].append(name)
            elif mark != ".":
                raise InvalidStateError(
                    f"position board: {mark!r} on {name}; a point is 1, 2 or '.' (empty)"
                )
    return mask_of(seats["1"]), mask_of(seats["2"])


def _number(what: str, text: str, low: int = 0, high: int = PIECES) -> int:
    if not text.isdigit() or not low <= int(text) <= high:
        raise InvalidStateError(f"position: {what} must be {low} to {high}, got {text!r}")
    return int(text)
