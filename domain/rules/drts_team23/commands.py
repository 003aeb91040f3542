"""DRTS Team 23's orders as per-piece commands (`legal_commands`, issue 48).

An order is up to two operations on different pieces and at most one team
request, which is free (DRTS-4); in version 2 an operation may invoke an item
while the seat has one left (DRTS-21). Listing every order of version 2
multiplies its items past use, so each piece's commands are listed instead
(`legal_commands`), keyed by the piece's kind ("water", "fire", "plant"), and
the team request under "team"; `combining` states how they make one order.

A piece's commands are its legal operations now (`moves.legal_operations`:
the hold, each orthogonal step and each diagonal step one of DRTS-6's cases
allows, Star status included, or each usable recovery square, DRTS-18), and,
in version 2, each of them with every item it may carry (`orders_v2`): a Star
on a move or a hold, a DeathStar pointing at each corner or a Blackhole on a
move (while the seat has one), a Generator on a move or a hold (no stock,
DRTS-15). A Generator acts no more (DRTS-15) and a piece out until a later
movement has nothing to do (DRTS-18): neither is listed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.errors import InvalidOrderError
from domain.rules.contract import Combining, check_seat_number
from domain.rules.drts_team23.board import CORNERS, is_diagonal_step
from domain.rules.drts_team23.moves import (
    DIAGONAL_TEXT,
    Action,
    Diagonal,
    Operation,
    diagonal_case,
    legal_operations,
)
from domain.rules.drts_team23.orders import MAX_OPERATIONS, Order
from domain.rules.drts_team23.scoring import is_finished
from domain.rules.drts_team23.state import KINDS, SEATS, TEAMS, Item, State, Team

TEAM = "team"  # the key of the team request among the pieces
Command = Operation | Team
_STOCKED = (Item.STAR, Item.DEATHSTAR, Item.BLACKHOLE)  # DRTS-21; a Generator costs nothing

RULE_V1 = (
    "DRTS-4: an order holds at most two operations, each on a different piece (a hold "
    "counts), and at most one team request, which is free; a piece not named holds "
    "(DRTS-22)."
)
RULE_V2 = (
    RULE_V1[:-1] + "; an operation may invoke an item only while the seat has one left, "
    "two Stars needing two (DRTS-21). A later order of the movement replaces the earlier "
    "one's operations piece by piece; 'clear' withdraws them all."
)


def legal_commands(state: State, seat: int) -> dict[str, tuple[Command, ...]]:
    """Returns, by piece, every command of `seat` now without items (version 1): each
    piece's legal operations, then the requests for each other team under "team"; empty
    for a forfeited seat or a finished match (UnknownSeatError outside 1..8)."""
    return _listed(state, seat, items=False)


def legal_commands_v2(state: State, seat: int) -> dict[str, tuple[Command, ...]]:
    """Returns `legal_commands` with each operation also listed with every item it may
    invoke now (version 2, DRTS-4, DRTS-15, DRTS-21)."""
    return _listed(state, seat, items=True)


def combining(state: State, seat: int, standing: Sequence[Order] = ()) -> Combining:
    """Returns version 1's combining rule (DRTS-4). A later order replaces the standing one
    whole (OrderPolicy.REPLACE), so `standing` does not matter."""
    del state, seat, standing
    return Combining(RULE_V1, max_pieces=MAX_OPERATIONS, free=(TEAM,))


def combining_v2(state: State, seat: int, standing: Sequence[Order] = ()) -> Combining:
    """Returns version 2's combining rule over the seat's `standing` order (merged, `merge`):
    version 1's, with the items the seat has left once the standing operations are paid
    for (DRTS-21), and the pieces those operations already command (`ordered`, each with
    what it spends): a further order's operation on one of them replaces it, and gives
    its item back; an operation on another piece is added to them (DRTS-4: two at most)."""
    stock = state.seat(seat).stock
    counts = {
        Item.STAR.value: stock.stars,
        Item.DEATHSTAR.value: stock.deathstars,
        Item.BLACKHOLE.value: stock.blackholes,
    }
    ordered: dict[str, Mapping[str, int]] = {}
    for order in standing:
        for operation in order.operations:
            ordered[operation.piece.value] = command_spends(operation)
        if order.team is not None:
            ordered[TEAM] = {}
    for spends in ordered.values():
        for item, count in spends.items():
            counts[item] -= count
    return Combining(
        RULE_V2, max_pieces=MAX_OPERATIONS, free=(TEAM,), stock=counts, ordered=ordered
    )


def command_spends(command: Command) -> Mapping[str, int]:
    """Returns what a command takes from the seat's stock: one of the item it invokes
    (DRTS-21), nothing for a Generator (DRTS-15) or a team request."""
    if isinstance(command, Operation) and command.item in _STOCKED:
        assert command.item is not None
        return {command.item.value: 1}
    return {}


def command_note(state: State, seat: int, command: Command) -> str:
    """Returns why a listed diagonal step is legal (DRTS-6's case: an own or ally piece on
    the target, a capturable enemy on it or orthogonally next to it, Star status), "" for
    every other command."""
    if not isinstance(command, Operation) or command.action is not Action.MOVE:
        return ""
    piece = state.piece(seat, command.piece)
    if piece.square is None or command.square is None:
        return ""
    if not is_diagonal_step(piece.square, command.square):
        return ""
    case = diagonal_case(state, state.squares, piece, command.square)
    if case is None:
        return ""
    rules = "DRTS-6, DRTS-16" if case is Diagonal.STAR else "DRTS-6"
    return f"diagonal, {DIAGONAL_TEXT[case]} ({rules})"


def order_of_commands(commands: Sequence[Command]) -> Order:
    """Returns the order holding `commands`: the operations in the order given and the
    team request; InvalidOrderError for two team requests (an order holds one, DRTS-19)."""
    operations = tuple(c for c in commands if isinstance(c, Operation))
    teams = [c for c in commands if not isinstance(c, Operation)]
    if len(teams) > 1:
        asked = ", ".join(team.value for team in teams)
        raise InvalidOrderError(f"an order holds one team request, not {len(teams)}: {asked}")
    return Order(operations, teams[0] if teams else None)


def commands_of_order(order: Order) -> tuple[Command, ...]:
    """Returns an order's commands: its operations, then its team request."""
    return (*order.operations, *(() if order.team is None else (order.team,)))


def _listed(state: State, seat: int, items: bool) -> dict[str, tuple[Command, ...]]:
    check_seat_number("drts_team23", seat, SEATS)
    if is_finished(state) or state.seat(seat).forfeited:
        return {}
    squares = state.squares
    listed: dict[str, tuple[Command, ...]] = {}
    for kind in KINDS:
        operations = legal_operations(state, squares, seat, kind)
        if items:
            operations = [o for op in operations for o in _with_items(state, seat, op)]
        if operations:
            listed[kind.value] = tuple(operations)
    listed[TEAM] = tuple(team for team in TEAMS if team is not state.seat(seat).team)
    return listed


def _with_items(state: State, seat: int, operation: Operation) -> list[Operation]:
    """Returns the operation, then the operation with each item it may invoke now."""
    stock = state.seat(seat).stock
    left = {Item.STAR: stock.stars, Item.DEATHSTAR: stock.deathstars}
    left[Item.BLACKHOLE] = stock.blackholes
    if operation.action is Action.RECOVER:
        return [operation]
    kinds = [Item.STAR, Item.GENERATOR]
    if operation.action is Action.MOVE:
        kinds = [Item.STAR, Item.DEATHSTAR, Item.BLACKHOLE, Item.GENERATOR]
    found = [operation]
    for item in kinds:
        if left.get(item, 1) < 1:
            continue
        corners: Sequence[int | None] = CORNERS if item is Item.DEATHSTAR else (None,)
        found += [_invoking(operation, item, corner) for corner in corners]
    return found


def _invoking(operation: Operation, item: Item, corner: int | None) -> Operation:
    return Operation(
        operation.action, operation.piece, operation.square, operation.origin, item, corner
    )
