"""The state of a Shades match as frozen values, and its JSON form.

The state holds no secret: the orders of the open turn live outside it (in
the Table and the Match aggregate) until the turn resolves. Shades, tombs and
humans are kept by id, ids counting from 1 in creation order (the protocol's
ids). Every tomb assigned at the start stays in `tombs`, a razed one with the
turn it fell (it plays as plain ground from then on); tomb i and the shade i
that stood on it at the start share their id (SH-2).

Scores are exact fractions (the normalised scoring of SH-6 divides); the JSON
gives an integer where the score is whole, else a string "p/q".

The state JSON (`dump_state` / `load_state`, documented in docs/games/shades.md):

    {"config": {"map": [...rows...], "turns": 300, "turn_seconds": 5,
                "razing": "every", "scoring": "points",
                "elimination_bonus": "end_of_turn", "contested_human": "escapes"},
     "turn": 12, "human_cap": 9, "next_shade": 31, "next_human": 17,
     "seats": {"1": {"stored": 2, "score": 3, "eliminated": null},
               "2": {"stored": 0, "score": 1, "eliminated": {"turn": 9, "reason": "no_shades"}}},
     "tombs": [{"id": 1, "owner": 1, "x": 0, "y": 0, "razed": null}, ...],
     "shades": [{"id": 1, "owner": 1, "x": 0, "y": 1}, ...],
     "humans": [{"id": 16, "x": 4, "y": 4}, ...]}

The config holds the options of the state's version: version 2's two last
(`load_state`), none of them in version 1 (`load_state_v1`, which refuses them).
`load_state(dump_state(s)) == s`; anything else that is not a valid state
raises InvalidStateError naming the fault.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from domain.errors import InvalidStateError
from domain.rules.contract import JSON, ConfigField, load_config
from domain.rules.shades.board import Board, Square
from domain.rules.shades.config import CONFIG_FIELDS, CONFIG_FIELDS_V2, GameSettings
from domain.rules.statejson import json_integer as _integer
from domain.rules.statejson import json_object as _object

MIN_SEATS, MAX_SEATS = 2, 8


class Reason(StrEnum):
    """Why a seat was eliminated."""

    FORFEIT = "forfeit"  # SH-4: no valid reply by the deadline (or forfeited by the referee)
    NO_SHADES = "no_shades"  # no shade left and none can spawn (rule text, SH-3)


@dataclass(frozen=True)
class Elimination:
    """When (the turn number) and why a seat left the game."""

    turn: int
    reason: Reason


@dataclass(frozen=True)
class Seat:
    """One seat: its stored (converted, not yet spawned) humans, score and elimination."""

    number: int
    stored: int = 0
    score: Fraction = Fraction(0)
    eliminated: Elimination | None = None

    @property
    def alive(self) -> bool:
        """Returns whether the seat is still in the game (owes orders)."""
        return self.eliminated is None


@dataclass(frozen=True)
class Shade:
    """An undead soul of a seat on a square."""

    id: int
    owner: int
    x: int
    y: int

    @property
    def square(self) -> Square:
        """Returns the shade's square (x, y)."""
        return (self.x, self.y)

    @property
    def label(self) -> str:
        """Returns the shade's name in step texts, e.g. "shade 7 of seat 2 on (3, 4)"."""
        return f"shade {self.id} of seat {self.owner} on ({self.x}, {self.y})"


@dataclass(frozen=True)
class Tomb:
    """A tomb assigned to a seat at the start (SH-2); `razed` is the turn it fell, if it did."""

    id: int
    owner: int
    x: int
    y: int
    razed: int | None = None

    @property
    def square(self) -> Square:
        """Returns the tomb's square (x, y)."""
        return (self.x, self.y)

    @property
    def standing(self) -> bool:
        """Returns whether the tomb still stands (not razed)."""
        return self.razed is None


@dataclass(frozen=True)
class Human:
    """A human on a square, waiting to be converted."""

    id: int
    x: int
    y: int

    @property
    def square(self) -> Square:
        """Returns the human's square (x, y)."""
        return (self.x, self.y)


@dataclass(frozen=True)
class State:
    """A match between turns: `turn` is the open turn's number, counting from 0 (the
    protocol's `turn_num`; the match's movement number is turn + 1)."""

    settings: GameSettings
    turn: int
    human_cap: int  # SH-8: drawn once per match
    seats: tuple[Seat, ...]
    tombs: tuple[Tomb, ...]
    shades: tuple[Shade, ...] = ()
    humans: tuple[Human, ...] = ()
    next_shade: int = 1
    next_human: int = 1

    def seat(self, number: int) -> Seat:
        """Returns seat `number` (1..N)."""
        return self.seats[number - 1]

    @property
    def alive(self) -> tuple[int, ...]:
        """Returns the seats still in the game, in seat order."""
        return tuple(seat.number for seat in self.seats if seat.alive)

    @property
    def standing_tombs(self) -> tuple[Tomb, ...]:
        """Returns the tombs not razed, by id."""
        return tuple(tomb for tomb in self.tombs if tomb.razed is None)

    @property
    def tombs_per_seat(self) -> int:
        """Returns how many tombs each seat was assigned (SH-2: floor(tombs / seats))."""
        return len(self.tombs) // len(self.seats)


def dump_score(score: Fraction) -> JSON:
    """Returns a score as JSON: an integer when whole, else the string "p/q"."""
    return score.numerator if score.denominator == 1 else f"{score.numerator}/{score.denominator}"


def dump_state(state: State) -> JSON:
    """Returns the documented JSON form of a state."""
    return {
        "config": state.settings.to_json(),
        "turn": state.turn,
        "human_cap": state.human_cap,
        "next_shade": state.next_shade,
        "next_human": state.next_human,
        "seats": {str(seat.number): _dump_seat(seat) for seat in state.seats},
        "tombs": [
            {"id": t.id, "owner": t.owner, "x": t.x, "y": t.y, "razed": t.razed}
            for t in state.tombs
        ],
        "shades": [{"id": s.id, "owner": s.owner, "x": s.x, "y": s.y} for s in state.shades],
        "humans": [{"id": h.id, "x": h.x, "y": h.y} for h in state.humans],
    }


def _dump_seat(seat: Seat) -> JSON:
    eliminated = seat.eliminated
    return {
        "stored": seat.stored,
        "score": dump_score(seat.score),
        "eliminated": (
            None
            if eliminated is None
            else {"turn": eliminated.turn, "reason": eliminated.reason.value}
        ),
    }


_TOP_KEYS: tuple[str, ...] = ("config", "turn", "human_cap", "next_shade", "next_human")
_TOP_KEYS += ("seats", "tombs", "shades", "humans")
_SEAT_KEYS = ("stored", "score", "eliminated")
_BIG = 10**9  # a bound for counters and ids, only against absurd input
_FRACTION = re.compile(r"^-?[0-9]{1,12}/[1-9][0-9]{0,11}$")


def load_state(data: JSON) -> State:
    """Returns the version 2 state a dumped JSON form describes (a config without version
    2's options takes their defaults); raises InvalidStateError naming the fault."""
    return _load_state(data, CONFIG_FIELDS_V2)


def load_state_v1(data: JSON) -> State:
    """Returns the version 1 state a dumped JSON form describes; raises InvalidStateError
    naming the fault (a config holding version 2's options among them)."""
    return _load_state(data, CONFIG_FIELDS)


def _load_state(data: JSON, fields: Sequence[ConfigField]) -> State:
    top = _object(data, "the state", _TOP_KEYS)
    settings = GameSettings.of(load_config(fields, top["config"]))
    board = settings.board
    turn = _integer(top["turn"], "'turn'", 0, settings.turns)
    seats = _load_seats(top["seats"], turn)
    numbers = range(1, len(seats) + 1)
    next_shade = _integer(top["next_shade"], "'next_shade'", 1, _BIG)
    next_human = _integer(top["next_human"], "'next_human'", 1, _BIG)
    tombs = _load_tombs(top["tombs"], board, numbers, turn)
    shades = tuple(
        Shade(i, _seat_of(item, i, "shade", numbers), *_open_square(item, board, f"shade {i}"))
        for i, item in _items(top["shades"], "shades", ("id", "owner", "x", "y"), next_shade)
    )
    _check_one_shade_a_square(shades)
    humans = tuple(
        Human(i, *_land_square(item, board, f"human {i}"))
        for i, item in _items(top["humans"], "humans", ("id", "x", "y"), next_human)
    )
    cap = _integer(top["human_cap"], "'human_cap'", len(humans), _BIG)
    return State(settings, turn, cap, seats, tombs, shades, humans, next_shade, next_human)


def _load_seats(value: JSON, turn: int) -> tuple[Seat, ...]:
    if not isinstance(value, dict) or not MIN_SEATS <= len(value) <= MAX_SEATS:
        raise InvalidStateError(
            f"'seats' must be an object of {MIN_SEATS} to {MAX_SEATS} seats, not {value!r}"
        )
    names = tuple(str(n) for n in range(1, len(value) + 1))
    seats = _object(value, "'seats'", names)
    return tuple(_load_seat(n, seats[str(n)], turn) for n in range(1, len(names) + 1))


def _load_seat(number: int, value: JSON, turn: int) -> Seat:
    where = f"seat {number}"
    fields = _object(value, where, _SEAT_KEYS)
    stored = _integer(fields["stored"], f"{where} 'stored'", 0, _BIG)
    score = _score(fields["score"], f"{where} 'score'")
    eliminated = fields["eliminated"]
    if eliminated is None:
        return Seat(number, stored, score)
    out = _object(eliminated, f"{where} 'eliminated'", ("turn", "reason"))
    reason = out["reason"]
    if reason not in {r.value for r in Reason}:
        raise InvalidStateError(
            f"{where} elimination reason must be forfeit or no_shades, not {reason!r}"
        )
    when = _integer(out["turn"], f"{where} elimination turn", 0, turn)
    return Seat(number, stored, score, Elimination(when, Reason(reason)))


def _load_tombs(value: JSON, board: Board, seats: range, turn: int) -> tuple[Tomb, ...]:
    tombs = []
    for i, item in _items(value, "tombs", ("id", "owner", "x", "y", "razed"), _BIG):
        owner = _seat_of(item, i, "tomb", seats)
        x, y = _square(item, board, f"tomb {i}")
        if (x, y) not in board.tombs:
            raise InvalidStateError(f"tomb {i} on ({x}, {y}) is not on a tomb square of the map")
        razed = item["razed"]
        if razed is not None:
            _integer(razed, f"tomb {i} 'razed'", 0, turn)
        tombs.append(Tomb(i, owner, x, y, razed))
    if [t.id for t in tombs] != list(range(1, len(tombs) + 1)):
        raise InvalidStateError("tomb ids must be 1, 2, 3, ... in order (SH-2)")
    if len({t.square for t in tombs}) != len(tombs):
        raise InvalidStateError("two tombs share a square")
    owned = [sum(t.owner == seat for t in tombs) for seat in seats]
    if min(owned) < 1 or len(set(owned)) != 1:
        raise InvalidStateError(
            f"every seat is assigned the same number of tombs, at least one (SH-2), not {owned}"
        )
    return tuple(tombs)


def _check_one_shade_a_square(shades: tuple[Shade, ...]) -> None:
    squares: dict[Square, int] = {}
    for shade in shades:
        if shade.square in squares:
            raise InvalidStateError(
                f"shades {squares[shade.square]} and {shade.id} share square {shade.square} "
                "(SH-3: a shared square kills them)"
            )
        squares[shade.square] = shade.id


def _items(
    value: JSON, where: str, keys: tuple[str, ...], next_id: int
) -> list[tuple[int, Mapping[str, JSON]]]:
    if not isinstance(value, list):
        raise InvalidStateError(f"'{where}' must be a list, not {value!r}")
    items = [_object(item, f"an item of '{where}'", keys) for item in value]
    ids = [_integer(item["id"], f"an id in '{where}'", 1, next_id - 1) for item in items]
    if any(a >= b for a, b in itertools.pairwise(ids)):
        raise InvalidStateError(f"the ids in '{where}' must increase, got {ids}")
    return list(zip(ids, items, strict=True))


def _seat_of(item: Mapping[str, JSON], i: int, kind: str, seats: range) -> int:
    return _integer(item["owner"], f"{kind} {i} 'owner'", seats.start, seats.stop - 1)


def _square(item: Mapping[str, JSON], board: Board, where: str) -> Square:
    x = _integer(item["x"], f"{where} 'x'", 0, board.width - 1)
    y = _integer(item["y"], f"{where} 'y'", 0, board.height - 1)
    return (x, y)


def _open_square(item: Mapping[str, JSON], board: Board, where: str) -> Square:
    square = _square(item, board, where)
    if square in board.water:
        raise InvalidStateError(f"{where} stands on water at {square} (SH-1)")
    return square


_land_square = _open_square  # humans, like shades, are on land (SH-8)


def _score(value: JSON, where: str) -> Fraction:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= _BIG:
        return Fraction(value)
    if isinstance(value, str) and _FRACTION.match(value):
        return Fraction(value)
    raise InvalidStateError(f"{where} must be an integer or a fraction 'p/q', not {value!r}")
