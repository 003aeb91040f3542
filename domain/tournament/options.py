"""What Created records beside the ruleset: the tie-break order, the matches' config, and
a tournament format's options, checked against its ruleset's seat counts and recorded
in full in Created (so a pairing is re-derived from the event alone):

- every format: `seats`, `[low, high]` players a table takes; the two-player formats
  (round robin, Swiss, elimination) take `[2, 2]` and need a game that seats two;
- round robin: `legs`, 1 or 2 (the second leg swaps every table's seats);
- elimination: `max_replays`, 0 to 3, how often a drawn match is played again before
  the higher seed advances;
- tables: `seats` given as one number or `[low, high]` within the game's seat counts
  (DRTS Team 23 always 8; Shades and B-Chess 2 to 8), the game's own by default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.errors import InvalidConfigError
from domain.rules.contract import RulesetInfo
from domain.rules.registry import get_ruleset
from domain.tournament.base import DEFAULT_TIE_BREAKS, MAX_REPLAYS, TIE_BREAKS
from domain.tournament.errors import InvalidTournamentError

_ALLOWED = {
    "round_robin": {"legs"},
    "swiss": set(),
    "elimination": {"max_replays"},
    "tables": {"seats"},
}


def format_options(format: str, info: RulesetInfo, options: Mapping[str, Any]) -> dict[str, Any]:
    """Returns the format's options in full, defaults filled in. Raises
    InvalidTournamentError for an unknown option or a value out of bounds, or a two-player
    format under a game that does not seat two."""
    unknown = set(options) - _ALLOWED[format]
    if unknown:
        raise InvalidTournamentError(
            f"the {format} format takes no option {', '.join(sorted(unknown))}"
        )
    if format == "tables":
        return {"seats": _table_seats(info, options.get("seats"))}
    if not info.min_seats <= 2 <= info.max_seats:
        raise InvalidTournamentError(
            f"the {format} format pairs two players, and {info.name} seats "
            f"{info.min_seats} to {info.max_seats}: use the tables format"
        )
    chosen: dict[str, Any] = {"seats": [2, 2]}
    if format == "round_robin":
        chosen["legs"] = _bounded("legs", options.get("legs", 1), 1, 2)
    if format == "elimination":
        chosen["max_replays"] = _bounded(
            "max_replays", options.get("max_replays", MAX_REPLAYS), 0, MAX_REPLAYS
        )
    return chosen


def _table_seats(info: RulesetInfo, seats: Any) -> list[int]:
    """Returns `[low, high]` players a table takes, within the game's seat counts."""
    if seats is None:
        return [info.min_seats, info.max_seats]
    low, high = (seats, seats) if isinstance(seats, int) else _pair(seats)
    if not info.min_seats <= low <= high <= info.max_seats:
        raise InvalidTournamentError(
            f"tables of {low} to {high} seats: {info.name} seats "
            f"{info.min_seats} to {info.max_seats}"
        )
    return [low, high]


def _pair(seats: Any) -> tuple[int, int]:
    if (
        not isinstance(seats, list | tuple)
        or len(seats) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in seats)
    ):
        raise InvalidTournamentError(f"seats must be a number or [low, high], got {seats!r}")
    return seats[0], seats[1]


def _bounded(name: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidTournamentError(f"{name} must be {low} to {high}, got {value!r}")
    return value


def configured(
    name: str, version: int | None, config: Mapping[str, Any], preset: str | None
) -> Any:
    """Returns the ruleset's config for the tournament's matches, from `preset` and
    `config`. Raises InvalidConfigError."""
    try:
        return get_ruleset(name, version).configure(dict(config), preset)
    except InvalidConfigError:
        raise
    except (TypeError, ValueError) as error:
        raise InvalidConfigError(f"config for {name}: {error}") from None


def tie_break_order(format: str, order: Sequence[str] | None) -> list[str]:
    """Returns the tie-break order: the format's default for None. Raises
    InvalidTournamentError for an unknown or repeated tie-break, or an order that does not
    start with points and end with the draw from the seed (a standing is total)."""
    chosen = list(DEFAULT_TIE_BREAKS[format] if order is None else order)
    for name in chosen:
        if name not in TIE_BREAKS:
            raise InvalidTournamentError(
                f"unknown tie-break {name!r}: one of {', '.join(sorted(TIE_BREAKS))}"
            )
    if len(set(chosen)) != len(chosen):
        raise InvalidTournamentError(f"the tie-break order {chosen} repeats a tie-break")
    if len(chosen) < 2 or chosen[0] != "points" or chosen[-1] != "draw":
        raise InvalidTournamentError(
            f"the tie-break order {chosen} must start with 'points' and end with 'draw'"
        )
    return chosen
