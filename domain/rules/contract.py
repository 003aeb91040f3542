"""The ruleset contract (DESIGN.md, "The ruleset contract").

A ruleset is one `Ruleset` value: metadata (`RulesetInfo`) and pure functions
over frozen values. Seats are numbered 1..N in join order. Everything a
ruleset returns that leaves the domain is JSON-native (`JSON`).

The functions, in contract order:

- `validate_config(config) -> config`: fills defaults, raises InvalidConfigError;
- `initial_state(config, seats, rng)`: the state before the first movement;
- `add_seat(state, seat, rng)`: only where a game lets a seat join later;
- `to_move(state) -> ToMove`: who owes orders now and the movement's policy;
- `parse_order(text_or_json)` / `format_order(order)` / `dump_order(order)`:
  the order syntax (InvalidOrderError on bad syntax);
- `check_order(state, seat, order)`: raises IllegalOrderError with the reason;
- `resolve(state, orders, rng) -> (state, steps)`: `orders` lists
  (seat, order) in arrival order; seats missing from it were silent;
- `forfeit(state, seat) -> (state, steps)`: a seat is out (third strike,
  elimination, loss); the other seats go on or win, as the game says;
- `outcome(state) -> Outcome`; `view(state, seat)`; `dump_state` / `load_state`;
- `random_order(state, seat, rng)`: one legal order, for playouts, bots and
  benchmarks.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

from domain.errors import InvalidOrderError
from domain.rules.rng import Rng

JSON = Any  # a JSON-native value: None, bool, int, float, str, list, dict with str keys
Config = dict[str, JSON]

StateT = TypeVar("StateT")
OrderT = TypeVar("OrderT")


class Dynamics(StrEnum):
    """How a game's movements open: one for all seats, or one for the seat to move."""

    SIMULTANEOUS = "simultaneous"
    SEQUENTIAL = "sequential"


class Silence(StrEnum):
    """What happens to a seat that owes orders when the deadline passes."""

    HOLD = "hold"  # the movement resolves without its orders (its pieces hold)
    PASS = "pass"  # the movement resolves and the game applies its default
    STRIKE = "strike"  # a strike and `extension_seconds` more; `max_strikes` forfeits
    ELIMINATION = "elimination"  # the seat is forfeited, then the movement resolves
    LOSS = "loss"  # the seat is forfeited (loses the match)


class Result(StrEnum):
    """Where a match stands."""

    ONGOING = "ongoing"
    WIN = "win"
    DRAW = "draw"
    NO_WINNER = "no_winner"


@dataclass(frozen=True)
class ConfigField:
    """One documented config option of a ruleset, with its default."""

    name: str
    default: JSON
    description: str


@dataclass(frozen=True)
class RulesetInfo:
    """A ruleset's metadata, declared as data at the top of its module."""

    name: str
    version: int
    title: str
    min_seats: int
    max_seats: int
    dynamics: Dynamics
    config_fields: tuple[ConfigField, ...] = ()
    accumulates_orders: bool = False  # B-Chess: several orders a movement, in arrival order

    def defaults(self) -> Config:
        """Returns the default config (a fresh copy: callers may change it)."""
        return copy.deepcopy({f.name: f.default for f in self.config_fields})


@dataclass(frozen=True)
class MovementPolicy:
    """The clock of one movement: its length, early close and what silence means."""

    deadline_seconds: int
    silence: Silence
    close_early: bool = False
    extension_seconds: int = 0
    max_strikes: int = 0  # with Silence.STRIKE: the strike that forfeits (0 = never)


@dataclass(frozen=True)
class ToMove:
    """The seats that owe orders now, and the policy of the movement they owe them for."""

    seats: tuple[int, ...]
    policy: MovementPolicy


@dataclass(frozen=True)
class Step:
    """One explained effect of a resolution, naming the rule or ruling applied."""

    rule: str
    text: str
    data: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> JSON:
        """Returns the step as a JSON object."""
        return {"rule": self.rule, "text": self.text, "data": dict(self.data)}

    @classmethod
    def from_json(cls, data: JSON) -> Step:
        """Returns the step a `to_json` object describes."""
        return cls(rule=data["rule"], text=data["text"], data=dict(data.get("data", {})))


@dataclass(frozen=True)
class Outcome:
    """Scores and standing of a match; `winners` are seats, several when they share a win."""

    result: Result
    scores: Mapping[int, int]
    ranking: tuple[int, ...]
    winners: tuple[int, ...] = ()
    team_scores: Mapping[str, int] = field(default_factory=dict)
    winning_teams: tuple[str, ...] = ()
    reason: str = ""
    replay: bool = False  # drawn, to be replayed as a new match with the same seats (DW-5)

    @property
    def finished(self) -> bool:
        """Returns whether the match is over."""
        return self.result is not Result.ONGOING

    def to_json(self) -> JSON:
        """Returns the outcome as a JSON object (seat keys as strings)."""
        return {
            "result": self.result.value,
            "finished": self.finished,
            "scores": {str(seat): points for seat, points in sorted(self.scores.items())},
            "ranking": list(self.ranking),
            "winners": list(self.winners),
            "team_scores": dict(self.team_scores),
            "winning_teams": list(self.winning_teams),
            "reason": self.reason,
            "replay": self.replay,
        }


Steps = tuple[Step, ...]


@dataclass(frozen=True)
class Ruleset(Generic[StateT, OrderT]):
    """A named, versioned game definition: metadata and pure functions (module docstring)."""

    info: RulesetInfo
    validate_config: Callable[[Mapping[str, JSON]], Config]
    initial_state: Callable[[Config, int, Rng], StateT]
    to_move: Callable[[StateT], ToMove]
    parse_order: Callable[[str | Mapping[str, JSON]], OrderT]
    format_order: Callable[[OrderT], str]
    dump_order: Callable[[OrderT], JSON]
    check_order: Callable[[StateT, int, OrderT], None]
    resolve: Callable[[StateT, Sequence[tuple[int, OrderT]], Rng], tuple[StateT, Steps]]
    forfeit: Callable[[StateT, int], tuple[StateT, Steps]]
    outcome: Callable[[StateT], Outcome]
    view: Callable[[StateT, int | None], JSON]
    dump_state: Callable[[StateT], JSON]
    load_state: Callable[[JSON], StateT]
    random_order: Callable[[StateT, int, Rng], OrderT]
    add_seat: Callable[[StateT, int, Rng], StateT] | None = None

    @property
    def name(self) -> str:
        """Returns the registry name."""
        return self.info.name


def json_order_object(text: str) -> Mapping[str, JSON]:
    """Returns the JSON object an order text holds; raises InvalidOrderError naming the fault."""
    try:
        value = json.loads(text)
    except ValueError as error:
        raise InvalidOrderError(
            f"order is not valid JSON ({error}): {text.strip()[:80]!r}"
        ) from None
    except RecursionError:  # nested deeper than the parser goes
        raise InvalidOrderError(f"order JSON nests too deep: {text.strip()[:80]!r}") from None
    if not isinstance(value, dict):
        raise InvalidOrderError(f"a JSON order is an object, got {text.strip()!r}")
    return value


def canonical_json(value: JSON) -> bytes:
    """Returns the canonical JSON bytes of a value: UTF-8, sorted keys, no extra spaces."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode()


def state_hash(dumped_state: JSON) -> str:
    """Returns the SHA-256 hex digest of a dumped state's canonical JSON."""
    return hashlib.sha256(canonical_json(dumped_state)).hexdigest()


def latest_order_per_seat(
    orders: Sequence[tuple[int, OrderT]],
) -> list[tuple[int, OrderT]]:
    """Returns the orders with a later one from a seat replacing its earlier one.

    The survivors keep the arrival position of their last submission.
    """
    last_index = {seat: i for i, (seat, _) in enumerate(orders)}
    return [(seat, order) for i, (seat, order) in enumerate(orders) if last_index[seat] == i]
