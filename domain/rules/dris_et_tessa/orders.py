"""Dris et-Tessa orders: their legality (`check_order`, with the reason and the ruling),
the list of legal ones and a random one. An order is one turn: its plies are a placement
or a step, and the removal when that ply forms a mill (DT-3).

The order values and their text and JSON forms are in notation.py; this
module re-exports `Order`, `parse_order`, `format_order` and `dump_order`.
"""

from __future__ import annotations

from domain.errors import IllegalOrderError
from domain.rules.contract import check_seat_number
from domain.rules.dris_et_tessa.board import INDEX, NAMES, NEIGHBOURS, line_name, mills_through
from domain.rules.dris_et_tessa.engine import (
    REMOVE,
    Position,
    forms_mill,
    play,
    plies,
    removable,
)
from domain.rules.dris_et_tessa.notation import (
    Order,
    dump_order,
    format_order,
    parse_order,
    ply_text,
)
from domain.rules.dris_et_tessa.outcome import is_over
from domain.rules.dris_et_tessa.state import SEATS, State, opponent
from domain.rules.rng import Rng

__all__ = [
    "Order",
    "check_order",
    "dump_order",
    "format_order",
    "legal_orders",
    "order_plies",
    "parse_order",
    "random_order",
]

GAME = "dris_et_tessa"


def check_order(state: State, seat: int, order: Order) -> None:
    """Raises IllegalOrderError unless `seat` may give `order` now, saying why
    (UnknownSeatError for a seat other than 1 and 2)."""
    check_seat_number(GAME, seat, len(SEATS))
    _check_turn(state, seat)
    order_plies(state.position, order)


def order_plies(position: Position, order: Order) -> tuple[int, int | None]:
    """Returns the plies of a legal order: its placement or step, and its removal or None.

    Raises IllegalOrderError naming the fault and the ruling (DT-2 to DT-4).
    """
    ply = _move_ply(position, order)
    after = play(position, ply)
    if not after.removal:
        _check_no_removal(position, order, ply)
        return ply, None
    if order.remove is None:
        example = format_order(Order(order.to, order.origin, _first(after)))
        raise IllegalOrderError(
            f"{ply_text(ply)} forms a mill ({_mills(after, ply)}): name the enemy piece "
            f"it removes, such as {example!r} (DT-3)"
        )
    return ply, _removal_ply(after, order.remove)


def legal_orders(state: State, seat: int) -> tuple[Order, ...]:
    """Returns every order `seat` may give now, alphabetically by origin, point and removal;
    none for a seat that is not to move, or once the match is over."""
    check_seat_number(GAME, seat, len(SEATS))
    if not _is_to_move(state, seat):
        return ()
    found = []
    for ply in plies(state.position):
        after = play(state.position, ply)
        removals = plies(after) if after.removal else [None]
        found += [order_of(ply, removal) for removal in removals]
    return tuple(sorted(found, key=lambda o: (o.origin or "", o.to, o.remove or "")))


def random_order(state: State, seat: int, rng: Rng) -> Order:
    """Returns a random legal order drawn ply by ply, as a random playout does: a uniform
    placement or step, then, for a mill, a uniform removal. Raises IllegalOrderError if
    `seat` owes no order."""
    _check_turn(state, seat)
    ply = rng.choice(plies(state.position))
    after = play(state.position, ply)
    return order_of(ply, rng.choice(plies(after)) if after.removal else None)


def order_of(ply: int, removal: int | None) -> Order:
    """Returns the order made of a placement or step ply and its removal ply, if any."""
    remove = None if removal is None else NAMES[removal & 31]
    origin = None if ply < 32 else NAMES[(ply >> 5) - 1]
    return Order(NAMES[ply & 31], origin, remove)


def _is_to_move(state: State, seat: int) -> bool:
    return not is_over(state) and seat == state.position.mover


def _check_turn(state: State, seat: int) -> None:
    if is_over(state):
        raise IllegalOrderError(f"the match is finished; seat {seat} has nothing to order")
    if seat != state.position.mover:
        raise IllegalOrderError(f"not your turn: seat {state.position.mover} is to move")


def _move_ply(position: Position, order: Order) -> int:
    seat = position.mover
    hand = position.hands[seat - 1]
    to = INDEX[order.to]
    if order.origin is None and not hand:
        raise IllegalOrderError(
            f"seat {seat} has no pieces left in hand: it moves a piece one step along a line, "
            "such as 'd7-d6' (DT-2)"
        )
    if order.origin is not None and hand:
        raise IllegalOrderError(
            f"seat {seat} still has {_pieces(hand)} in hand: it places them all before any "
            "piece moves, such as 'd7' (DT-2)"
        )
    if order.origin is None:
        _check_empty(position, order.to)
        return to
    origin = INDEX[order.origin]
    if not position.boards[seat - 1] >> origin & 1:
        raise IllegalOrderError(f"there is no piece of seat {seat} on {order.origin} to move")
    if not NEIGHBOURS[origin] >> to & 1:
        raise IllegalOrderError(
            f"{order.origin} and {order.to} are not adjacent: a piece moves one step along a "
            "line to an empty point, no flying (DT-2)"
        )
    _check_empty(position, order.to)
    return (origin + 1) << 5 | to


def _check_empty(position: Position, point: str) -> None:
    for seat in SEATS:
        if position.boards[seat - 1] >> INDEX[point] & 1:
            raise IllegalOrderError(f"{point} is taken by a piece of seat {seat} (DT-2)")


def _check_no_removal(position: Position, order: Order, ply: int) -> None:
    if order.remove is None:
        return
    move, seat = ply_text(ply), position.mover
    mask = position.boards[seat - 1] | 1 << (ply & 31)
    if ply >> 5:
        mask ^= 1 << ((ply >> 5) - 1)
    if forms_mill(mask, ply & 31):  # DT-3 with no enemy piece on the board: nothing to take
        reason = f"forms a mill but seat {opponent(seat)} has no piece on the board"
    else:
        reason = "forms no mill"
    raise IllegalOrderError(f"{move} {reason}, so it removes nothing: send {move!r} (DT-3)")


def _removal_ply(after: Position, point: str) -> int:
    seat, enemy_seat = after.mover, opponent(after.mover)
    enemy = after.boards[enemy_seat - 1]
    bit = 1 << INDEX[point]
    if not enemy & bit:
        raise IllegalOrderError(f"{point} holds no piece of seat {enemy_seat} to remove (DT-4)")
    if not removable(enemy) & bit:
        lines = _mills_of(enemy, INDEX[point])
        free = ", ".join(sorted(NAMES[p & 31] for p in plies(after)))
        raise IllegalOrderError(
            f"{point} is protected by seat {enemy_seat}'s mill {lines}: seat {seat} removes a "
            f"piece of seat {enemy_seat} in no mill: {free} (DT-4)"
        )
    return REMOVE | INDEX[point]


def _mills(after: Position, ply: int) -> str:
    return _mills_of(after.boards[after.mover - 1], ply & 31)


def _mills_of(mask: int, point: int) -> str:
    return " and ".join(line_name(line) for line in mills_through(mask, point))


def _first(after: Position) -> str:
    return min(NAMES[p & 31] for p in plies(after))


def _pieces(count: int) -> str:
    return "1 piece" if count == 1 else f"{count} pieces"
