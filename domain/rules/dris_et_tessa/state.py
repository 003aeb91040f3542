"""Dris et-Tessa's state, the queries derived from it, and its JSON form.

A state stands between two turns: the position (engine.Position, never
owing a removal), the turns played, the turns since the last removal (DT-6),
a forfeit, and the last order (for the Public Display).

State JSON (`dump_state`), all keys always present:

    {"config": {...},             the validated match config
     "points": {"a1": 1, ...},    the seat on each occupied point, alphabetically
     "hands": {"1": 9, "2": 9},   pieces each seat has still to place (DT-2)
     "to_move": 1,                the seat whose turn it is
     "turn": 0,                   turns played so far
     "quiet_turns": 0,            turns in a row without a removal (DT-6)
     "forfeited": null,           the seat that forfeited the match, if any
     "last": null,                the last order played, as text ("d7-d6 xg4")
     "position": "..."}           derived: the position notation (notation.py)

`load_state` accepts the same object ("position" may be left out; if given it
must agree) and checks the shape and the piece counts, not that the position
was reached by legal play, so that a referee can set up any position.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.errors import DrtsError, InvalidStateError
from domain.rules.contract import JSON, load_config
from domain.rules.dris_et_tessa.board import ALPHABETICAL, INDEX, NAMES, mask_of, points_of
from domain.rules.dris_et_tessa.config import CONFIG_FIELDS, GameSettings, config_of, settings_of
from domain.rules.dris_et_tessa.engine import PIECES, START, Position
from domain.rules.dris_et_tessa.notation import (
    Order,
    format_order,
    format_position,
    parse_order,
)

SEATS = (1, 2)
_REQUIRED = {"config", "points", "hands", "to_move", "turn", "quiet_turns", "forfeited", "last"}
_KEYS = _REQUIRED | {"position"}


@dataclass(frozen=True)
class State:
    """A Dris et-Tessa match between two turns."""

    settings: GameSettings
    position: Position = START
    turn: int = 0
    quiet_turns: int = 0
    forfeited: int | None = None
    last: Order | None = None


def opponent(seat: int) -> int:
    """Returns the other seat."""
    return 3 - seat


def pieces(state: State, seat: int) -> int:
    """Returns the pieces a seat owns: on the board and in hand (DT-5)."""
    return state.position.boards[seat - 1].bit_count() + state.position.hands[seat - 1]


def occupants(state: State) -> dict[str, int]:
    """Returns the seat on each occupied point, alphabetically."""
    seats = {NAMES[i]: seat for seat in SEATS for i in points_of(state.position.boards[seat - 1])}
    return {name: seats[name] for name in ALPHABETICAL if name in seats}


def dump_state(state: State) -> JSON:
    """Returns the documented JSON form of a state (module docstring)."""
    position = state.position
    return {
        "config": config_of(state.settings),
        "points": occupants(state),
        "hands": {str(seat): position.hands[seat - 1] for seat in SEATS},
        "to_move": position.mover,
        "turn": state.turn,
        "quiet_turns": state.quiet_turns,
        "forfeited": state.forfeited,
        "last": None if state.last is None else format_order(state.last),
        "position": format_position(position),
    }


def load_state(data: JSON) -> State:
    """Returns the state a `dump_state` object describes; raises InvalidStateError if malformed."""
    if not isinstance(data, dict) or not set(data) >= _REQUIRED:
        raise InvalidStateError(
            f"a Dris et-Tessa state is an object with {', '.join(sorted(_REQUIRED))}"
        )
    if set(data) - _KEYS:
        raise InvalidStateError(f"unknown state key(s) {', '.join(sorted(set(data) - _KEYS))}")
    settings = settings_of(load_config(CONFIG_FIELDS, data["config"]))
    boards = _boards(data["points"])
    hands = _hands(data["hands"], boards)
    mover = _seat("to_move", data["to_move"])
    state = State(
        settings=settings,
        position=Position(boards, hands, mover),
        turn=_count("turn", data["turn"]),
        quiet_turns=_count("quiet_turns", data["quiet_turns"], settings.draw_turns),
        forfeited=None if data["forfeited"] is None else _seat("forfeited", data["forfeited"]),
        last=_last(data["last"]),
    )
    if "position" in data and data["position"] != format_position(state.position):
        raise InvalidStateError(
            f"state position {data['position']!r} disagrees with its points, hands and to_move"
        )
    return state


def _boards(value: JSON) -> tuple[int, int]:
    if not isinstance(value, dict):
        raise InvalidStateError(f"state points must be an object of point: seat, got {value!r}")
    for name, seat in value.items():
        if name not in INDEX:
            raise InvalidStateError(f"state points: {name!r} is not a point of the board (DT-1)")
        if seat not in SEATS or isinstance(seat, bool):
            raise InvalidStateError(f"state points: {name} holds {seat!r}; a seat is 1 or 2")
    by_seat = ([n for n, s in value.items() if s == 1], [n for n, s in value.items() if s == 2])
    return mask_of(by_seat[0]), mask_of(by_seat[1])


def _hands(value: JSON, boards: tuple[int, int]) -> tuple[int, int]:
    if not isinstance(value, dict) or set(value) != {"1", "2"}:
        raise InvalidStateError(f'state hands must be {{"1": n, "2": n}}, got {value!r}')
    hands = (_count("hands", value["1"], PIECES), _count("hands", value["2"], PIECES))
    for seat in SEATS:
        owned = boards[seat - 1].bit_count() + hands[seat - 1]
        if owned > PIECES:
            raise InvalidStateError(
                f"state: seat {seat} owns {owned} pieces (board and hand); each seat has "
                f"{PIECES} (DT-2)"
            )
    return hands


def _seat(key: str, value: JSON) -> int:
    if value in SEATS and not isinstance(value, bool):
        return int(value)
    allowed = "1 or 2" if key == "to_move" else "1, 2 or null"
    raise InvalidStateError(f"state {key} must be {allowed}, got {value!r}")


def _count(key: str, value: JSON, most: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidStateError(f"state {key} must be a whole number, got {value!r}")
    if most is not None and value > most:
        raise InvalidStateError(f"state {key} must be at most {most}, got {value}")
    return value


def _last(value: JSON) -> Order | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidStateError(f"state last must be an order text or null, got {value!r}")
    try:
        return parse_order(value)
    except DrtsError as error:
        raise InvalidStateError(f"state last: {error}") from None
