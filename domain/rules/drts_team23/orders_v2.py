"""Orders of DRTS Team 23 version 2: version 1's syntax with item invocations and `clear`.

An operation may carry an item (DRTS-4): a Star on a move or a hold, a
DeathStar pointing at a corner or a Blackhole on a move. Text form, after
the operation: `fire 14>15 star`, `water hold star`, `plant 20>21 deathstar 1`
(corner 1, 6, 37 or 42), `fire 15 blackhole`. JSON form: the operation
object's `"item": "star" | "deathstar" | "blackhole"` and, for a DeathStar,
`"corner": 1`. A move or a hold may convert its piece into a Generator (DRTS-15):
`fire 14>15 generator`, `water hold generator`; JSON `"item": "generator"`. Two
clauses withdraw earlier orders of the movement (the orders of a seat merge per
piece, `merge.py`): `clear` withdraws everything (operations and team request),
`hold` every operation; JSON `"clear": true`, `"hold": true`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from domain.errors import IllegalOrderError, InvalidOrderError
from domain.rules.contract import JSON, json_order_object
from domain.rules.drts_team23.board import CORNERS
from domain.rules.drts_team23.moves import (
    Action,
    Operation,
    illegality,
    legal_operations,
)
from domain.rules.drts_team23.orders import (
    CLAUSE_SPLIT,
    MAX_OPERATIONS,
    TEAM_WORDS,
    Order,
    check_seat,
    dump_operation,
    format_operation,
    json_operation,
    text_operation,
    text_team,
)
from domain.rules.drts_team23.orders import random_order as random_order_v1
from domain.rules.drts_team23.state import KINDS, Item, Seat, Squares, State, Team
from domain.rules.rng import Rng

_ITEM_WORDS = {item.value: item for item in Item}
_ORDER_KEYS = frozenset({"operations", "team", "clear", "hold"})
_ITEM_CHANCE = (1, 4)  # of a random operation invoking an item
_ON_HOLD = (Item.STAR, Item.GENERATOR)
_STOCK_ITEMS = frozenset({Item.STAR, Item.DEATHSTAR, Item.BLACKHOLE})  # DRTS-21


def parse_order_v2(source: str | Mapping[str, JSON]) -> Order:
    """Returns the order a text or JSON form describes; raises InvalidOrderError saying why not."""
    order, errors = parse_parts(source)
    if errors:
        raise InvalidOrderError(errors[0][1])
    return order


def parse_parts(source: str | Mapping[str, JSON]) -> tuple[Order, list[tuple[str, str]]]:
    """Returns the order of the parts that parse, and (part, reason) for each that does not.

    A part is a clause of the text form, or one operation, the team or a flag of the JSON
    form. A second team request is a part that does not parse."""
    if isinstance(source, str) and not source.strip().startswith("{"):
        return _parse_text(source)
    data = json_order_object(source) if isinstance(source, str) else source
    return _parse_json(data)


def format_order_v2(order: Order) -> str:
    """Returns the canonical text of an order: `clear`, `hold`, operations, team request."""
    clauses = ["clear"] if order.clear else []
    clauses += ["hold"] if order.hold_all else []
    clauses += [format_operation_v2(op) for op in order.operations]
    if order.team is not None:
        clauses.append(f"team {order.team.value}")
    return "; ".join(clauses)


def format_operation_v2(operation: Operation) -> str:
    """Returns the canonical text of one operation with its item, e.g. "fire 14>15 star"."""
    text = format_operation(operation)
    if operation.item is Item.DEATHSTAR:
        return f"{text} deathstar {operation.corner}"
    return f"{text} {operation.item.value}" if operation.item is not None else text


def dump_order_v2(order: Order) -> JSON:
    """Returns the JSON form of an order (`clear` and `hold` only when set)."""
    data: dict[str, JSON] = {
        "operations": [dump_operation_v2(op) for op in order.operations],
        "team": order.team.value if order.team is not None else None,
    }
    if order.clear:
        data["clear"] = True
    if order.hold_all:
        data["hold"] = True
    return data


def dump_operation_v2(operation: Operation) -> JSON:
    """Returns the JSON form of one operation with its item."""
    data = dump_operation(operation)
    assert isinstance(data, dict)
    if operation.item is not None:
        data["item"] = operation.item.value
    if operation.corner is not None:
        data["corner"] = operation.corner
    return data


def check_order_v2(state: State, seat: int, order: Order) -> None:
    """Raises IllegalOrderError, naming the operation and the reason, unless the order is legal
    (UnknownSeatError for a seat outside 1..8): at most two operations on different pieces
    (DRTS-4), each legal with its item, items within the seat's stock (DRTS-21)."""
    _check(state, state.squares, seat, order)


def check_orders_v2(state: State, orders: Sequence[tuple[int, Order]]) -> None:
    """Raises IllegalOrderError for the first (seat, order) that `check_order_v2` refuses."""
    squares = state.squares
    for seat, order in orders:
        _check(state, squares, seat, order)


def _check(state: State, squares: Squares, seat: int, order: Order) -> None:
    check_seat(state, seat)
    pieces = [op.piece for op in order.operations]
    if len(set(pieces)) != len(pieces) or len(pieces) > MAX_OPERATIONS:
        texts = ", ".join(repr(format_operation_v2(op)) for op in order.operations)
        raise IllegalOrderError(
            f"DRTS-4: an order holds at most {MAX_OPERATIONS} operations, each on a different "
            f"piece, not {texts}"
        )
    for operation in order.operations:
        reason = illegality(state, squares, seat, operation) or item_illegality(operation)
        if reason:
            raise IllegalOrderError(f"seat {seat}: {format_operation_v2(operation)!r}: {reason}")
    short = stock_shortage(state.seat(seat), order.operations)
    if short:
        raise IllegalOrderError(f"seat {seat}: {short}")
    if order.team is not None and order.team is state.seat(seat).team:
        raise IllegalOrderError(team_reason(seat, order.team))


def item_illegality(operation: Operation) -> str:
    """Returns why an operation cannot carry its item (DRTS-4), or "" when it can."""
    if operation.item is None or operation.action is Action.MOVE:
        return ""
    if operation.action is Action.HOLD and operation.item in _ON_HOLD:
        return ""
    what = "a recovery" if operation.action is Action.RECOVER else "a hold"
    return (
        f"{what} cannot invoke a {operation.item.value} (DRTS-4: a Star or a Generator goes "
        "with a move or a hold, a DeathStar or Blackhole is built by a move)"
    )


def stock_shortage(seat: Seat, operations: Sequence[Operation]) -> str:
    """Returns why the operations invoke more items than the seat has (DRTS-21), or ""."""
    invoked = [op.item for op in operations if op.item in _STOCK_ITEMS]
    if not invoked:
        return ""  # DRTS-15: a Generator takes nothing from the stock
    used = Counter(invoked)
    stock = {Item.STAR: seat.stock.stars, Item.DEATHSTAR: seat.stock.deathstars}
    stock[Item.BLACKHOLE] = seat.stock.blackholes
    for item, count in used.items():
        if count > stock[item]:
            return (
                f"seat {seat.number} has {stock[item]} {item.value}(s) left and its order "
                f"would invoke {count} (DRTS-21: an invocation needs one in stock)"
            )
    return ""


def team_reason(seat: int, team: Team) -> str:
    """Returns why a request for one's own team is refused (DRTS-19)."""
    return (
        f"seat {seat}: 'team {team.value}': seat {seat} is already in {team.value} "
        "(DRTS-19: a request asks for another team)"
    )


def random_order_v2(state: State, seat: int, rng: Rng) -> Order:
    """Returns a random legal order: v1's, each operation sometimes invoking an item the seat
    still has (a Star on a move or hold, a DeathStar or Blackhole on a move), after `clear`,
    so that it stands whatever the seat sent before in the movement (orders merge)."""
    order = random_order_v1(state, seat, rng)
    operations: list[Operation] = []
    for operation in order.operations:
        chosen = _random_item(operation, rng) if rng.chance(*_ITEM_CHANCE) else operation
        if stock_shortage(state.seat(seat), [*operations, chosen]):
            chosen = operation
        operations.append(chosen)
    return Order(tuple(operations), order.team, clear=True)


def _random_item(operation: Operation, rng: Rng) -> Operation:
    if operation.action is Action.HOLD:
        return Operation(Action.HOLD, operation.piece, item=rng.choice(list(_ON_HOLD)))
    if operation.action is not Action.MOVE:
        return operation
    item = rng.choice(list(Item))
    corner = rng.choice(list(CORNERS)) if item is Item.DEATHSTAR else None
    return Operation(Action.MOVE, operation.piece, operation.square, operation.origin, item, corner)


def legal_operations_v2(state: State, seat: int) -> list[Operation]:
    """Returns every legal operation of the seat's pieces without items (v1's)."""
    squares = state.squares
    return [op for kind in KINDS for op in legal_operations(state, squares, seat, kind)]


def _parse_text(text: str) -> tuple[Order, list[tuple[str, str]]]:
    operations: list[Operation] = []
    teams: list[Team] = []
    flags = {"clear": False, "hold": False}
    errors: list[tuple[str, str]] = []
    for clause in (c.strip() for c in CLAUSE_SPLIT.split(text)):
        if not clause:
            continue
        words = clause.lower().replace(">", " > ").split()
        try:
            if words in (["clear"], ["hold"]):
                flags[words[0]] = True
            elif words[0] == "team":
                teams.append(_one_team(teams, text_team(words, clause), clause))
            else:
                operations.append(_text_operation_v2(words, clause))
        except InvalidOrderError as error:
            errors.append((clause, str(error)))
    order = Order(tuple(operations), teams[0] if teams else None, flags["clear"], flags["hold"])
    return order, errors


def _one_team(teams: list[Team], team: Team, part: str) -> Team:
    if teams:
        raise InvalidOrderError(f"an order holds one team request, not two: {part!r}")
    return team


def _text_operation_v2(words: list[str], clause: str) -> Operation:
    item, corner = None, None
    if len(words) >= 3 and words[-2] == "deathstar":
        item, corner, words = Item.DEATHSTAR, _corner(words[-1], clause), words[:-2]
    elif words[-1] in _ITEM_WORDS:
        item, words = _ITEM_WORDS[words[-1]], words[:-1]
        if item is Item.DEATHSTAR:
            raise InvalidOrderError(
                f"a DeathStar names the corner it points at (1, 6, 37 or 42, DRTS-11), "
                f"e.g. 'water 20>21 deathstar 1': {clause!r}"
            )
    operation = text_operation(words, clause)
    return Operation(
        operation.action, operation.piece, operation.square, operation.origin, item, corner
    )


def _corner(value: JSON, where: str) -> int:
    number = value
    if isinstance(value, str) and value.isdecimal() and len(value) < 4:
        number = int(value)
    if isinstance(number, bool) or number not in CORNERS:
        raise InvalidOrderError(
            f"a DeathStar points at corner 1, 6, 37 or 42 (DRTS-11), not {value!r}: {where}"
        )
    assert isinstance(number, int)
    return number


def _parse_json(data: Mapping[str, JSON]) -> tuple[Order, list[tuple[str, str]]]:
    unknown = sorted(set(data) - _ORDER_KEYS)
    if unknown:
        raise InvalidOrderError(
            f"a JSON order has no key {', '.join(map(repr, unknown))} "
            "(keys: operations, team, clear, hold)"
        )
    raw = data.get("operations", [])
    if not isinstance(raw, list):
        raise InvalidOrderError(f"'operations' must be a list, not {raw!r}")
    flags = [_flag(data, key) for key in ("clear", "hold")]
    operations: list[Operation] = []
    errors: list[tuple[str, str]] = []
    for entry in raw:
        try:
            operations.append(_json_operation_v2(entry))
        except InvalidOrderError as error:
            errors.append((repr(entry), str(error)))
    team = data.get("team")
    if team is not None and (not isinstance(team, str) or team.lower() not in TEAM_WORDS):
        reason = f"'team' must be green, yellow, blue or null, not {team!r}"
        errors.append((f"team {team!r}", reason))
        team = None
    parsed_team = TEAM_WORDS[team.lower()] if isinstance(team, str) else None
    return Order(tuple(operations), parsed_team, flags[0], flags[1]), errors


def _flag(data: Mapping[str, JSON], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise InvalidOrderError(f"'{key}' must be true or false, not {value!r}")
    return value


def _json_operation_v2(data: JSON) -> Operation:
    if not isinstance(data, dict):
        raise InvalidOrderError(f"an operation is a JSON object, not {data!r}")
    rest = {key: value for key, value in data.items() if key not in ("item", "corner")}
    operation = json_operation(rest)
    item_name = data.get("item")
    if item_name is None:
        if "corner" in data:
            raise InvalidOrderError(f"'corner' goes with a DeathStar: {data!r}")
        return operation
    if not isinstance(item_name, str) or item_name.lower() not in _ITEM_WORDS:
        raise InvalidOrderError(f"'item' must be star, deathstar, blackhole or generator: {data!r}")
    item = _ITEM_WORDS[item_name.lower()]
    corner = None
    if item is Item.DEATHSTAR:
        corner = _corner(data.get("corner"), repr(data))
    elif "corner" in data:
        raise InvalidOrderError(f"'corner' goes with a DeathStar: {data!r}")
    return Operation(
        operation.action, operation.piece, operation.square, operation.origin, item, corner
    )
