"""Orders of DRTS Team 23: values, the text syntax, the JSON form, legality and listing.

An order is up to two operations on different pieces (DRTS-4, each judged by
`moves.illegality`) and at most one team request, which is free. Text form,
case-insensitive, clauses separated by ";" or new lines:

    fire 14>15          move the Fire from 14 to 15 (the origin is checked)
    fire 15             move the Fire to 15
    water hold          the Water holds (also an operation on that piece)
    plant recover 21    bring the captured Plant back on square 21 (DRTS-18)
    team green          ask to join green (or yellow, blue; 1, 2, 3)
    hold                every piece holds (DRTS-22); alone or with a team request

Pieces may be abbreviated w, f, p. JSON form:
`{"operations": [{"op": "move", "piece": "fire", "from": 14, "to": 15},
{"op": "recover", "piece": "plant", "to": 21}], "team": "green"}`.

The invocation words of items (star, deathstar, blackhole, generator) are
reserved: this ruleset version has no items, and they are refused with an
InvalidOrderError saying so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from domain.errors import IllegalOrderError, InvalidOrderError
from domain.rules.contract import JSON, check_seat_number, json_order_object
from domain.rules.drts_team23.board import SQUARE_COUNT, is_square
from domain.rules.drts_team23.moves import (
    Action,
    Operation,
    illegality,
    legal_operations,
)
from domain.rules.drts_team23.scoring import is_finished
from domain.rules.drts_team23.state import KINDS, SEATS, TEAMS, Kind, Squares, State, Team
from domain.rules.rng import Rng

__all__ = ["Action", "Operation", "Order"]  # the operations' values live in moves.py

MAX_OPERATIONS = 2  # DRTS-4
_TEAM_REQUEST_CHANCE = (1, 4)  # of a random order asking for another team


@dataclass(frozen=True)
class Order:
    """What one seat sends for one movement: its operations and an optional team request."""

    operations: tuple[Operation, ...] = ()
    team: Team | None = None
    # v2 only (merged per piece, orders_v2.py): withdraw the seat's earlier orders of the
    # movement, all of them (`clear`) or their operations (`hold_all`, the clause "hold").
    clear: bool = False
    hold_all: bool = False


_PIECE_WORDS = {"water": Kind.WATER, "w": Kind.WATER, "fire": Kind.FIRE, "f": Kind.FIRE}
_PIECE_WORDS |= {"plant": Kind.PLANT, "p": Kind.PLANT}
TEAM_WORDS = {team.value: team for team in TEAMS} | {str(i + 1): t for i, t in enumerate(TEAMS)}
_ITEM_WORDS = frozenset(
    {"star", "stars", "deathstar", "deathstars", "blackhole", "blackholes", "generator"}
    | {"generators", "item", "items", "corner"}
)
CLAUSE_SPLIT = re.compile(r"[;\r\n]")
_EXAMPLES = "e.g. 'fire 14>15', 'fire 15', 'water hold', 'plant recover 21' or 'team green'"
_ACTIONS = {action.value: action for action in Action}
ORDER_KEYS = frozenset({"operations", "team"})
_OPERATION_KEYS = {
    Action.MOVE: frozenset({"op", "piece", "to", "from"}),
    Action.HOLD: frozenset({"op", "piece"}),
    Action.RECOVER: frozenset({"op", "piece", "to"}),
}


def parse_order(source: str | Mapping[str, JSON]) -> Order:
    """Returns the order a text or JSON form describes; raises InvalidOrderError saying why not."""
    if isinstance(source, str):
        if source.strip().startswith("{"):
            return _parse_json(json_order_object(source))
        return _parse_text(source)
    return _parse_json(source)


def format_order(order: Order) -> str:
    """Returns the canonical text of an order ("hold" when it has no clause)."""
    clauses = [format_operation(op) for op in order.operations]
    if order.team is not None:
        clauses.append(f"team {order.team.value}")
    return "; ".join(clauses) or "hold"


def format_operation(operation: Operation) -> str:
    """Returns the canonical text of one operation, e.g. "fire 14>15"."""
    piece = operation.piece.value
    if operation.action is Action.HOLD:
        return f"{piece} hold"
    if operation.action is Action.RECOVER:
        return f"{piece} recover {operation.square}"
    if operation.origin is None:
        return f"{piece} {operation.square}"
    return f"{piece} {operation.origin}>{operation.square}"


def dump_order(order: Order) -> JSON:
    """Returns the JSON form of an order."""
    return {
        "operations": [dump_operation(op) for op in order.operations],
        "team": order.team.value if order.team is not None else None,
    }


def check_order(state: State, seat: int, order: Order) -> None:
    """Raises IllegalOrderError, naming the operation and the reason, unless the order is legal
    (UnknownSeatError for a seat outside 1..8)."""
    check_orders(state, ((seat, order),))


def check_orders(state: State, orders: Sequence[tuple[int, Order]]) -> None:
    """Raises IllegalOrderError for the first (seat, order) that `check_order` refuses."""
    squares = state.squares
    for seat, order in orders:
        _check(state, squares, seat, order)


def legal_orders(state: State, seat: int) -> tuple[Order, ...]:
    """Returns every legal order of `seat` now, moves naming their origin (as `random_order`
    gives them): no operation, one, or two on different pieces in either order, each alone
    or with a request for each other team; none for a forfeited seat or a finished match."""
    check_seat_number("drts_team23", seat, SEATS)
    if is_finished(state) or state.seat(seat).forfeited:
        return ()
    squares = state.squares
    options = [legal_operations(state, squares, seat, kind) for kind in KINDS]
    singles = [(op,) for ops in options for op in ops]
    pairs = [
        (a, b)
        for i, first in enumerate(options)
        for j, second in enumerate(options)
        if i != j
        for a in first
        for b in second
    ]
    teams = [None, *(team for team in TEAMS if team is not state.seat(seat).team)]
    return tuple(Order(ops, team) for ops in [(), *singles, *pairs] for team in teams)


def random_order(state: State, seat: int, rng: Rng) -> Order:
    """Returns a random order that `check_order` accepts for a seat that owes orders.

    0 to 2 operations on different pieces, each drawn among the piece's legal
    operations (hold included), and sometimes a request for another team.
    """
    squares = state.squares
    options = {kind: legal_operations(state, squares, seat, kind) for kind in KINDS}
    usable = [kind for kind in KINDS if options[kind]]
    count = rng.below(min(MAX_OPERATIONS, len(usable)) + 1)
    operations = tuple(rng.choice(options[kind]) for kind in rng.sample(usable, count))
    team = None
    if rng.chance(*_TEAM_REQUEST_CHANCE):
        team = rng.choice([t for t in TEAMS if t is not state.seat(seat).team])
    return Order(operations, team)


def _check(state: State, squares: Squares, seat: int, order: Order) -> None:
    check_seat(state, seat)
    _check_count(order)
    for operation in order.operations:
        reason = illegality(state, squares, seat, operation)
        if reason:
            raise IllegalOrderError(f"seat {seat}: {format_operation(operation)!r}: {reason}")
    if order.team is not None and order.team is state.seat(seat).team:
        raise IllegalOrderError(
            f"seat {seat}: 'team {order.team.value}': seat {seat} is already in "
            f"{order.team.value} (DRTS-19: a request asks for another team)"
        )


def check_seat(state: State, seat: int) -> None:
    check_seat_number("drts_team23", seat, SEATS)
    if state.seat(seat).forfeited:
        raise IllegalOrderError(f"seat {seat} has forfeited: it sends no more orders")
    if is_finished(state):
        raise IllegalOrderError(f"the match is finished after movement {state.last_resolved}")


def _check_count(order: Order) -> None:
    count = len(order.operations)
    if count > MAX_OPERATIONS:
        raise IllegalOrderError(
            f"DRTS-4: an order holds at most {MAX_OPERATIONS} operations, this one {count}"
        )
    if count == MAX_OPERATIONS and order.operations[0].piece is order.operations[1].piece:
        first, second = (format_operation(op) for op in order.operations)
        raise IllegalOrderError(
            f"DRTS-4: each operation needs a different piece; {first!r} and {second!r} "
            f"both use the {order.operations[0].piece.value.capitalize()}"
        )


def dump_operation(operation: Operation) -> JSON:
    data: dict[str, JSON] = {"op": operation.action.value, "piece": operation.piece.value}
    if operation.origin is not None:
        data["from"] = operation.origin
    if operation.square is not None:
        data["to"] = operation.square
    return data


def _parse_text(text: str) -> Order:
    clauses = [c.strip() for c in CLAUSE_SPLIT.split(text) if c.strip()]
    operations: list[Operation] = []
    team: Team | None = None
    holds_all = False
    for clause in clauses:
        words = clause.lower().replace(">", " > ").split()
        refuse_items(words, repr(clause))
        if words == ["hold"]:
            holds_all = True
        elif words[0] != "team":
            operations.append(text_operation(words, clause))
        elif team is not None:
            raise InvalidOrderError(f"an order holds one team request, not two: {text!r}")
        else:
            team = text_team(words, clause)
    if holds_all and operations:
        raise InvalidOrderError(f"'hold' (every piece holds) goes with no operation: {text!r}")
    return Order(tuple(operations), team)


def refuse_items(words: Iterable[JSON], where: str) -> None:
    if any(isinstance(word, str) and word.lower() in _ITEM_WORDS for word in words):
        raise InvalidOrderError(
            "items (Stars, DeathStars, Blackholes, Generators) are not supported by this "
            f"ruleset version (drts_team23 v1): {where}"
        )


def text_team(words: list[str], clause: str) -> Team:
    if len(words) == 2 and words[1] in TEAM_WORDS:
        return TEAM_WORDS[words[1]]
    raise InvalidOrderError(
        f"cannot read {clause!r}: a team request is 'team green', 'team yellow' or 'team blue'"
    )


def text_operation(words: list[str], clause: str) -> Operation:
    if not words:  # an item word alone ("blackhole"): no piece named
        raise InvalidOrderError(
            f"cannot read {clause!r}: it must start with water, fire, plant or team ({_EXAMPLES})"
        )
    piece = _PIECE_WORDS.get(words[0])
    rest = words[1:]
    if piece is None:
        raise InvalidOrderError(
            f"cannot read {clause!r}: it must start with water, fire, plant or team ({_EXAMPLES})"
        )
    if rest == ["hold"]:
        return Operation(Action.HOLD, piece)
    if len(rest) == 2 and rest[0] == "recover":
        return Operation(Action.RECOVER, piece, _text_square(rest[1], clause))
    if len(rest) == 1:
        return Operation(Action.MOVE, piece, _text_square(rest[0], clause))
    if len(rest) == 3 and rest[1] == ">":
        target = _text_square(rest[2], clause)
        return Operation(Action.MOVE, piece, target, _text_square(rest[0], clause))
    raise InvalidOrderError(f"cannot read {clause!r} ({_EXAMPLES})")


def _text_square(word: str, clause: str) -> int:
    if not word.isdecimal():  # "²" is a digit to str.isdigit(), but not to int()
        raise InvalidOrderError(f"cannot read {clause!r}: {word!r} is not a square number")
    if len(word) > 9:  # far off the board, and int() of a long run fails
        raise InvalidOrderError(
            f"square {word[:9]}... is not on the board (1..{SQUARE_COUNT}) in {clause[:40]!r}"
        )
    return _square(int(word), clause)


def _square(number: int, where: str) -> int:
    if not is_square(number):
        raise InvalidOrderError(
            f"square {number} is not on the board (1..{SQUARE_COUNT}) in {where}"
        )
    return number


def _parse_json(data: Mapping[str, JSON]) -> Order:
    refuse_items(data.keys(), repr(dict(data)))
    unknown = sorted(set(data) - ORDER_KEYS)
    if unknown:
        raise InvalidOrderError(
            f"a JSON order has no key {', '.join(map(repr, unknown))} (keys: operations, team)"
        )
    operations = data.get("operations", [])
    if not isinstance(operations, list):
        raise InvalidOrderError(f"'operations' must be a list, not {operations!r}")
    team = data.get("team")
    if team is not None and (not isinstance(team, str) or team.lower() not in TEAM_WORDS):
        raise InvalidOrderError(f"'team' must be green, yellow, blue or null, not {team!r}")
    parsed = tuple(json_operation(op) for op in operations)
    return Order(parsed, TEAM_WORDS[team.lower()] if team is not None else None)


def json_operation(data: JSON) -> Operation:
    if not isinstance(data, dict):
        raise InvalidOrderError(f"an operation is a JSON object, not {data!r}")
    refuse_items([*data.keys(), *data.values()], repr(data))
    action, piece = json_action(data), _json_piece(data)
    unknown = sorted(set(data) - _OPERATION_KEYS[action])
    if unknown:
        raise InvalidOrderError(
            f"a {action.value} operation has no key {', '.join(map(repr, unknown))}: {data!r}"
        )
    if action is Action.HOLD:
        return Operation(action, piece)
    origin = _json_square(data, "from") if "from" in data else None
    return Operation(action, piece, _json_square(data, "to"), origin)


def json_action(data: Mapping[str, JSON]) -> Action:
    value = data.get("op")
    if not isinstance(value, str) or value.lower() not in _ACTIONS:
        raise InvalidOrderError(f"'op' must be move, hold or recover, not {value!r}")
    return _ACTIONS[value.lower()]


def _json_piece(data: Mapping[str, JSON]) -> Kind:
    value = data.get("piece")
    if not isinstance(value, str) or value.lower() not in _PIECE_WORDS:
        raise InvalidOrderError(f"'piece' must be water, fire or plant, not {value!r}")
    return _PIECE_WORDS[value.lower()]


def _json_square(data: Mapping[str, JSON], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOrderError(f"'{key}' must be a square number, not {value!r}: {data!r}")
    return _square(value, repr(data))
