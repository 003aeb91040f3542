"""Stars of DRTS Team 23 v2 (DRTS-16): step 0 gives Star status to each invoked piece.

A Star invoked in movement m gives Star status from step 0 of m through
m + 1; invoked on a piece that has the status, it adds 2 movements. Each
invocation costs the seat one Star. The status makes diagonal steps legal
from the next movement on (DRTS-5, DRTS-6, `moves.diagonal_case`), beats
non-Stars in battle (DRTS-7, DRTS-9, `battle.battles`) and keeps the piece
out of DeathStar captures (DRTS-16, `deathstars`). It ends when its last
movement closes (`expire_stars`) or the piece leaves the board.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.rules.contract import JSON, Step
from domain.rules.drts_team23.orders import Order
from domain.rules.drts_team23.state import Item, State, piece_index

STATUS_MOVEMENTS = 2  # DRTS-16


def invoke_stars(
    state: State, orders: Sequence[tuple[int, Order]]
) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after step 0's Star conversions and their steps (DRTS-16)."""
    if not any(op.item is Item.STAR for _, order in orders for op in order.operations):
        return state, ()
    pieces, seats = list(state.pieces), list(state.seats)
    steps = []
    for seat, order in sorted(orders, key=lambda pair: pair[0]):
        for operation in order.operations:
            if operation.item is not Item.STAR:
                continue
            index = piece_index(seat, operation.piece)
            piece = pieces[index]
            until = max(piece.star_until, state.movement - 1) + STATUS_MOVEMENTS
            pieces[index] = piece.with_star(until)
            stock = seats[seat - 1].stock
            seats[seat - 1] = seats[seat - 1].with_stock(stock.with_stars(stock.stars - 1))
            data: dict[str, JSON] = {
                "seat": seat,
                "piece": str(piece.kind),
                "square": piece.square,
                "star_until": until,
                "stars_left": stock.stars - 1,
            }
            text = (
                f"{piece.label} becomes a Star on square {piece.square} through movement "
                f"{until} (seat {seat} has {stock.stars - 1} Stars left)"
            )
            steps.append(Step("DRTS-16", text, data))
    starred = state.changed(pieces=tuple(pieces), seats=tuple(seats), same_squares=True)
    return starred, tuple(steps)


def star_indices(state: State) -> frozenset[int]:
    """Returns the indices of the pieces with Star status in the open movement."""
    movement = state.movement
    return frozenset(i for i, p in enumerate(state.pieces) if p.star_until and p.is_star(movement))


def expire_stars(state: State, movement: int) -> State:
    """Returns the state with the Star status that ends before `movement` cleared."""
    if not any(p.star_until and p.star_until < movement for p in state.pieces):
        return state
    pieces = tuple(
        p.with_star(0) if p.star_until and p.star_until < movement else p for p in state.pieces
    )
    return state.changed(pieces=pieces)
