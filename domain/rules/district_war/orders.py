"""District War orders: a placement (`d4`) or the DMO's choice of who places first (`first 1`);
their syntax, their legality (`check_order`), the list of legal ones and a random one.

Text forms, case-insensitive, surrounding whitespace ignored:

- `d4` or `place d4`: a troop on column d, row 4 (row 1 is the top row, DW-1);
- `first 1` or `first seat 1`: the DMO's choice that seat 1 places first (DW-2).

JSON forms: `{"place": "d4"}` and `{"first": 1}`; a text starting with `{` is
read as JSON.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from domain.errors import IllegalOrderError, InvalidOrderError
from domain.rules.contract import JSON, check_seat_number, json_order_object
from domain.rules.district_war.board import COLUMNS, SIDE
from domain.rules.district_war.placement import allowed_cells, check_placement
from domain.rules.district_war.state import SEATS, State, seat_to_act
from domain.rules.rng import Rng

_CELL = re.compile(r"([a-z])(\d+)")
_FIRST = re.compile(r"first\s+(?:seat\s+)?(\S+)")
_EXAMPLES = "a cell such as 'd4' (column a-g, row 1-7) or the DMO's choice such as 'first 1'"


@dataclass(frozen=True)
class Place:
    """An order to place a troop on a cell (DW-3)."""

    cell: str


@dataclass(frozen=True)
class ChooseFirst:
    """The DMO's order naming the seat that places first (DW-2)."""

    seat: int


Order = Place | ChooseFirst


def parse_order(text_or_json: str | Mapping[str, JSON]) -> Order:
    """Returns the order a text or JSON form describes; raises InvalidOrderError saying why not."""
    if isinstance(text_or_json, Mapping):
        return _from_json(text_or_json)
    if not isinstance(text_or_json, str):
        raise InvalidOrderError(f"an order is a text or a JSON object, got {text_or_json!r}")
    text = " ".join(text_or_json.split()).lower()
    if text.startswith("{"):
        return _from_json(json_order_object(text_or_json))
    if not text:
        raise InvalidOrderError(f"empty order: send {_EXAMPLES}")
    if match := _CELL.fullmatch(text.removeprefix("place ")):
        return Place(_cell(match[1], match[2]))
    if match := _FIRST.fullmatch(text):
        return ChooseFirst(_seat(match[1]))
    raise InvalidOrderError(f"cannot read order {text_or_json.strip()!r}: send {_EXAMPLES}")


def format_order(order: Order) -> str:
    """Returns the canonical text of an order (`d4`, `first 1`)."""
    if isinstance(order, Place):
        return order.cell
    return f"first {order.seat}"


def dump_order(order: Order) -> JSON:
    """Returns the JSON form of an order (`{"place": "d4"}`, `{"first": 1}`)."""
    if isinstance(order, Place):
        return {"place": order.cell}
    return {"first": order.seat}


def check_order(state: State, seat: int, order: Order) -> None:
    """Raises IllegalOrderError unless `seat` may give `order` now, saying why
    (UnknownSeatError for a seat other than 1 and 2)."""
    check_seat_number("district_war", seat, len(SEATS))
    acting = seat_to_act(state)
    if acting is None:
        raise IllegalOrderError(f"the match is finished; seat {seat} has nothing to order")
    if seat != acting:
        raise IllegalOrderError(f"not your turn: seat {acting} is to {_duty(state)}")
    if state.first is None and not isinstance(order, ChooseFirst):
        raise IllegalOrderError(
            f"seat {seat} (the DMO) must first choose who places first, e.g. 'first 1' (DW-2)"
        )
    if isinstance(order, ChooseFirst) and state.first is not None:
        raise IllegalOrderError(f"seat {state.first} was already chosen to place first (DW-2)")
    if isinstance(order, Place):
        check_placement(state, order.cell)


def legal_orders(state: State, seat: int) -> tuple[Order, ...]:
    """Returns every order `seat` may give now: the DMO's two choices (DW-2), or a placement
    on each cell DW-3 allows, row by row; none for a seat that is not to act."""
    check_seat_number("district_war", seat, len(SEATS))
    if seat != seat_to_act(state):
        return ()
    if state.first is None:
        return tuple(ChooseFirst(first) for first in SEATS)
    return tuple(Place(cell) for cell in allowed_cells(state)[1])


def random_order(state: State, seat: int, rng: Rng) -> Order:
    """Returns a uniformly random legal order; raises IllegalOrderError if `seat` owes none."""
    acting = seat_to_act(state)
    if seat != acting:
        raise IllegalOrderError(f"seat {seat} owes no order now (seat to act: {acting})")
    return rng.choice(legal_orders(state, seat))


def _duty(state: State) -> str:
    return "choose who places first (DW-2)" if state.first is None else "place a troop"


def _from_json(value: Mapping[str, JSON]) -> Order:
    if set(value) == {"place"} and isinstance(value["place"], str):
        if match := _CELL.fullmatch(value["place"].strip().lower()):
            return Place(_cell(match[1], match[2]))
        raise InvalidOrderError(f"cannot read cell {value['place']!r}: send {_EXAMPLES}")
    if set(value) == {"first"} and isinstance(value["first"], int | str):
        return ChooseFirst(_seat(str(value["first"])))
    raise InvalidOrderError(
        f'a JSON order is {{"place": "d4"}} or {{"first": 1}}, got {dict(value)!r}'
    )


def _cell(column: str, row: str) -> str:
    if column not in COLUMNS:
        raise InvalidOrderError(f"no column {column!r} on the board: columns are a-g")
    if len(row) > 9 or not 1 <= int(row) <= SIDE:  # the length first: int() of a long run fails
        raise InvalidOrderError(f"no row {row[:9]} on the board: rows are 1-7, 1 at the top")
    return f"{column}{int(row)}"


def _seat(text: str) -> int:
    if text not in ("1", "2"):
        raise InvalidOrderError(f"no seat {text!r} to place first: District War has seats 1 and 2")
    return int(text)
