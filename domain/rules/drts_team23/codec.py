"""The state JSON of DRTS Team 23 (documented in docs/games/drts_team23.md).

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
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.errors import InvalidConfigError, InvalidStateError
from domain.rules.contract import JSON
from domain.rules.drts_team23.board import SQUARE_COUNT
from domain.rules.drts_team23.config import Settings, settings_from
from domain.rules.drts_team23.state import (
    KINDS,
    SEATS,
    TEAM_CAPACITY,
    TEAMS,
    Piece,
    Seat,
    State,
    Stock,
    Team,
)

_TOP_KEYS = ("config", "movement", "team_scores", "seats", "board_items")
_SEAT_KEYS = ("team", "score", "forfeited", "items", "pieces", "out")
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
    top = _object(data, "the state", _TOP_KEYS)
    settings = _settings(top["config"])
    if top["board_items"] != []:
        raise InvalidStateError(
            "board items (DeathStars, Blackholes) are not supported by drts_team23 v1: "
            f"'board_items' must be [], not {top['board_items']!r}"
        )
    movement = _integer(top["movement"], "'movement'", 1, settings.max_movements + 1)
    scores = _object(top["team_scores"], "'team_scores'", tuple(t.value for t in TEAMS))
    team_scores = tuple(
        _integer(scores[t.value], f"team score {t.value}", -_BIG, _BIG) for t in TEAMS
    )
    seats_data = _object(top["seats"], "'seats'", tuple(str(n) for n in range(1, SEATS + 1)))
    seats: list[Seat] = []
    pieces: list[Piece] = []
    for number in range(1, SEATS + 1):
        seat, seat_pieces = _load_seat(number, seats_data[str(number)])
        seats.append(seat)
        pieces.extend(seat_pieces)
    _check_capacity(seats)
    green, yellow, blue = team_scores
    return State(settings, movement, tuple(seats), tuple(pieces), (green, yellow, blue))


def _settings(config: JSON) -> Settings:
    if not isinstance(config, dict):
        raise InvalidStateError(f"'config' must be an object, not {config!r}")
    try:
        return settings_from(config)
    except InvalidConfigError as error:
        raise InvalidStateError(f"bad 'config' in the state: {error}") from None


def _load_seat(number: int, data: JSON) -> tuple[Seat, list[Piece]]:
    where = f"seat {number}"
    fields = _object(data, where, _SEAT_KEYS)
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


def _object(value: JSON, where: str, keys: tuple[str, ...]) -> Mapping[str, JSON]:
    if not isinstance(value, dict):
        raise InvalidStateError(f"{where} must be a JSON object, not {value!r}")
    if set(value) != set(keys):
        missing, extra = sorted(set(keys) - set(value)), sorted(set(value) - set(keys))
        raise InvalidStateError(f"{where}: missing keys {missing}, unknown keys {extra}")
    return value


def _integer(value: JSON, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidStateError(f"{where} must be an integer in {low}..{high}, not {value!r}")
    return value


def _team(value: JSON, where: str) -> Team | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in {team.value for team in TEAMS}:
        raise InvalidStateError(f"{where} must be green, yellow, blue or null, not {value!r}")
    return Team(value)
