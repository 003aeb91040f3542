"""B-Chess orders: the lines of a forum post (BC-11), their checks (BC-8) and random orders.

A message holds one action a line, taken in the order written (BC-11):

    Q7 to 3,12      move (or capture with) the object Q7 to row 3, col 12
    purchase        buy a new object beside the seat's King (BC-6)

Case does not matter; `move` before the id, `to` and parentheses around the
square are optional (`move q7 to (3, 12)`, `Q7 3,12`); blank lines are
skipped. The JSON form is `{"actions": [{"action": "move", "piece": "Q7",
"to": [3, 12]}, {"action": "purchase"}]}`, an item may also be a line's text.

At submission each line stands or falls on its own (`screen_order`): a line
that does not parse, names an object that is not on the Field or not the
seat's, or a square the object cannot reach in one move (BC-8), is refused
naming the line; the others stand. What a line meets on the Field when the
Turn resolves (a blocked slide, its own object on the target, an object
destroyed earlier in the Turn, too few macks) is judged then, and an order
that fails is "not carried out", with a step saying why (BC-3).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from domain.errors import IllegalOrderError, InvalidOrderError
from domain.rules.b_chess.config import SIZE
from domain.rules.b_chess.field import MOVES, Kind, Move, Square, move_to, moves, square_text
from domain.rules.b_chess.state import Piece, State
from domain.rules.contract import JSON, RefusedPart, Screened, check_seat_number, json_order_object
from domain.rules.rng import Rng

EXAMPLE = "a line is like 'Q7 to 3,12' (an object's id, then row,col) or 'purchase'"
_MOVE = re.compile(
    r"^(?:move\s+)?([kprnbq])\s*([0-9]{1,9})\s*(?:to\s*)?\(?\s*([0-9]{1,3})\s*,\s*([0-9]{1,3})"
    r"\s*\)?\s*\.?$",
    re.IGNORECASE,
)
_PURCHASE = re.compile(r"^purchase\s*[.!]?$", re.IGNORECASE)


@dataclass(frozen=True)
class MoveAction:
    """Invoke the move (or a Pawn's capture) of the object `piece` ("Q7") to `to`."""

    piece: str
    to: Square

    @property
    def number(self) -> int:
        """Returns the object's number (7 for "Q7")."""
        return int(self.piece[1:])


@dataclass(frozen=True)
class PurchaseAction:
    """Invoke the Field's Purchase (BC-6)."""


Action = MoveAction | PurchaseAction


@dataclass(frozen=True)
class Order:
    """One message: its actions in the order written (BC-11)."""

    actions: tuple[Action, ...]


def parse_line(text: str) -> Action:
    """Returns the action one line states; raises InvalidOrderError naming the line."""
    line = " ".join(text.split())
    if _PURCHASE.match(line):
        return PurchaseAction()
    found = _MOVE.match(line)
    if found is None:
        raise InvalidOrderError(f"line {line!r} is not an action: {EXAMPLE}")
    letter, number, row, col = found.groups()
    if int(number) < 1:
        raise InvalidOrderError(f"line {line!r}: object numbers start at 1")
    return MoveAction(f"{letter.upper()}{int(number)}", _square(int(row), int(col), line))


def _square(row: int, col: int, line: str) -> Square:
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise InvalidOrderError(
            f"line {line!r}: square {row},{col} is off the Field (rows and columns 0..{SIZE - 1}, "
            "BC-1)"
        )
    return (row, col)


def parse_item(item: JSON) -> Action:
    """Returns the action one JSON item states (an object or a line's text)."""
    if isinstance(item, str):
        return parse_line(item)
    if not isinstance(item, dict):
        raise InvalidOrderError(f"an action is an object or a line of text, not {item!r}")
    kind = item.get("action")
    if kind == "purchase" and set(item) == {"action"}:
        return PurchaseAction()
    if kind == "move" and set(item) == {"action", "piece", "to"}:
        to = item["to"]
        if not (isinstance(item["piece"], str) and isinstance(to, list) and len(to) == 2):
            raise InvalidOrderError(f"a move is {{'piece': 'Q7', 'to': [row, col]}}, not {item}")
        if not all(type(v) is int for v in to):
            raise InvalidOrderError(f"a move's square is two whole numbers, not {to!r}")
        return parse_line(f"{item['piece']} to {to[0]},{to[1]}")
    raise InvalidOrderError(
        'an action is {"action": "move", "piece": "Q7", "to": [3, 12]} or '
        f'{{"action": "purchase"}}, not {item!r}'
    )


def message_parts(sent: str | Mapping[str, JSON]) -> list[JSON]:
    """Returns a message's parts: its non-blank lines, or its JSON `actions` items."""
    if isinstance(sent, str) and sent.lstrip().startswith("{"):
        sent = json_order_object(sent)
    if isinstance(sent, Mapping):
        if set(sent) != {"actions"} or not isinstance(sent["actions"], list):
            raise InvalidOrderError('a JSON order is {"actions": [...]}, one action an item')
        parts: list[JSON] = list(sent["actions"])
    else:
        parts = [line.strip() for line in str(sent).splitlines() if line.strip()]
    if not parts:
        raise InvalidOrderError(f"the message holds no action: {EXAMPLE}")
    return parts


def parse_order(sent: str | Mapping[str, JSON]) -> Order:
    """Returns the order a whole message states; raises InvalidOrderError at its first bad line."""
    return Order(tuple(parse_item(part) for part in message_parts(sent)))


def format_line(action: Action) -> str:
    """Returns an action's canonical line."""
    if isinstance(action, PurchaseAction):
        return "purchase"
    return f"{action.piece} to {square_text(action.to)}"


def format_order(order: Order) -> str:
    """Returns the canonical text: one line an action, in order."""
    return "\n".join(format_line(action) for action in order.actions)


def dump_order(order: Order) -> JSON:
    """Returns the JSON form."""
    return {"actions": [_dump_action(action) for action in order.actions]}


def _dump_action(action: Action) -> JSON:
    if isinstance(action, PurchaseAction):
        return {"action": "purchase"}
    return {"action": "move", "piece": action.piece, "to": list(action.to)}


def check_action(state: State, seat: int, action: Action) -> None:
    """Raises IllegalOrderError when a seat may not send this action now: the match is over,
    a purchase without a King (BC-6, BC-9), a move of an object that is not on the Field,
    not of that kind, not the seat's, or that cannot reach the square in one move (BC-8)."""
    check_seat_number("b_chess", seat, len(state.seats))
    if state.ended is not None:
        raise IllegalOrderError("the match is over (BC-10)")
    if isinstance(action, PurchaseAction):
        if state.king_of(seat) is None:
            raise IllegalOrderError(f"purchase: seat {seat} has no King on the Field (BC-6, BC-9)")
        return
    piece = state.piece(action.number)
    line = format_line(action)
    if piece is None or piece.id != action.piece:
        raise IllegalOrderError(f"{line}: there is no {action.piece} on the Field (BC-4)")
    if piece.owner != seat:
        raise IllegalOrderError(
            f"{line}: {piece.id} belongs to seat {piece.owner}; only its owner may invoke its "
            "actions"
        )
    if move_to(piece.kind, piece.square, action.to, state.settings.torus) is None:
        raise IllegalOrderError(
            f"{line}: {piece.id} on {square_text(piece.square)} cannot reach "
            f"{square_text(action.to)}: {MOVES[piece.kind]} (BC-8)"
        )


def check_order(state: State, seat: int, order: Order) -> None:
    """Raises IllegalOrderError at the first action the seat may not send now (`check_action`)."""
    check_seat_number("b_chess", seat, len(state.seats))
    for action in order.actions:
        check_action(state, seat, action)


def screen_order(
    state: State, seat: int, earlier: Sequence[Order], sent: str | Mapping[str, JSON]
) -> Screened[Order]:
    """Returns the lines of a message that stand, as one order in the order written, and the
    refused lines with their reasons (BC-11). Raises InvalidOrderError (no line parses) or
    IllegalOrderError naming every line's reason when no line stands."""
    check_seat_number("b_chess", seat, len(state.seats))
    actions: list[Action] = []
    refused: list[RefusedPart] = []
    errors: list[Exception] = []
    for part in message_parts(sent):
        try:
            action = parse_item(part)
            check_action(state, seat, action)
        except (InvalidOrderError, IllegalOrderError) as error:
            refused.append(RefusedPart(part if isinstance(part, str) else str(part), str(error)))
            errors.append(error)
            continue
        actions.append(action)
    if not actions:
        reasons = "; ".join(r.reason for r in refused)
        illegal = any(isinstance(e, IllegalOrderError) for e in errors)
        raise (IllegalOrderError if illegal else InvalidOrderError)(f"no line stands: {reasons}")
    return Screened(Order(tuple(actions)), tuple(refused))


def why_not(state: State, piece: Piece, target: Square) -> str | None:
    """Returns why `piece` cannot move to `target` on the Field as it is now (BC-8), or None
    when it can."""
    move = move_to(piece.kind, piece.square, target, state.settings.torus)
    if move is None:
        return f"{MOVES[piece.kind]} (BC-8)"
    return _blocked(piece, move, state.occupied)


def _blocked(piece: Piece, move: Move, occupied: Mapping[Square, Piece]) -> str | None:
    blocker = next((occupied[s] for s in move.between if s in occupied), None)
    if blocker is not None:
        return f"{blocker.id} on {square_text(blocker.square)} blocks the way (BC-8)"
    there = occupied.get(move.target)
    if there is not None and there.owner == piece.owner:
        return f"{there.id}, an object of the same seat, stands there (BC-8)"
    if piece.kind is Kind.PAWN and not move.pawn_capture and there is not None:
        return f"a Pawn moves orthogonally only to an empty square, and {there.id} is there (BC-8)"
    if move.pawn_capture and there is None:
        return "a Pawn moves diagonally only to capture, and the square is empty (BC-8)"
    return None


def legal_moves(state: State, piece: Piece) -> list[Move]:
    """Returns the moves `piece` may carry out on the Field as it is now (BC-8)."""
    occupied = state.occupied
    return [
        m
        for m in moves(piece.kind, piece.square, state.settings.torus)
        if _blocked(piece, m, occupied) is None
    ]


def random_order(state: State, seat: int, rng: Rng) -> Order:
    """Returns a legal order drawn from `rng`: a purchase while the seat has a King, then one
    move for each of its objects, taking a King where one can, else any enemy object,
    else a random move it can carry out now (a geometric one when it has none)."""
    check_seat_number("b_chess", seat, len(state.seats))
    actions: list[Action] = [PurchaseAction()] if state.king_of(seat) else []
    occupied = state.occupied
    for piece in state.pieces:
        if piece.owner != seat:
            continue
        options = legal_moves(state, piece) or list(
            moves(piece.kind, piece.square, state.settings.torus)
        )
        kings = [m for m in options if _taken(occupied, m, Kind.KING)]
        takes = [m for m in options if _taken(occupied, m, None)]
        move = rng.choice(kings or takes or options)
        actions.append(MoveAction(piece.id, move.target))
    if not actions:
        raise IllegalOrderError(f"seat {seat} has no object on the Field to order")
    return Order(tuple(actions))


def _taken(occupied: dict[Square, Piece], move: Move, kind: Kind | None) -> bool:
    there = occupied.get(move.target)
    return there is not None and (kind is None or there.kind is kind)
