"""Orders of Shades: one command a shade, in the protocol's reply shape or a short text.

An order is a list of commands, each naming a shade by id and where it goes:
a target square (the protocol's form) or a direction from where the shade
stands when the turn is resolved. A shade not named stays. Commands are kept
as sent: judging them is the resolution's work (SH-4: an invalid command
leaves its shade in place, only the first command for a shade counts, a
command for an unknown or foreign shade is ignored), so an order that parses
is legal whenever its seat owes one. What a seat can be sure is valid is
listed shade by shade (`legal_commands`: stay, or a step N/E/S/W onto a
square on the map and not water, SH-1).

JSON form, the contest's reply (SH-11), with one drts addition, `move`:

    {"data": [{"id": 7, "target": {"x": 3, "y": 4}}, {"id": 9, "move": "N"}]}

Text form, case-insensitive, commands separated by ";" or new lines:

    7 3,4       shade 7 to square (3, 4) (also "7 (3, 4)", "7 > 3,4", "#7 to 3 4")
    9 n         shade 9 one step north (n, e, s, w; north, east, south, west)
    4 stay      shade 4 stays (also "4 hold")
    hold        no command: every shade stays (also an empty text)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from domain.errors import IllegalOrderError, InvalidOrderError
from domain.rules.contract import JSON, Combining, check_seat_number, json_order_object
from domain.rules.rng import Rng
from domain.rules.shades.board import Square
from domain.rules.shades.scoring import is_finished
from domain.rules.shades.state import State

MAX_COMMANDS = 10_000  # a reply longer than this is refused: more than any map has squares
MAX_NUMBER = 10**9  # ids and coordinates beyond this are refused as malformed


class Direction(StrEnum):
    """A move of one step (SH-1: stay, or one step N/E/S/W); north is up (y - 1)."""

    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"
    STAY = "stay"


DELTAS: Mapping[Direction, Square] = {
    Direction.NORTH: (0, -1),
    Direction.EAST: (1, 0),
    Direction.SOUTH: (0, 1),
    Direction.WEST: (-1, 0),
    Direction.STAY: (0, 0),
}


@dataclass(frozen=True)
class Command:
    """Where one shade goes: a target square (x, y), or a direction from its square."""

    shade: int
    to: Square | Direction


@dataclass(frozen=True)
class Order:
    """What one seat sends for one turn: its commands, in the order sent."""

    commands: tuple[Command, ...] = ()


_WORDS = {d.value.lower(): d for d in Direction} | {
    "north": Direction.NORTH,
    "east": Direction.EAST,
    "south": Direction.SOUTH,
    "west": Direction.WEST,
    "hold": Direction.STAY,
}
_NOTHING = frozenset({"", "hold", "stay", "pass", "none"})
_SPLIT = re.compile(r"[;\r\n]")
_CLAUSE = re.compile(r"^#?(\d{1,12})\s*(?:>|\bto\b|:)?\s*(.*)$")
_TARGET = re.compile(r"^\(?\s*(-?\d{1,12})\s*(?:,|\s)\s*(-?\d{1,12})\s*\)?$")
_EXAMPLES = "e.g. '7 3,4' (shade 7 to square x=3, y=4), '9 n' (one step north) or '4 stay'"
_COMMAND_KEYS = frozenset({"id", "target", "move"})


def parse_order(source: str | Mapping[str, JSON]) -> Order:
    """Returns the order a text or JSON form describes; raises InvalidOrderError saying why not."""
    if isinstance(source, str):
        if source.strip().startswith("{"):
            return _parse_json(json_order_object(source))
        return _parse_text(source)
    return _parse_json(source)


def format_order(order: Order) -> str:
    """Returns the canonical text of an order ("hold" when it has no command)."""
    return "; ".join(format_command(c) for c in order.commands) or "hold"


def format_command(command: Command) -> str:
    """Returns the canonical text of one command, e.g. "7 3,4" or "9 N"."""
    if isinstance(command.to, Direction):
        return f"{command.shade} {command.to.value}"
    x, y = command.to
    return f"{command.shade} {x},{y}"


def dump_order(order: Order) -> JSON:
    """Returns the JSON form of an order: the protocol's reply (with `move` for directions)."""
    return {"data": [_dump_command(c) for c in order.commands]}


def check_order(state: State, seat: int, order: Order) -> None:
    """Raises IllegalOrderError unless `seat` may order now: the match goes on and the seat
    is alive (UnknownSeatError for a seat outside the match). The commands themselves are
    judged by the resolution (SH-4), so any order that parses passes."""
    del order
    reason = _why_no_order(state, seat)
    if reason is not None:
        raise IllegalOrderError(reason)


def legal_commands(state: State, seat: int) -> dict[int, tuple[Command, ...]]:
    """Returns, by shade id, every command valid now for each shade of a seat that owes an
    order: a step N, E, S or W onto a square on the map and not water, then staying, each
    in the protocol's form (a target square; staying targets the shade's own square).

    SH-1: only water and the map's edge (which does not wrap) take a step away;
    a square held by a shade, a human or a tomb is open (shades meeting there
    collide, SH-3). SH-4: any order of at most one listed command a shade
    moves every named shade where it says. Empty for a seat that owes no order
    (the match is over, or the seat is eliminated: its shades stay, SH-7, but
    take no commands); UnknownSeatError for a seat outside the match.
    """
    if _why_no_order(state, seat) is not None:
        return {}
    board = state.settings.board
    listed = {}
    for shade in state.shades:
        if shade.owner == seat:
            x, y = shade.square
            targets = ((x + dx, y + dy) for dx, dy in DELTAS.values())  # N, E, S, W, stay
            listed[shade.id] = tuple(Command(shade.id, t) for t in targets if board.is_open(t))
    return listed


RULE = (
    "SH-4: one command a shade, for any number of the seat's shades (only the first "
    "command for a shade counts); a shade not named stays (SH-1)."
)


def combining(state: State, seat: int, standing: Sequence[Order] = ()) -> Combining:
    """Returns how a seat's listed commands combine: one a shade, any number of shades; a
    later order replaces the standing one whole (OrderPolicy.REPLACE), so `standing` does not
    matter."""
    del state, seat, standing
    return Combining(RULE)


def order_of_commands(commands: Sequence[Command]) -> Order:
    """Returns the order holding `commands`, in the order given."""
    return Order(tuple(commands))


def commands_of_order(order: Order) -> tuple[Command, ...]:
    """Returns an order's commands, in the order sent."""
    return order.commands


def random_order(state: State, seat: int, rng: Rng) -> Order:
    """Returns a random order of valid commands for a seat that owes one: each shade of the
    seat, in id order, draws one of its legal commands (`legal_commands`); a shade that
    draws to stay is left out (it stays)."""
    drawn = [rng.choice(commands) for commands in legal_commands(state, seat).values()]
    squares = {shade.id: shade.square for shade in state.shades}
    return Order(tuple(command for command in drawn if command.to != squares[command.shade]))


def _why_no_order(state: State, seat: int) -> str | None:
    """Returns why `seat` may not order now, or None when it owes an order."""
    check_seat_number("shades", seat, len(state.seats))
    if is_finished(state):
        return f"the match is finished after turn {state.turn - 1}"
    eliminated = state.seat(seat).eliminated
    if eliminated is not None:
        return (
            f"seat {seat} was eliminated in turn {eliminated.turn} ({eliminated.reason.value}): "
            "it is no longer asked for orders"
        )
    return None


def _dump_command(command: Command) -> JSON:
    if isinstance(command.to, Direction):
        return {"id": command.shade, "move": command.to.value}
    x, y = command.to
    return {"id": command.shade, "target": {"x": x, "y": y}}


def _parse_text(text: str) -> Order:
    if text.strip().lower() in _NOTHING:
        return Order()
    clauses = [clause.strip() for clause in _SPLIT.split(text) if clause.strip()]
    _check_count(len(clauses))
    return Order(tuple(_text_command(clause) for clause in clauses))


def _text_command(clause: str) -> Command:
    match = _CLAUSE.match(clause.lower())
    if match is None or not match.group(2):
        raise InvalidOrderError(
            f"cannot read {clause!r}: a command is a shade id and a move ({_EXAMPLES})"
        )
    shade, where = _number(int(match.group(1)), clause), match.group(2).strip()
    if where in _WORDS:
        return Command(shade, _WORDS[where])
    target = _TARGET.match(where)
    if target is None:
        raise InvalidOrderError(
            f"cannot read {clause!r}: {where!r} is neither a direction nor a square ({_EXAMPLES})"
        )
    return Command(
        shade, (_number(int(target.group(1)), clause), _number(int(target.group(2)), clause))
    )


def _parse_json(data: Mapping[str, JSON]) -> Order:
    if set(data) != {"data"}:
        raise InvalidOrderError(
            f'a JSON order is the protocol\'s reply {{"data": [...]}}, got keys {sorted(data)}'
        )
    commands = data["data"]
    if not isinstance(commands, list):
        raise InvalidOrderError(f"'data' must be a list of commands, not {commands!r}")
    _check_count(len(commands))
    return Order(tuple(_json_command(item) for item in commands))


def _json_command(item: JSON) -> Command:
    if not isinstance(item, dict):
        raise InvalidOrderError(f"a command is a JSON object, not {item!r}")
    unknown = sorted(set(item) - _COMMAND_KEYS)
    if unknown or "id" not in item or ("target" in item) == ("move" in item):
        raise InvalidOrderError(
            'a command is {"id": N, "target": {"x": X, "y": Y}} '
            f'(or {{"id": N, "move": "N"}}), got {item!r}'
        )
    shade = _json_number(item["id"], "'id'", item)
    if "move" in item:
        move = item["move"]
        if not isinstance(move, str) or move.lower() not in _WORDS:
            raise InvalidOrderError(f"'move' must be N, E, S, W or stay, not {move!r}")
        return Command(shade, _WORDS[move.lower()])
    target = item["target"]
    if not isinstance(target, dict) or set(target) != {"x", "y"}:
        raise InvalidOrderError(f'\'target\' must be {{"x": X, "y": Y}}, not {target!r}')
    x, y = (_json_number(target[key], repr(key), item) for key in ("x", "y"))
    return Command(shade, (x, y))


def _json_number(value: JSON, key: str, item: JSON) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOrderError(f"{key} must be an integer, not {value!r}, in {item!r}")
    return _number(value, repr(item))


def _number(value: int, where: str) -> int:
    if abs(value) > MAX_NUMBER:
        raise InvalidOrderError(f"{value} is out of range (at most {MAX_NUMBER}) in {where}")
    return value


def _check_count(count: int) -> None:
    if count > MAX_COMMANDS:
        raise InvalidOrderError(f"an order holds at most {MAX_COMMANDS} commands, got {count}")
