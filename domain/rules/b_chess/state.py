"""The state of a B-Chess match as frozen values, and its JSON form.

The Field's objects are kept in Priority List order (BC-4), oldest first:
an object joins the bottom when it is created and leaves the list when it is
destroyed. Each object is named by its Priority List id, the letter of its
kind and a number given in creation order, never reused ("Q7"). Seats keep
their macks (BC-7) and whether the referee forfeited them. `turn` counts
the Turns of the Field resolved. When Checkmate ends the match (BC-10) the
Field is cleared and `ended` records the Turn and the winner (None: no King
was left).

The state holds no secret: B-Chess is played in a public forum, and the
orders of the open Turn live outside the state until the Turn resolves.

The state JSON (`dump_state` / `load_state`, documented in docs/games/b_chess.md):

    {"config": {"torus": true, "turn_seconds": 86400, "refund": false,
                "starting_macks": 50},
     "turn": 3, "next_number": 7,
     "seats": {"1": {"macks": 40, "out": false}, "2": {"macks": 50, "out": false}},
     "priority_list": [{"id": "K1", "owner": 2, "square": [3, 4]}, ...],
     "ended": null}

`ended` is null or {"turn": 5, "winner": 2} (winner null: no King left).
`load_state(dump_state(s)) == s`; anything else raises InvalidStateError
naming the fault.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from domain.errors import InvalidStateError
from domain.rules.b_chess.config import CONFIG_FIELDS, MOST_MACKS, SIZE, GameSettings
from domain.rules.b_chess.field import Kind, Square
from domain.rules.contract import JSON, load_config
from domain.rules.statejson import json_integer as _integer
from domain.rules.statejson import json_object as _object

MIN_SEATS, MAX_SEATS = 2, 8
_BIG = 10**9  # a bound for counters, only against absurd input
_ID = re.compile(r"^([KPRNBQ])([1-9][0-9]{0,8})$")


@dataclass(frozen=True)
class Piece:
    """A Field Object: its number (creation order), kind, owner and square."""

    number: int
    kind: Kind
    owner: int
    square: Square

    @property
    def id(self) -> str:
        """Returns the Priority List id, e.g. "Q7"."""
        return f"{self.kind.value}{self.number}"

    @property
    def label(self) -> str:
        """Returns the piece in step texts, e.g. "Queen Q7 of seat 2"."""
        return f"{self.kind.noun} {self.id} of seat {self.owner}"


@dataclass(frozen=True)
class Seat:
    """A seat: its macks (BC-7) and whether the referee forfeited it."""

    number: int
    macks: int
    out: bool = False


@dataclass(frozen=True)
class Ending:
    """How Checkmate ended the match (BC-10): the Turn, and the winner (None: no King left)."""

    turn: int
    winner: int | None


@dataclass(frozen=True)
class State:
    """A match between Turns of the Field; `pieces` is the Priority List, top first."""

    settings: GameSettings
    turn: int
    seats: tuple[Seat, ...]
    pieces: tuple[Piece, ...] = ()
    next_number: int = 1
    ended: Ending | None = None

    def seat(self, number: int) -> Seat:
        """Returns seat `number` (1..N)."""
        return self.seats[number - 1]

    def piece(self, number: int) -> Piece | None:
        """Returns the piece numbered `number` on the Field, or None."""
        return next((p for p in self.pieces if p.number == number), None)

    def king_of(self, seat: int) -> Piece | None:
        """Returns the seat's King on the Field, or None (BC-9)."""
        return next((p for p in self.pieces if p.kind is Kind.KING and p.owner == seat), None)

    @property
    def kings(self) -> tuple[Piece, ...]:
        """Returns the Kings on the Field, in Priority List order."""
        return tuple(p for p in self.pieces if p.kind is Kind.KING)

    @property
    def occupied(self) -> dict[Square, Piece]:
        """Returns the pieces by square."""
        return {p.square: p for p in self.pieces}

    @property
    def empty_squares(self) -> int:
        """Returns how many squares of the Field are empty."""
        return SIZE * SIZE - len(self.pieces)


def dump_state(state: State) -> JSON:
    """Returns the documented JSON form of a state."""
    ended = state.ended
    return {
        "config": state.settings.to_json(),
        "turn": state.turn,
        "next_number": state.next_number,
        "seats": {str(s.number): {"macks": s.macks, "out": s.out} for s in state.seats},
        "priority_list": [
            {"id": p.id, "owner": p.owner, "square": list(p.square)} for p in state.pieces
        ],
        "ended": None if ended is None else {"turn": ended.turn, "winner": ended.winner},
    }


_TOP_KEYS = ("config", "turn", "next_number", "seats", "priority_list", "ended")


def load_state(data: JSON) -> State:
    """Returns the state a dumped JSON form describes; raises InvalidStateError naming the fault."""
    top = _object(data, "the state", _TOP_KEYS)
    settings = GameSettings.of(load_config(CONFIG_FIELDS, top["config"]))
    turn = _integer(top["turn"], "'turn'", 0, _BIG)
    next_number = _integer(top["next_number"], "'next_number'", 1, _BIG)
    seats = _load_seats(top["seats"])
    pieces = _load_pieces(top["priority_list"], len(seats), next_number)
    ended = _load_ended(top["ended"], turn, len(seats))
    if ended is not None and pieces:
        raise InvalidStateError("an ended match has an empty Field (BC-10: the Field is cleared)")
    return State(settings, turn, seats, pieces, next_number, ended)


def _load_seats(value: JSON) -> tuple[Seat, ...]:
    if not isinstance(value, dict) or not MIN_SEATS <= len(value) <= MAX_SEATS:
        raise InvalidStateError(
            f"'seats' must be an object of {MIN_SEATS} to {MAX_SEATS} seats, not {value!r}"
        )
    names = tuple(str(n) for n in range(1, len(value) + 1))
    seats = _object(value, "'seats'", names)
    return tuple(_load_seat(int(name), seats[name]) for name in names)


def _load_seat(number: int, value: JSON) -> Seat:
    fields = _object(value, f"seat {number}", ("macks", "out"))
    macks = _integer(fields["macks"], f"seat {number} 'macks'", 0, MOST_MACKS)
    if not isinstance(fields["out"], bool):
        raise InvalidStateError(f"seat {number} 'out' must be true or false")
    return Seat(number, macks, fields["out"])


def _load_pieces(value: JSON, seats: int, next_number: int) -> tuple[Piece, ...]:
    if not isinstance(value, list):
        raise InvalidStateError(f"'priority_list' must be a list, not {value!r}")
    pieces = tuple(_load_piece(item, seats, next_number) for item in value)
    numbers = [p.number for p in pieces]
    if len(set(numbers)) != len(numbers):
        raise InvalidStateError(f"two objects of the Priority List share a number: {numbers}")
    if len({p.square for p in pieces}) != len(pieces):
        raise InvalidStateError("two objects of the Priority List share a square")
    kings = [p.owner for p in pieces if p.kind is Kind.KING]
    if len(set(kings)) != len(kings):
        raise InvalidStateError("a seat has two Kings (BC-5: one King a seat)")
    return pieces


def _load_piece(item: JSON, seats: int, next_number: int) -> Piece:
    fields = _object(item, "an object of 'priority_list'", ("id", "owner", "square"))
    match = _ID.match(fields["id"]) if isinstance(fields["id"], str) else None
    if match is None:
        raise InvalidStateError(
            f"an object id is a kind letter (K, P, R, N, B, Q) and a number, not {fields['id']!r}"
        )
    number = int(match.group(2))
    where = f"object {fields['id']}"
    if number >= next_number:
        raise InvalidStateError(f"{where}: its number is not below next_number {next_number}")
    owner = _integer(fields["owner"], f"{where} 'owner'", 1, seats)
    return Piece(number, Kind(match.group(1)), owner, _load_square(fields["square"], where))


def _load_square(value: JSON, where: str) -> Square:
    if not isinstance(value, list) or len(value) != 2:
        raise InvalidStateError(f"{where} 'square' must be [row, col], not {value!r}")
    row = _integer(value[0], f"{where} row", 0, SIZE - 1)
    col = _integer(value[1], f"{where} col", 0, SIZE - 1)
    return (row, col)


def _load_ended(value: JSON, turn: int, seats: int) -> Ending | None:
    if value is None:
        return None
    fields: Mapping[str, JSON] = _object(value, "'ended'", ("turn", "winner"))
    when = _integer(fields["turn"], "'ended' turn", 0, turn)
    winner = fields["winner"]
    if winner is not None:
        winner = _integer(winner, "'ended' winner", 1, seats)
    return Ending(when, winner)
