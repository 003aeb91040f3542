"""B-Chess's Purchase, an action of the Field (BC-6).

A seat's n-th purchase since the Field last turned costs 10 x (n - 1)
macks (the first of each Turn is free). It is refused, nothing spent and not
counted, when the seat has no King on the Field (BC-9), the Field has fewer
than 3 empty squares, or the seat has too few macks. Otherwise it draws a
kind (Pawn 10, Rook 3, Knight 3, Bishop 3, Queen 1) and an empty square
adjacent to the King, both from the Turn's Rng, and the new object joins the
bottom of the Priority List (BC-4). With no empty square beside the King
nothing is created and the macks are spent; with the `refund` option they
come back and the purchase does not count toward the next one's cost.
"""

from __future__ import annotations

from dataclasses import replace

from domain.rules.b_chess.field import Kind, neighbours, square_text
from domain.rules.b_chess.state import Piece, State
from domain.rules.contract import JSON, Step
from domain.rules.rng import Rng

PRICE_STEP = 10  # BC-6: 10 macks more for each purchase paid since the Field last turned
LEAST_EMPTY = 3  # BC-6: at least three unoccupied squares
WEIGHTS: tuple[tuple[Kind, int], ...] = (
    (Kind.PAWN, 10),
    (Kind.ROOK, 3),
    (Kind.KNIGHT, 3),
    (Kind.BISHOP, 3),
    (Kind.QUEEN, 1),
)


def draw_kind(rng: Rng) -> tuple[Kind, int]:
    """Returns a kind drawn by BC-6's weights, and the draw (0..19) that chose it."""
    draw = rng.below(sum(weight for _, weight in WEIGHTS))
    left = draw
    for kind, weight in WEIGHTS:
        if left < weight:
            return kind, draw
        left -= weight
    raise AssertionError("unreachable: the draw is below the total weight")


def purchase(state: State, seat: int, paid: int, rng: Rng) -> tuple[State, Step, bool]:
    """Returns the state after one purchase by `seat`, which has paid for `paid` purchases
    this Turn, the step that explains it, and whether it counts as paid for."""
    cost = PRICE_STEP * paid
    data = {"seat": seat, "cost": cost}
    refusal = _refusal(state, seat, cost)
    if refusal is not None:
        text = f"seat {seat}'s purchase is refused, nothing spent: {refusal}"
        return state, Step("BC-6", text, {**data, "carried_out": False, "reason": refusal}), False
    king = state.king_of(seat)
    assert king is not None  # _refusal checked it
    occupied = state.occupied
    spots = [s for s in neighbours(king.square, state.settings.torus) if s not in occupied]
    if not spots:
        return _nowhere(state, seat, cost, data)
    kind, draw = draw_kind(rng)
    square = rng.choice(sorted(spots))
    piece = Piece(state.next_number, kind, seat, square)
    after = replace(
        _pay(state, seat, cost), pieces=(*state.pieces, piece), next_number=piece.number + 1
    )
    text = (
        f"seat {seat} purchases for {cost} macks: drawn a {kind.noun}, {piece.id}, placed on "
        f"{square_text(square)} beside its King (BC-6); it joins the bottom of the Priority "
        "List (BC-4)"
    )
    step_data = {**data, "piece": piece.id, "draw": draw, "square": list(square)}
    return after, Step("BC-6", text, step_data), True


def _refusal(state: State, seat: int, cost: int) -> str | None:
    if state.king_of(seat) is None:
        return "it has no King on the Field (BC-9)"
    if state.empty_squares < LEAST_EMPTY:
        return f"the Field has {state.empty_squares} empty squares, fewer than {LEAST_EMPTY}"
    if state.seat(seat).macks < cost:
        return f"it has {state.seat(seat).macks} macks, fewer than the {cost} it costs"
    return None


def _nowhere(state: State, seat: int, cost: int, data: dict[str, JSON]) -> tuple[State, Step, bool]:
    if state.settings.refund:
        text = (
            f"seat {seat}'s purchase creates nothing: no empty square beside its King; its "
            f"{cost} macks are refunded (BC-6, refund option)"
        )
        return state, Step("BC-6", text, {**data, "created": None, "refunded": True}), False
    text = (
        f"seat {seat}'s purchase creates nothing: no empty square beside its King; its "
        f"{cost} macks are spent (BC-6)"
    )
    return _pay(state, seat, cost), Step("BC-6", text, {**data, "created": None}), True


def _pay(state: State, seat: int, cost: int) -> State:
    seats = tuple(replace(s, macks=s.macks - cost) if s.number == seat else s for s in state.seats)
    return replace(state, seats=seats)
