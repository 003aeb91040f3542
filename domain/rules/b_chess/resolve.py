"""B-Chess's Turn of the Field (BC-2, BC-3): one movement of the match.

The orders are every message received since the last Turn, in arrival
order (OrderPolicy.ACCUMULATE), each holding its lines in the order written
(BC-11). First the Field's actions: the purchases, in arrival order (BC-6;
Initialize happened at the start). Then each object of the Priority List,
top first (BC-4), carries out at most one order: its orders of this Turn are
tried in arrival order, each against the Field at that moment; one that
cannot be carried out does nothing and a step says why; the first one that
can is carried out and any later one is set aside (BC-3). A move onto an
enemy object destroys it (BC-8); a seat whose King is taken plays on
without it (BC-9). Last, Checkmate (BC-10).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from domain.rules.b_chess.field import Kind, square_text
from domain.rules.b_chess.orders import MoveAction, Order, PurchaseAction, format_line, why_not
from domain.rules.b_chess.purchase import purchase
from domain.rules.b_chess.state import Ending, Piece, State
from domain.rules.contract import Step
from domain.rules.rng import Rng

TROPHY = "An ornamental chess piece"


def resolve(
    state: State, orders: Sequence[tuple[int, Order]], rng: Rng
) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after one Turn of the Field and the steps that explain it."""
    state, steps = _purchases(state, orders, rng)
    state, moved = _priority_list(state, orders)
    state, ending = checkmate(replace(state, turn=state.turn + 1))
    return state, (*steps, *moved, *ending)


def _purchases(
    state: State, orders: Sequence[tuple[int, Order]], rng: Rng
) -> tuple[State, list[Step]]:
    paid: dict[int, int] = {}
    steps: list[Step] = []
    for seat, order in orders:
        for action in order.actions:
            if isinstance(action, PurchaseAction):
                state, step, counted = purchase(state, seat, paid.get(seat, 0), rng)
                paid[seat] = paid.get(seat, 0) + counted
                steps.append(step)
    return state, steps


def _priority_list(state: State, orders: Sequence[tuple[int, Order]]) -> tuple[State, list[Step]]:
    tried: dict[int, list[tuple[int, MoveAction]]] = {}
    for seat, order in orders:
        for action in order.actions:
            if isinstance(action, MoveAction):
                tried.setdefault(action.number, []).append((seat, action))
    steps: list[Step] = []
    for number in [p.number for p in state.pieces] + _never_listed(state, tried):
        acted = False
        for seat, action in tried.get(number, []):
            if acted:
                steps.append(_not_carried_out(seat, action, "its object already acted this Turn"))
                continue
            state, step, acted = _try(state, seat, action)
            steps.append(step)
    return state, steps


def _never_listed(state: State, tried: dict[int, list[tuple[int, MoveAction]]]) -> list[int]:
    listed = {p.number for p in state.pieces}
    return sorted(number for number in tried if number not in listed)


def _try(state: State, seat: int, action: MoveAction) -> tuple[State, Step, bool]:
    piece = state.piece(action.number)
    if piece is None or piece.id != action.piece:
        return state, _not_carried_out(seat, action, f"{action.piece} is not on the Field"), False
    if piece.owner != seat:
        reason = f"{piece.id} belongs to seat {piece.owner}, not to seat {seat}"
        return state, _not_carried_out(seat, action, reason), False
    blocked = why_not(state, piece, action.to)
    if blocked is not None:
        return state, _not_carried_out(seat, action, blocked), False
    after, step = _carry_out(state, piece, action.to)
    return after, step, True


def _not_carried_out(seat: int, action: MoveAction, reason: str) -> Step:
    text = f"seat {seat}'s order {format_line(action)!r} is not carried out: {reason}"
    data = {"seat": seat, "piece": action.piece, "to": list(action.to), "carried_out": False}
    return Step("BC-3", text, {**data, "reason": reason})


def _carry_out(state: State, piece: Piece, target: tuple[int, int]) -> tuple[State, Step]:
    taken = state.occupied.get(target)
    moved = replace(piece, square=target)
    pieces = tuple(moved if p is piece else p for p in state.pieces if p is not taken)
    text = f"{piece.label} moves from {square_text(piece.square)} to {square_text(target)}"
    data = {"piece": piece.id, "from": list(piece.square), "to": list(target)}
    if taken is None:
        return replace(state, pieces=pieces), Step("BC-8", text, {**data, "carried_out": True})
    text += f" and destroys {taken.label}; it leaves the Priority List (BC-4)"
    if taken.kind is Kind.KING:
        text += (
            f"; seat {taken.owner} has lost its King: it keeps its other objects but can no "
            "longer purchase or win (BC-9)"
        )
    step = Step("BC-8", text, {**data, "carried_out": True, "destroyed": taken.id})
    return replace(state, pieces=pieces), step


def checkmate(state: State) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after the Checkmate check (BC-10): one King left wins, none left ends
    the match with no winner; either way the Field is cleared."""
    kings = state.kings
    if len(kings) > 1 or state.ended is not None:
        return state, ()
    winner = kings[0].owner if kings else None
    if winner is None:
        text = "Checkmate: no King is left on the Field; the match ends with no winner (BC-10)"
    else:
        text = (
            f"Checkmate: only {kings[0].id} of seat {winner} is left; seat {winner} wins the "
            f"match and its Trophy, {TROPHY.lower()} (BC-10)"
        )
    ended = replace(state, pieces=(), ended=Ending(state.turn, winner))
    cleared = Step("BC-10", "the match ends: every object is destroyed, the Field is cleared")
    return ended, (Step("BC-10", text, {"winner": winner, "turn": state.turn}), cleared)
