"""The state JSON of DRTS Team 23 version 2: version 1's, with Star status and board items.

Each seat gains `stars`: for each piece with Star status, the last movement
of that status (DRTS-16), e.g. `{"fire": 8}`; `board_items` lists the
DeathStars and Blackholes by square, each with its owner seat, and for a
DeathStar the corner it points at (DRTS-11):

    "board_items": [{"item": "deathstar", "square": 14, "seat": 3, "corner": 1},
                    {"item": "blackhole", "square": 20, "seat": 2}]

A seat with Generators (DRTS-15) has `generators`: each Generator's counter
(the movements it has counted at step 3), e.g. `{"plant": 4}`; while meetings
run (DRTS-17), the top-level `meetings` lists them with their counters:

    "meetings": [{"meeting": "players", "square": 20, "team": "green", "counter": 2},
                 {"meeting": "kinds", "square": 20, "counter": 1}]

Both keys appear only when not empty, so a state without Generators or
meetings has the form (and the hash) it had before they existed, and states
stored then still load. The config holds v2's `deathstar_area`.
`load_state_v2(dump_state_v2(s)) == s`; anything else that is not a valid
state raises InvalidStateError (a Generator that is out or a Star, a meeting
that does not hold on the board, two meetings with one key).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from domain.errors import InvalidStateError
from domain.rules.contract import JSON
from domain.rules.drts_team23.board import CORNERS, SQUARE_COUNT
from domain.rules.drts_team23.config import CONFIG_FIELDS_V2
from domain.rules.drts_team23.meetings import meetings_held
from domain.rules.drts_team23.state import (
    KINDS,
    SEAT_KEYS,
    SEATS,
    TEAMS,
    TOP_KEYS,
    BoardItem,
    Item,
    Kind,
    Meeting,
    MeetingKind,
    Piece,
    State,
    Team,
    dump_state,
    load_state_fields,
    piece_index,
)
from domain.rules.statejson import json_integer as _integer
from domain.rules.statejson import json_object as _object

SEAT_KEYS_V2 = (*SEAT_KEYS, "stars")
GENERATORS, MEETINGS = "generators", "meetings"  # optional keys (DRTS-15, DRTS-17)
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
        generators = {p.kind.value: p.generator for p in pieces if p.generator is not None}
        if generators:
            seat_data[GENERATORS] = generators
    data["board_items"] = [_dump_item(item) for item in state.board_items]
    if state.meetings:
        data[MEETINGS] = [_dump_meeting(meeting) for meeting in state.meetings]
    return data


def _dump_meeting(meeting: Meeting) -> JSON:
    data: dict[str, JSON] = {"meeting": meeting.kind.value, "square": meeting.square}
    if meeting.team is not None:
        data["team"] = meeting.team.value
    data["counter"] = meeting.counter
    return data


def _dump_item(item: BoardItem) -> JSON:
    data: dict[str, JSON] = {"item": item.item.value, "square": item.square, "seat": item.seat}
    if item.corner is not None:
        data["corner"] = item.corner
    return data


def load_state_v2(data: JSON) -> State:
    """Returns the v2 state a dumped JSON form describes; raises InvalidStateError naming the
    fault."""
    top, generators, meetings = _optional_keys(data)
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
        for kind, counter in _generators(number, generators.get(number)).items():
            pieces[piece_index(number, kind)] = _generator(
                pieces[piece_index(number, kind)], counter
            )
    items = _board_items(top["board_items"])
    loaded = replace(state, pieces=tuple(pieces), board_items=items)
    return replace(loaded, meetings=_meetings(loaded, meetings))


def _optional_keys(data: JSON) -> tuple[dict[str, JSON], dict[int, JSON], JSON]:
    """Returns the state JSON without its optional keys, each seat's `generators` (by seat
    number) and the `meetings` (an empty list when absent)."""
    if not isinstance(data, dict):
        raise InvalidStateError(f"the state must be a JSON object, not {data!r}")
    top = dict(data)
    meetings = top.pop(MEETINGS, [])
    seats = top.get("seats")
    generators: dict[int, JSON] = {}
    if isinstance(seats, dict):
        top["seats"] = dict(seats)
        for name, seat in seats.items():
            if isinstance(seat, dict) and GENERATORS in seat:
                rest = dict(seat)
                generators[int(name) if name.isdecimal() else 0] = rest.pop(GENERATORS)
                top["seats"][name] = rest
    _object(top, "the state", TOP_KEYS)
    return top, generators, meetings


def _generators(number: int, value: JSON) -> dict[Kind, int]:
    if value is None:
        return {}
    where = f"seat {number} '{GENERATORS}'"
    if not isinstance(value, dict) or not set(value) <= {kind.value for kind in KINDS}:
        raise InvalidStateError(f"{where} must map water, fire or plant to a counter: {value!r}")
    return {Kind(name): _integer(n, f"{where} {name}", 0, _LONGEST) for name, n in value.items()}


def _generator(piece: Piece, counter: int) -> Piece:
    if piece.square is None:
        raise InvalidStateError(f"{piece.label} is out: it is no Generator (DRTS-15)")
    if piece.star_until:
        raise InvalidStateError(f"{piece.label} has Star status: a Generator never has (DRTS-7)")
    return replace(piece, generator=counter)


def _meetings(state: State, value: JSON) -> tuple[Meeting, ...]:
    if not isinstance(value, list):
        raise InvalidStateError(f"'{MEETINGS}' must be a list, not {value!r}")
    held = meetings_held(state)
    found = sorted((_meeting(entry) for entry in value), key=lambda meeting: meeting.key)
    keys = [meeting.key for meeting in found]
    if len(set(keys)) != len(keys):
        raise InvalidStateError(f"'{MEETINGS}' lists one meeting twice: {value!r}")
    for meeting in found:
        if meeting.key not in held:
            raise InvalidStateError(
                f"meeting {_dump_meeting(meeting)!r} does not hold on the board (DRTS-17)"
            )
    return tuple(found)


def _meeting(entry: JSON) -> Meeting:
    where = f"meeting {entry!r}"
    names = {kind.value for kind in MeetingKind}
    if not isinstance(entry, dict) or entry.get("meeting") not in names:
        raise InvalidStateError(f"{where}: 'meeting' must be players or kinds")
    kind = MeetingKind(str(entry["meeting"]))
    players = kind is MeetingKind.PLAYERS
    fields = _object(
        entry, where, ("meeting", "square", *(("team",) if players else ()), "counter")
    )
    square = _integer(fields["square"], f"{where} square", 1, SQUARE_COUNT)
    counter = _integer(fields["counter"], f"{where} counter", 1, _LONGEST)
    if not players:
        return Meeting(kind, square, counter)
    team = fields["team"]
    if team not in {t.value for t in TEAMS}:
        raise InvalidStateError(f"{where}: 'team' must be green, yellow or blue")
    return Meeting(kind, square, counter, Team(str(team)))


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
