"""The state of a DRTS Team 23 match as frozen values.

The state holds no secret information: the orders of an open movement live
outside it (in the Table and the Match aggregate) until the movement
resolves. Pieces are kept in a fixed order, three per seat in seat order,
Water, Fire, Plant (`piece_index`).

The state JSON (`dump_state` / `load_state`, documented in
docs/games/drts_team23.md):

    {"config": {...the match config...},
     "movement": 7,
     "team_scores": {"green": 3, "yellow": 1, "blue": 0},
     "seats": {"1": {"team": "green", "score": 2, "forfeited": false,
                     "items": {"stars": 4, "deathstars": 2, "blackholes": 1},
                     "pieces": {"water": 14, "fire": 2},
                     "out": {"plant": 9}},
               ... seats "2" to "8" ...},
     "board_items": []}

`pieces` gives the square of each piece on the board, `out` the first
movement from which each piece off the board may be recovered; each kind is
in exactly one of them. `board_items` is reserved for DeathStars and
Blackholes and is always empty in this version. `load_state(dump_state(s))
== s`; anything else that is not a valid state raises InvalidStateError.

Speed (bench/drts_team23.md): the step builders write an enum's value as `str(kind)`, the
same string as `kind.value` for these StrEnums but without Enum's slower `.value` lookup;
the steps copy values with the `with_*` methods and `State.changed`, which call the
constructor directly instead of `dataclasses.replace` (several times slower).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache

from domain.errors import InvalidStateError
from domain.rules.contract import JSON, ConfigField, load_config
from domain.rules.drts_team23.board import SQUARE_COUNT
from domain.rules.drts_team23.config import CONFIG_FIELDS, GameSettings, check_config
from domain.rules.statejson import json_integer as _integer
from domain.rules.statejson import json_object as _object

SEATS = 8
TEAM_CAPACITY = 3  # DRTS-19
PENALTY_MOVEMENTS = 2  # DRTS-18: out for the next 2 movements after the capture

Squares = Mapping[int, Sequence[int]]  # occupancy: square -> piece indices, read only


class Kind(StrEnum):
    """The three kinds of piece every seat owns (DRTS-7 says which beats which)."""

    WATER = "water"
    FIRE = "fire"
    PLANT = "plant"


KINDS = (Kind.WATER, Kind.FIRE, Kind.PLANT)
_KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}


class Team(StrEnum):
    """The three teams (DRTS-19): green is team 1, yellow 2, blue 3."""

    GREEN = "green"
    YELLOW = "yellow"
    BLUE = "blue"


TEAMS = (Team.GREEN, Team.YELLOW, Team.BLUE)
TEAM_NUMBER = {team: i + 1 for i, team in enumerate(TEAMS)}


@dataclass(frozen=True)
class Piece:
    """One piece: on a square, or out (captured, or not yet entered) until a recovery."""

    seat: int
    kind: Kind
    square: int | None
    recover_from: int = 0  # while out: the first movement a recovery may bring it back
    star_until: int = 0  # v2 (DRTS-16): the last movement of its Star status (0: none)
    generator: int | None = None  # v2 (DRTS-15): a Generator's counter (None: not one)

    @property
    def is_out(self) -> bool:
        """Returns whether the piece is off the board."""
        return self.square is None

    def is_star(self, movement: int) -> bool:
        """Returns whether the piece has Star status in `movement` (DRTS-16; never in v1)."""
        return self.square is not None and self.star_until >= movement

    @property
    def is_generator(self) -> bool:
        """Returns whether the piece is a Generator (DRTS-15; never in v1)."""
        return self.generator is not None

    @property
    def label(self) -> str:
        """Returns the piece's name in step texts and reasons, e.g. "Fire of seat 3"."""
        return piece_label(self.seat, self.kind)

    def with_star(self, star_until: int) -> Piece:
        """Returns the piece with its Star status through `star_until` (0: none)."""
        return Piece(
            self.seat, self.kind, self.square, self.recover_from, star_until, self.generator
        )

    def with_generator(self, counter: int, star_until: int) -> Piece:
        """Returns the piece as a Generator counting `counter`, its Star status `star_until`."""
        return Piece(self.seat, self.kind, self.square, self.recover_from, star_until, counter)


@lru_cache(maxsize=64)  # 24 names (8 seats, 3 kinds); a resolution writes some thirty
def piece_label(seat: int, kind: Kind) -> str:
    """Returns the name of seat's piece of `kind`, e.g. "Fire of seat 3" (`Piece.label`)."""
    return f"{kind.value.capitalize()} of seat {seat}"


class Item(StrEnum):
    """What an operation invokes (DRTS-4): the items of the stock (DRTS-21) and the
    conversion into a Generator (DRTS-15, no stock)."""

    STAR = "star"
    DEATHSTAR = "deathstar"
    BLACKHOLE = "blackhole"
    GENERATOR = "generator"


class MeetingKind(StrEnum):
    """The two meetings of DRTS-17."""

    PLAYERS = "players"  # pieces of 3 different seats of one team
    KINDS = "kinds"  # a Water, a Fire and a Plant, of any owners


@dataclass(frozen=True)
class Meeting:
    """A running meeting (v2, DRTS-17): where, of which team (players meetings only), and
    its counter (the movements it has held in a row)."""

    kind: MeetingKind
    square: int
    counter: int
    team: Team | None = None

    @property
    def key(self) -> tuple[int, str, str]:
        """Returns what identifies the meeting from one movement to the next, and orders it."""
        return (self.square, self.kind.value, self.team.value if self.team else "")

    def with_counter(self, counter: int) -> Meeting:
        """Returns the meeting with `counter`, the rest unchanged."""
        return Meeting(self.kind, self.square, counter, self.team)


@dataclass(frozen=True)
class BoardItem:
    """A DeathStar or Blackhole standing on a square (v2, DRTS-11, DRTS-13): its owner seat,
    and for a DeathStar the corner it points at."""

    item: Item
    square: int
    seat: int
    corner: int | None = None


@dataclass(frozen=True)
class Stock:
    """A seat's items not yet used (DRTS-21); v1 keeps it untouched, v2 consumes it."""

    stars: int = 4
    deathstars: int = 2
    blackholes: int = 1

    def with_stars(self, stars: int) -> Stock:
        """Returns the stock with `stars` Stars, the rest unchanged."""
        return Stock(stars, self.deathstars, self.blackholes)


@dataclass(frozen=True)
class Seat:
    """One seat: its team (None while teamless), score, item stock and whether it forfeited."""

    number: int
    team: Team | None = None
    score: int = 0
    stock: Stock = Stock()
    forfeited: bool = False

    @property
    def side(self) -> int:
        """Returns the seat's side in battle: its team number, or -seat while teamless (DRTS-9)."""
        return TEAM_NUMBER[self.team] if self.team is not None else -self.number

    def with_score(self, score: int) -> Seat:
        """Returns the seat with `score`, the rest unchanged."""
        return Seat(self.number, self.team, score, self.stock, self.forfeited)

    def with_team(self, team: Team | None) -> Seat:
        """Returns the seat in `team` (None: teamless), the rest unchanged."""
        return Seat(self.number, team, self.score, self.stock, self.forfeited)

    def with_stock(self, stock: Stock) -> Seat:
        """Returns the seat with `stock`, the rest unchanged."""
        return Seat(self.number, self.team, self.score, stock, self.forfeited)


@dataclass(frozen=True)
class State:
    """A match between movements: `movement` is the one open now (last resolved + 1)."""

    settings: GameSettings
    movement: int
    seats: tuple[Seat, ...]
    pieces: tuple[Piece, ...]
    team_scores: tuple[int, int, int] = (0, 0, 0)  # green, yellow, blue
    board_items: tuple[BoardItem, ...] = ()  # v2: DeathStars and Blackholes, by square
    meetings: tuple[Meeting, ...] = ()  # v2: running meetings (DRTS-17), by `Meeting.key`

    def seat(self, number: int) -> Seat:
        """Returns seat `number` (1..8)."""
        return self.seats[number - 1]

    def piece(self, seat: int, kind: Kind) -> Piece:
        """Returns the piece of `kind` owned by `seat`."""
        return self.pieces[piece_index(seat, kind)]

    def team_score(self, team: Team) -> int:
        """Returns the points of a team."""
        return self.team_scores[TEAM_NUMBER[team] - 1]

    def members(self, team: Team) -> tuple[int, ...]:
        """Returns the seats of a team, in seat order."""
        return tuple(s.number for s in self.seats if s.team is team)

    @cached_property
    def sides(self) -> tuple[int, ...]:
        """Returns each seat's side in battle (`Seat.side`), by seat number - 1; computed once
        per state, as the checks and steps of a resolution ask for it again and again."""
        return tuple(seat.side for seat in self.seats)

    @cached_property
    def squares(self) -> Squares:
        """Returns `occupancy(self.pieces)`, computed once per state (a resolution reads it
        at several steps, often of the same state); callers must not change it."""
        return occupancy(self.pieces)

    def changed(
        self,
        *,
        movement: int | None = None,
        seats: tuple[Seat, ...] | None = None,
        pieces: tuple[Piece, ...] | None = None,
        team_scores: tuple[int, int, int] | None = None,
        board_items: tuple[BoardItem, ...] | None = None,
        meetings: tuple[Meeting, ...] | None = None,
        same_squares: bool = False,
    ) -> State:
        """Returns the state with the fields given (None: unchanged), as `dataclasses.replace`
        does; `sides` and `squares`, when computed, carry over if seats or pieces stay, or
        `squares` if `same_squares` says the new pieces stand where the old ones did (only
        a Star status or a Generator counter changed)."""
        state = State(
            self.settings,
            self.movement if movement is None else movement,
            self.seats if seats is None else seats,
            self.pieces if pieces is None else pieces,
            self.team_scores if team_scores is None else team_scores,
            self.board_items if board_items is None else board_items,
            self.meetings if meetings is None else meetings,
        )
        cache = self.__dict__  # where cached_property keeps its values
        if seats is None and "sides" in cache:
            state.__dict__["sides"] = cache["sides"]
        if (pieces is None or same_squares) and "squares" in cache:
            state.__dict__["squares"] = cache["squares"]
        return state

    @property
    def last_resolved(self) -> int:
        """Returns the number of the last resolved movement (0 before the first)."""
        return self.movement - 1


def piece_index(seat: int, kind: Kind) -> int:
    """Returns the position of seat's piece of `kind` in `State.pieces`."""
    return (seat - 1) * len(KINDS) + _KIND_INDEX[kind]


def recovery_blocked(state: State, seat: int) -> frozenset[int]:
    """Returns the squares where `seat` may not recover (DRTS-18): those holding an own or
    ally DeathStar or Generator (the same side) or any Blackhole; none in v1, which has no
    items."""
    sides = state.sides
    side = sides[seat - 1]
    items = {
        item.square
        for item in state.board_items
        if item.item is Item.BLACKHOLE or sides[item.seat - 1] == side
    }
    generators = {
        p.square
        for p in state.pieces
        if p.generator is not None and p.square is not None and sides[p.seat - 1] == side
    }
    return frozenset(items | generators)


def occupancy(pieces: tuple[Piece, ...]) -> dict[int, list[int]]:
    """Returns, per occupied square, the indices of the pieces on it, in index order."""
    squares: dict[int, list[int]] = {}
    for index, piece in enumerate(pieces):
        square = piece.square
        if square is None:
            continue
        if square in squares:  # rather than setdefault, which makes a list every time
            squares[square].append(index)
        else:
            squares[square] = [index]
    return squares


TOP_KEYS = ("config", "movement", "team_scores", "seats", "board_items")
SEAT_KEYS = ("team", "score", "forfeited", "items", "pieces", "out")
_STOCK_KEYS = ("stars", "deathstars", "blackholes")
_BIG = 10**9  # a bound for scores and counters, only against absurd input


def dump_state(state: State) -> JSON:
    """Returns the documented JSON form of a state."""
    return {
        "config": state.settings.to_json(),
        "movement": state.movement,
        "team_scores": {team.value: state.team_score(team) for team in TEAMS},
        "seats": {str(seat.number): _dump_seat(state, seat) for seat in state.seats},
        "board_items": [],
    }


def _dump_seat(state: State, seat: Seat) -> JSON:
    pieces = [state.piece(seat.number, kind) for kind in KINDS]
    return {
        "team": seat.team.value if seat.team is not None else None,
        "score": seat.score,
        "forfeited": seat.forfeited,
        "items": {
            "stars": seat.stock.stars,
            "deathstars": seat.stock.deathstars,
            "blackholes": seat.stock.blackholes,
        },
        "pieces": {p.kind.value: p.square for p in pieces if p.square is not None},
        "out": {p.kind.value: p.recover_from for p in pieces if p.square is None},
    }


def load_state(data: JSON) -> State:
    """Returns the state a dumped JSON form describes; raises InvalidStateError naming the fault."""
    top = _object(data, "the state", TOP_KEYS)
    if top["board_items"] != []:
        raise InvalidStateError(
            "board items (DeathStars, Blackholes) are not supported by drts_team23 v1: "
            f"'board_items' must be [], not {top['board_items']!r}"
        )
    return load_state_fields(top, CONFIG_FIELDS)


def load_state_fields(
    top: Mapping[str, JSON],
    config_fields: tuple[ConfigField, ...],
    seat_keys: tuple[str, ...] = SEAT_KEYS,
) -> State:
    """Returns the state of a state JSON's top-level object, board items aside (each version
    reads those); `seat_keys` are the keys every seat must have (v2 adds its own)."""
    settings = GameSettings.of(load_config(config_fields, top["config"], check_config))
    movement = _integer(top["movement"], "'movement'", 1, settings.max_movements + 1)
    scores = _object(top["team_scores"], "'team_scores'", tuple(t.value for t in TEAMS))
    team_scores = tuple(
        _integer(scores[t.value], f"team score {t.value}", -_BIG, _BIG) for t in TEAMS
    )
    seats_data = _object(top["seats"], "'seats'", tuple(str(n) for n in range(1, SEATS + 1)))
    seats: list[Seat] = []
    pieces: list[Piece] = []
    for number in range(1, SEATS + 1):
        seat, seat_pieces = _load_seat(number, seats_data[str(number)], seat_keys)
        seats.append(seat)
        pieces.extend(seat_pieces)
    _check_capacity(seats)
    green, yellow, blue = team_scores
    return State(settings, movement, tuple(seats), tuple(pieces), (green, yellow, blue))


def _load_seat(number: int, data: JSON, keys: tuple[str, ...]) -> tuple[Seat, list[Piece]]:
    where = f"seat {number}"
    fields = _object(data, where, keys)
    team = _team(fields["team"], f"{where} team")
    forfeited = fields["forfeited"]
    if not isinstance(forfeited, bool):
        raise InvalidStateError(f"{where} 'forfeited' must be true or false, not {forfeited!r}")
    items = _object(fields["items"], f"{where} items", _STOCK_KEYS)
    stock = Stock(*(_integer(items[key], f"{where} {key}", 0, _BIG) for key in _STOCK_KEYS))
    score = _integer(fields["score"], f"{where} score", -_BIG, _BIG)
    seat = Seat(number, team, score, stock, forfeited)
    return seat, _load_pieces(number, fields["pieces"], fields["out"])


def _load_pieces(number: int, on_board: JSON, out: JSON) -> list[Piece]:
    where = f"seat {number}"
    if not isinstance(on_board, dict) or not isinstance(out, dict):
        raise InvalidStateError(f"{where} 'pieces' and 'out' must be objects")
    names = sorted([*on_board, *out])
    if names != sorted(kind.value for kind in KINDS):
        raise InvalidStateError(
            f"{where} must list water, fire and plant once each in 'pieces' or 'out', not {names!r}"
        )
    pieces = []
    for kind in KINDS:
        if kind.value in on_board:
            square = _integer(on_board[kind.value], f"{where} {kind.value}", 1, SQUARE_COUNT)
            pieces.append(Piece(number, kind, square))
        else:
            back = _integer(out[kind.value], f"{where} {kind.value} out", 1, _BIG)
            pieces.append(Piece(number, kind, None, back))
    return pieces


def _check_capacity(seats: list[Seat]) -> None:
    for team in TEAMS:
        members = [seat.number for seat in seats if seat.team is team]
        if len(members) > TEAM_CAPACITY:
            raise InvalidStateError(
                f"team {team.value} has {len(members)} members {members}, "
                f"more than {TEAM_CAPACITY} (DRTS-19)"
            )


def _team(value: JSON, where: str) -> Team | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in {team.value for team in TEAMS}:
        raise InvalidStateError(f"{where} must be green, yellow, blue or null, not {value!r}")
    return Team(value)
