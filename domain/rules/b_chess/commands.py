"""B-Chess's orders as per-piece commands (`legal_commands`, issue 48).

A message holds any lines (BC-11), so its orders cannot be listed; what a
seat may order this Turn of the Field is listed object by object instead:
each of its objects (by Priority List id, "Q7", in Priority List order) with
every square it can move to on the Field as it stands now (BC-8: not through
an object, not onto an own object, a Pawn straight only to an empty square
and diagonally only to capture), and, under "purchase", the Field's Purchase
while the seat has its King, the Field has 3 empty squares and the seat can pay
(BC-6, BC-9). `combining` says how many purchases its macks pay for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.rules.b_chess.orders import Action, MoveAction, Order, PurchaseAction, legal_moves
from domain.rules.b_chess.purchase import LEAST_EMPTY, PRICE_STEP
from domain.rules.b_chess.state import State
from domain.rules.contract import Combining, check_seat_number

PURCHASE = "purchase"  # the key of the Field's Purchase among the objects

RULE = (
    "BC-3, BC-11: one action an object, for any number of the seat's objects (an object "
    "carries out the first of its orders of this Turn it can, in arrival order, so an "
    "order sent earlier this Turn goes first); purchases while macks last (BC-6: the n-th "
    "purchase since the Field last turned costs 10 x (n - 1) macks, purchases sent "
    "earlier this Turn included). The purchases come first, then each object acts in "
    "Priority List order on the Field as the objects before it left it (BC-3, BC-4): a "
    "listed target may be blocked or taken by then, and the order is then not carried out."
)


def legal_commands(state: State, seat: int) -> dict[str, tuple[Action, ...]]:
    """Returns, by object id in Priority List order, every move of `seat`'s objects it can
    carry out on the Field now (BC-8), then the purchase under "purchase" when it is
    affordable (BC-6); empty for a seat that owes no order (out, no object left, or the
    match is over); UnknownSeatError for a seat outside the match."""
    check_seat_number("b_chess", seat, len(state.seats))
    if not _owes(state, seat):
        return {}
    listed: dict[str, tuple[Action, ...]] = {}
    for piece in state.pieces:
        if piece.owner == seat:
            targets = sorted(move.target for move in legal_moves(state, piece))
            if targets:
                listed[piece.id] = tuple(MoveAction(piece.id, target) for target in targets)
    if affordable_purchases(state, seat):
        listed[PURCHASE] = (PurchaseAction(),)
    return listed


def affordable_purchases(state: State, seat: int) -> int:
    """Returns how many purchases `seat` can pay for this Turn, none sent yet (BC-6): the
    n-th costs 10 x (n - 1) macks and needs 3 empty squares, its King on the Field."""
    if state.king_of(seat) is None:
        return 0
    macks, count = state.seat(seat).macks, 0
    while macks >= PRICE_STEP * count and state.empty_squares - count >= LEAST_EMPTY:
        macks -= PRICE_STEP * count
        count += 1
    return count


def combining(state: State, seat: int, standing: Sequence[Order] = ()) -> Combining:
    """Returns how a seat's listed commands combine into a further order over its `standing`
    ones of this Turn (every one counts, OrderPolicy.ACCUMULATE): one action an object,
    purchases while macks last (`repeats`: the purchases the macks still pay for after the
    standing ones, which come first, BC-6; 0 once they pay for none), the macks left once
    the standing purchases are paid for (`stock`), the objects the standing orders already
    command (`ordered`: a further action of one is tried only if its standing one cannot
    be carried out, BC-3), every object acting on the Field as it is when its turn comes."""
    if not _owes(state, seat):
        return Combining(RULE, snapshot=False)
    actions = [action for order in standing for action in order.actions]
    sent = sum(isinstance(action, PurchaseAction) for action in actions)
    affordable = affordable_purchases(state, seat)
    paid = min(sent, affordable)
    macks = state.seat(seat).macks - PRICE_STEP * paid * (paid - 1) // 2
    repeats = {PURCHASE: max(affordable - sent, 0)} if affordable else {}
    ordered: dict[str, Mapping[str, int]] = {
        a.piece: {} for a in actions if isinstance(a, MoveAction) and _has(state, seat, a)
    }
    return Combining(RULE, repeats=repeats, stock={"macks": macks}, snapshot=False, ordered=ordered)


def order_of_commands(commands: Sequence[Action]) -> Order:
    """Returns the order of one line a command, in the order given."""
    return Order(tuple(commands))


def commands_of_order(order: Order) -> tuple[Action, ...]:
    """Returns an order's actions, in the order written."""
    return order.actions


def _has(state: State, seat: int, action: MoveAction) -> bool:
    piece = state.piece(action.number)
    return piece is not None and piece.id == action.piece and piece.owner == seat


def _owes(state: State, seat: int) -> bool:
    seat_now = state.seat(seat)
    has_object = any(piece.owner == seat for piece in state.pieces)
    return state.ended is None and not seat_now.out and has_object
