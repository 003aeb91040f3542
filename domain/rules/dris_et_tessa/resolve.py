"""Resolution of one Dris et-Tessa movement: the turn of the seat to move, with its steps.

A turn is a placement or a step (DT-2), the removal its mill gives (DT-3,
DT-4), then the end checks (DT-5, DT-6). Nothing is random: `rng` is not used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from domain.rules.contract import JSON, Step, Steps
from domain.rules.dris_et_tessa.board import NAMES, in_mills, line_name, mills_through, names_of
from domain.rules.dris_et_tessa.engine import Position, play, removable
from domain.rules.dris_et_tessa.orders import Order, check_order, order_plies
from domain.rules.dris_et_tessa.outcome import draw_reason, outcome, win_reason
from domain.rules.dris_et_tessa.state import State, opponent, pieces
from domain.rules.rng import Rng


def resolve(state: State, orders: Sequence[tuple[int, Order]], rng: Rng) -> tuple[State, Steps]:
    """Returns the state after the seat to move's turn, and its steps.

    `orders` holds at most the one order of the seat to move (the Table
    replaces a seat's earlier order, OrderPolicy.REPLACE). Each order is
    checked again against the state (IllegalOrderError); a silent seat
    changes nothing here (its timeout is the Table's: the match is lost, or a
    strike). Nothing is random: `rng` is not used.
    """
    for seat, order in orders:
        check_order(state, seat, order)
    if not orders:
        return state, ()
    seat, order = orders[0]
    return play_turn(state, seat, order)


def play_turn(state: State, seat: int, order: Order) -> tuple[State, Steps]:
    """Returns the state after a legal turn of `seat`, and the steps explaining it."""
    ply, removal = order_plies(state.position, order)
    after = play(state.position, ply)
    steps = [_move_step(state.position, seat, order)]
    if after.removal:
        steps.append(_mill_step(after, seat, ply & 31))
        assert removal is not None  # order_plies asks for it whenever a mill forms
        steps.append(_removal_step(after, seat, order))
        after = play(after, removal)
    quiet = 0 if removal is not None else state.quiet_turns + 1  # DT-6 counts every turn
    next_state = replace(state, position=after, turn=state.turn + 1, quiet_turns=quiet, last=order)
    return next_state, (*steps, *_end_steps(next_state, seat))


def _move_step(position: Position, seat: int, order: Order) -> Step:
    data: dict[str, JSON] = {"seat": seat, "to": order.to, "from": order.origin}
    if order.origin is None:
        left = position.hands[seat - 1] - 1
        data["hand"] = left
        text = f"seat {seat} places a piece on {order.to} ({left} left in hand)"
    else:
        text = f"seat {seat} moves {order.origin}-{order.to}"
    return Step("DT-2", text, data)


def _mill_step(after: Position, seat: int, point: int) -> Step:
    lines = sorted(line_name(line) for line in mills_through(after.boards[seat - 1], point))
    if len(lines) == 1:
        text = f"seat {seat} forms a mill, {lines[0]}: it removes one enemy piece"
    else:
        text = f"seat {seat} forms two mills, {' and '.join(lines)}: it removes one enemy piece"
    return Step("DT-3", text, {"seat": seat, "point": NAMES[point], "mills": list(lines)})


def _removal_step(after: Position, seat: int, order: Order) -> Step:
    enemy = after.boards[opponent(seat) - 1]
    fallback = not enemy & ~in_mills(enemy)  # DT-4: every enemy piece stands in a mill
    text = f"seat {seat} removes seat {opponent(seat)}'s piece on {order.remove}"
    if fallback:
        text += f" (every piece of seat {opponent(seat)} is in a mill, so any may go)"
    data: dict[str, JSON] = {
        "seat": seat,
        "point": order.remove,
        "fallback": fallback,
        "removable": list(names_of(removable(enemy))),
    }
    return Step("DT-4", text, data)


def _end_steps(state: State, seat: int) -> Steps:
    result = outcome(state)
    if result.winners:
        lost = opponent(seat)
        data: dict[str, JSON] = {"winner": seat, "loser": lost, "pieces": pieces(state, lost)}
        return (Step("DT-5", win_reason(state, seat), data),)
    if result.finished:
        return (Step("DT-6", draw_reason(state), {"quiet_turns": state.quiet_turns}),)
    return ()
