"""The state JSON of DRTS Team 23 version 2: version 1's, with Star status and board items.

Each seat gains `stars`: for each piece with Star status, the last movement
of that status (DRTS-16), e.g. `{"fire": 8}`; `board_items` lists the
DeathStars and Blackholes by square, each with its owner seat, and for a
DeathStar the corner it points at (DRTS-11):

    "board_items": [{"item": "deathstar", "square": 14, "seat": 3, "corner": 1},
                    {"item": "blackhole", "square": 20, "seat": 2}]

The config holds v2's `deathstar_area`. `load_state_v2(dump_state_v2(s)) == s`;
anything else that is not a valid state raises InvalidStateError.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from domain.errors import InvalidStateError
from domain.rules.contract import JSON
from domain.rules.drts_team23.board import CORNERS, SQUARE_COUNT
from domain.rules.drts_team23.config import CONFIG_FIELDS_V2
from domain.rules.drts_team23.state import (
    KINDS,
    SEAT_KEYS,
    SEATS,
    TOP_KEYS,
    BoardItem,
    Item,
    Kind,
    State,
    dump_state,
    load_state_fields,
    piece_index,
)
from domain.rules.statejson import json_integer as _integer
from domain.rules.statejson import json_object as _object

SEAT_KEYS_V2 = (*SEAT_KEYS, "stars")
_BUILT = (Item.DEATHSTAR, Item.BLACKHOLE)
_LONGEST = 10**9


def dump_state_v2(state: State) -> JSON:
    """Returns the documented JSON form of a v2 state."""
    data = dump_state(state)
    assert isinstance(data, dict)
    seats = data["seats"]
    assert isinstance(seats, dict)
    for seat in state.seats:
        pieces = [state.piece(seat.number, kind) for kind in KINDS]
        stars = {p.kind.value: p.star_until for p in pieces if p.star_until}
        seat_data = seats[str(seat.number)]
        assert isinstance(seat_data, dict)
        seat_data["stars"] = stars
    data["board_items"] = [_dump_item(item) for item in state.board_items]
    return data


def _dump_item(item: BoardItem) -> JSON:
    data: dict[str, JSON] = {"item": item.item.value, "square": item.square, "seat": item.seat}
    if item.corner is not None:
        data["corner"] = item.corner
    return data


def load_state_v2(data: JSON) -> State:
    """Returns the v2 state a dumped JSON form describes; raises InvalidStateError naming the
    fault."""
    top = _object(data, "the state", TOP_KEYS)
    state = load_state_fields(top, CONFIG_FIELDS_V2, SEAT_KEYS_V2)
    seats = top["seats"]
    assert isinstance(seats, Mapping)
    pieces = list(state.pieces)
    for number in range(1, SEATS + 1):
        for kind, until in _stars(number, seats[str(number)]).items():
            index = piece_index(number, kind)
            if pieces[index].square is None:
                raise InvalidStateError(
                    f"seat {number} {kind.value} is out: it has no Star status (DRTS-16)"
                )
            pieces[index] = replace(pieces[index], star_until=until)
    items = _board_items(top["board_items"])
    return replace(state, pieces=tuple(pieces), board_items=items)


def _stars(number: int, seat: JSON) -> dict[Kind, int]:
    assert isinstance(seat, Mapping)
    stars = seat["stars"]
    where = f"seat {number} 'stars'"
    if not isinstance(stars, dict) or not set(stars) <= {kind.value for kind in KINDS}:
        raise InvalidStateError(f"{where} must map water, fire or plant to a movement: {stars!r}")
    return {
        Kind(name): _integer(until, f"{where} {name}", 1, _LONGEST) for name, until in stars.items()
    }


def _board_items(value: JSON) -> tuple[BoardItem, ...]:
    if not isinstance(value, list):
        raise InvalidStateError(f"'board_items' must be a list, not {value!r}")
    items = sorted((_board_item(entry) for entry in value), key=lambda item: item.square)
    squares = [item.square for item in items]
    if len(set(squares)) != len(squares):
        raise InvalidStateError(f"'board_items' holds two items on one square: {squares}")
    return tuple(items)


def _board_item(entry: JSON) -> BoardItem:
    where = f"board item {entry!r}"
    if not isinstance(entry, dict) or entry.get("item") not in {item.value for item in _BUILT}:
        raise InvalidStateError(f"{where}: 'item' must be deathstar or blackhole")
    item = Item(str(entry["item"]))
    keys = ("item", "square", "seat", *(("corner",) if item is Item.DEATHSTAR else ()))
    fields = _object(entry, where, keys)
    square = _integer(fields["square"], f"{where} square", 1, SQUARE_COUNT)
    seat = _integer(fields["seat"], f"{where} seat", 1, SEATS)
    if item is Item.BLACKHOLE:
        return BoardItem(item, square, seat)
    corner = fields["corner"]
    if corner not in CORNERS or isinstance(corner, bool) or not isinstance(corner, int):
        raise InvalidStateError(f"{where}: 'corner' must be 1, 6, 37 or 42 (DRTS-11)")
    return BoardItem(item, square, seat, corner)
