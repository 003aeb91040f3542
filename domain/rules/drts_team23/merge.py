"""A seat's several messages in one movement of DRTS Team 23 v2: merged per piece, screened
operation by operation (OrderPolicy.MERGE, `screen_order`).

A later message replaces only the operations on the pieces it names, and the
team request if it makes one; `clear` withdraws everything sent before,
`hold` every operation sent before (then the message's own parts apply).
Each part of a message stands or falls on its own: an illegal operation is
refused with its reason and the others stand; over the seat's whole standing
order, an operation that would make a third (DRTS-4) or invoke more items
than the seat has (DRTS-21) is refused.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from domain.errors import IllegalOrderError, InvalidOrderError
from domain.rules.contract import JSON, RefusedPart, Screened
from domain.rules.drts_team23.moves import Operation, illegality
from domain.rules.drts_team23.orders import MAX_OPERATIONS, Order, check_seat
from domain.rules.drts_team23.orders_v2 import (
    format_operation_v2,
    item_illegality,
    parse_parts,
    stock_shortage,
    team_reason,
)
from domain.rules.drts_team23.state import State


def merge_orders(earlier: Order, later: Order) -> Order:
    """Returns the seat's standing order after `later`: per piece, the later operation
    replaces the earlier; the later team request replaces the earlier one; `clear` and
    `hold` withdraw the earlier orders (all, or their operations) first."""
    base = Order() if later.clear else earlier
    kept = () if later.hold_all else base.operations
    named = {op.piece for op in later.operations}
    operations = (*(op for op in kept if op.piece not in named), *later.operations)
    return Order(operations, later.team if later.team is not None else base.team)


def screen_order(
    state: State, seat: int, earlier: Sequence[Order], sent: str | Mapping[str, JSON]
) -> Screened[Order]:
    """Returns the parts of a message that stand, as one order, and the refused parts.

    Each operation is checked on its own against the state and against the
    seat's standing order (`earlier` merged) as the message's accepted parts
    change it. Raises InvalidOrderError or IllegalOrderError, naming every
    reason, when no part stands (a message of only `clear` or `hold` stands).
    """
    check_seat(state, seat)
    parsed, errors = parse_parts(sent)
    refused = [RefusedPart(part, reason) for part, reason in errors]
    standing = functools.reduce(merge_orders, earlier, Order())
    base = merge_orders(standing, Order(clear=parsed.clear, hold_all=parsed.hold_all))
    accepted: list[Operation] = []
    squares = state.squares
    for operation in parsed.operations:
        reason = illegality(state, squares, seat, operation) or item_illegality(operation)
        reason = reason or _standing_reason(state, seat, base, accepted, operation)
        if reason:
            refused.append(RefusedPart(format_operation_v2(operation), reason))
        else:
            accepted.append(operation)
    team = parsed.team
    if team is not None and team is state.seat(seat).team:
        refused.append(RefusedPart(f"team {team.value}", team_reason(seat, team)))
        team = None
    order = Order(tuple(accepted), team, parsed.clear, parsed.hold_all)
    if order == Order() and refused:
        _refuse_all(refused, bool(errors) and len(errors) == len(refused))
    return Screened(order, tuple(refused))


def _standing_reason(
    state: State, seat: int, base: Order, accepted: list[Operation], operation: Operation
) -> str:
    if any(op.piece is operation.piece for op in accepted):
        return (
            f"DRTS-4: this message already has an operation on the "
            f"{operation.piece.value.capitalize()}"
        )
    merged = merge_orders(base, Order((*accepted, operation)))
    if len(merged.operations) > MAX_OPERATIONS:
        others = ", ".join(
            repr(format_operation_v2(op)) for op in merged.operations if op != operation
        )
        return (
            f"DRTS-4: at most {MAX_OPERATIONS} operations a movement, and the standing order "
            f"already has {others}: replace one of those pieces' operations or send 'clear'"
        )
    return stock_shortage(state.seat(seat), merged.operations)


def _refuse_all(refused: list[RefusedPart], syntax_only: bool) -> None:
    text = "no part of the order stands: " + "; ".join(
        f"{part.part!r}: {part.reason}" for part in refused
    )
    if syntax_only:
        raise InvalidOrderError(text)
    raise IllegalOrderError(text)
