"""The state of a DRTS Team 23 match as frozen values.

The state holds no secret information: the orders of an open movement live
outside it (in the Table and the Match aggregate) until the movement
resolves. Pieces are kept in a fixed order, three per seat in seat order,
Water, Fire, Plant (`piece_index`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.rules.drts_team23.config import Settings

SEATS = 8
TEAM_CAPACITY = 3  # DRTS-19
PENALTY_MOVEMENTS = 2  # DRTS-18: out for the next 2 movements after the capture


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

    @property
    def is_out(self) -> bool:
        """Returns whether the piece is off the board."""
        return self.square is None

    @property
    def label(self) -> str:
        """Returns the piece's name in step texts and reasons, e.g. "Fire of seat 3"."""
        return f"{self.kind.value.capitalize()} of seat {self.seat}"


@dataclass(frozen=True)
class Stock:
    """A seat's items not yet used (DRTS-21); no operation of this version uses them."""

    stars: int = 4
    deathstars: int = 2
    blackholes: int = 1


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


@dataclass(frozen=True)
class State:
    """A match between movements: `movement` is the one open now (last resolved + 1)."""

    settings: Settings
    movement: int
    seats: tuple[Seat, ...]
    pieces: tuple[Piece, ...]
    team_scores: tuple[int, int, int] = (0, 0, 0)  # green, yellow, blue

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

    @property
    def last_resolved(self) -> int:
        """Returns the number of the last resolved movement (0 before the first)."""
        return self.movement - 1


def piece_index(seat: int, kind: Kind) -> int:
    """Returns the position of seat's piece of `kind` in `State.pieces`."""
    return (seat - 1) * len(KINDS) + _KIND_INDEX[kind]


def occupancy(pieces: tuple[Piece, ...]) -> dict[int, list[int]]:
    """Returns, per occupied square, the indices of the pieces on it, in index order."""
    squares: dict[int, list[int]] = {}
    for index, piece in enumerate(pieces):
        if piece.square is not None:
            squares.setdefault(piece.square, []).append(index)
    return squares
