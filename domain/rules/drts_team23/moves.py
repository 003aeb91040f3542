"""Operations of DRTS Team 23: their values, legality (DRTS-6, DRTS-7, DRTS-18) and application.

An order (orders.py) holds up to two operations (DRTS-4); `orders.check_order`
judges each with `illegality` here.

Every operation is judged against the state at the start of the movement
(DRTS-5), with the teams of that moment: "own or ally" means the same side
(team, or the seat itself while teamless), "enemy" a different side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from domain.rules.contract import JSON, Step
from domain.rules.drts_team23.battle import can_capture_piece
from domain.rules.drts_team23.board import (
    DIAGONAL,
    ORTHOGONAL,
    is_diagonal_step,
    is_orthogonal_step,
    recovery_squares,
)
from domain.rules.drts_team23.state import (
    Item,
    Kind,
    Piece,
    Squares,
    State,
    piece_index,
    recovery_blocked,
)


class Action(StrEnum):
    """What an operation does with its piece (DRTS-4)."""

    MOVE = "move"
    HOLD = "hold"
    RECOVER = "recover"


@dataclass(frozen=True)
class Operation:
    """One operation on one piece: a move, a hold or a recovery."""

    action: Action
    piece: Kind
    square: int | None = None  # move: the target; recover: the recovery square
    origin: int | None = None  # move only: where the order says the piece stands
    item: Item | None = None  # v2: a Star (move or hold), DeathStar or Blackhole (move)
    corner: int | None = None  # v2: the corner a DeathStar points at (DRTS-11)


class Diagonal(StrEnum):
    """Why a diagonal step is legal (DRTS-6; the Star case only in v2)."""

    OWN = "own"  # an own piece stands on the target
    ALLY = "ally"  # an ally piece stands on the target
    CAPTURE = "capture"  # an enemy piece this piece can capture stands on the target
    PREDICTED = "predicted"  # such an enemy piece stands orthogonally next to the target
    STAR = "star"  # v2: the piece has Star status (DRTS-6, DRTS-16)


DIAGONAL_TEXT = {
    Diagonal.OWN: "towards an own piece",
    Diagonal.ALLY: "towards an ally piece",
    Diagonal.CAPTURE: "attacking a capturable enemy piece",
    Diagonal.PREDICTED: "predicted attack on a capturable enemy piece next to it",
    Diagonal.STAR: "as a Star",
}


def illegality(state: State, squares: Squares, seat: int, operation: Operation) -> str:
    """Returns why an operation of `seat` is illegal now, or "" when it is legal."""
    piece = state.piece(seat, operation.piece)
    if operation.action is Action.RECOVER:
        return _recovery_illegality(state, piece, operation)
    if piece.square is None:
        when = f"movement {piece.recover_from}"
        return f"the {piece.label} is out (it may be recovered from {when}, DRTS-18)"
    if piece.generator is not None:
        return f"the {piece.label} is a Generator on {piece.square}: it cannot act (DRTS-15)"
    if operation.action is Action.HOLD:
        return ""
    return _move_illegality(state, squares, piece, operation)


def _move_illegality(state: State, squares: Squares, piece: Piece, operation: Operation) -> str:
    origin, target = piece.square, operation.square
    assert origin is not None and target is not None  # a move names its target; piece is on
    if operation.origin is not None and operation.origin != origin:
        return f"the {piece.label} stands on {origin}, not on {operation.origin}"
    if is_orthogonal_step(origin, target):
        return ""
    if is_diagonal_step(origin, target):
        if diagonal_case(state, squares, piece, target) is not None:
            return ""
        star = ""
        if operation.item is Item.STAR:
            star = (
                "; a Star invoked in this operation gives its status only after the moves "
                "are judged (DRTS-5)"
            )
        return (
            f"a diagonal step to {target} needs an own or ally piece on {target}, or an "
            f"enemy piece the {piece.kind.value.capitalize()} can capture on {target} or "
            f"orthogonally next to it (DRTS-6, DRTS-7){star}"
        )
    return (
        f"{target} is not next to {origin} (DRTS-6: one square up, down, left or right, "
        "or diagonally in the cases of DRTS-6)"
    )


def _recovery_illegality(state: State, piece: Piece, operation: Operation) -> str:
    if piece.square is not None:
        return f"the {piece.label} is on the board (square {piece.square}): nothing to recover"
    if state.movement < piece.recover_from:
        return (
            f"the {piece.label} is out until movement {piece.recover_from - 1}: it may be "
            f"recovered from movement {piece.recover_from} (DRTS-18)"
        )
    # DRTS-18: only items block recovery squares (none in v1).
    blocked = recovery_blocked(state, piece.seat)
    if operation.square not in recovery_squares(blocked):
        if operation.square in blocked:
            return (
                f"{operation.square} holds an own or ally DeathStar or a Blackhole: no "
                "recovery there (DRTS-18)"
            )
        return (
            f"{operation.square} is not a recovery square "
            "(DRTS-18: 15, 16, 19, 20, 21, 22, 23, 24, 27, 28)"
        )
    return ""


def diagonal_case(state: State, squares: Squares, piece: Piece, target: int) -> Diagonal | None:
    """Returns the DRTS-6 case that makes a diagonal step of `piece` to `target` legal, or None.

    Star status counts as it stands at the start of the movement (DRTS-5).
    """
    sides, pieces, movement = state.sides, state.pieces, state.movement
    side = sides[piece.seat - 1]
    on_target = squares.get(target, ())
    for index in on_target:
        other = pieces[index]
        if sides[other.seat - 1] == side:
            return Diagonal.OWN if other.seat == piece.seat else Diagonal.ALLY
    star = piece.is_star(movement)
    for index in on_target:  # the target holds no own or ally piece
        if _captures(piece, star, pieces[index], movement):
            return Diagonal.CAPTURE
    for near in ORTHOGONAL[target]:
        for index in squares.get(near, ()):
            other = pieces[index]
            if sides[other.seat - 1] != side and _captures(piece, star, other, movement):
                return Diagonal.PREDICTED
    return Diagonal.STAR if star else None


def _captures(piece: Piece, star: bool, other: Piece, movement: int) -> bool:
    """Returns whether `piece` (with Star status `star`) can capture `other` in `movement`."""
    if other.generator is not None:  # DRTS-7, DRTS-15: every piece captures a Generator
        return True
    return can_capture_piece(piece.kind, star, other.kind, other.is_star(movement))


def legal_operations(state: State, squares: Squares, seat: int, kind: Kind) -> list[Operation]:
    """Returns every legal operation of seat's piece of `kind` now, in a fixed order."""
    piece = state.piece(seat, kind)
    if piece.square is None:
        if state.movement < piece.recover_from:
            return []
        squares_open = recovery_squares(recovery_blocked(state, seat))
        return [Operation(Action.RECOVER, kind, square) for square in squares_open]
    if piece.generator is not None:  # DRTS-15: a Generator cannot act
        return []
    origin = piece.square
    diagonals = [t for t in DIAGONAL[origin] if diagonal_case(state, squares, piece, t)]
    targets = sorted([*ORTHOGONAL[origin], *diagonals])
    moves = [Operation(Action.MOVE, kind, target, origin) for target in targets]
    return [Operation(Action.HOLD, kind), *moves]


def apply_operations(
    state: State, operations: Sequence[tuple[int, Sequence[Operation]]]
) -> tuple[State, frozenset[int], tuple[Step, ...]]:
    """Returns the state with every operation applied at once (DRTS-5), the moved pieces, steps.

    `operations` lists (seat, the operations of its order); they must be legal.
    A piece that changed square, by a move or a recovery, has moved in
    (DRTS-8, DRTS-18); every other piece holds.
    """
    squares = state.squares
    pieces = list(state.pieces)
    moved: set[int] = set()
    steps: list[Step] = []
    for seat, seat_operations in sorted(operations, key=lambda pair: pair[0]):
        for operation in seat_operations:
            if operation.action is Action.HOLD or operation.square is None:
                continue
            index = piece_index(seat, operation.piece)
            before = state.pieces[index]
            pieces[index] = Piece(seat, operation.piece, operation.square, 0, before.star_until)
            moved.add(index)
            steps.append(_operation_step(state, squares, before, operation.square))
    return state.changed(pieces=tuple(pieces)), frozenset(moved), tuple(steps)


def _operation_step(state: State, squares: Squares, piece: Piece, target: int) -> Step:
    data: dict[str, JSON] = {"seat": piece.seat, "piece": str(piece.kind), "to": target}
    if piece.square is None:
        data["from"] = None
        text = f"{piece.label} is recovered on square {target} (it counts as moving in)"
        return Step("DRTS-18", text, data)
    data["from"] = piece.square
    text = f"{piece.label} moves {piece.square}>{target}"
    if is_diagonal_step(piece.square, target):
        case = diagonal_case(state, squares, piece, target)
        assert case is not None  # the order was checked
        data["diagonal"] = str(case)
        text += f" diagonally, {DIAGONAL_TEXT[case]}"
    return Step("DRTS-6", text, data)
