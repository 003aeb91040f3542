"""The ruleset contract (DESIGN.md, "The ruleset contract").

A ruleset is one `Ruleset` value: metadata (`RulesetInfo`) and pure functions
over frozen values. Seats are numbered 1..N in join order. Everything a
ruleset returns that leaves the domain is JSON-native (`JSON`).

The functions, in contract order:

- config: `info.config_fields` declare each option's type and bounds or
  choices, `info.presets` named sets of values; ONE validator here
  (`validate_config`) fills defaults and refuses the rest with
  InvalidConfigError; a game needing a cross-field check declares
  `check_config`; `Ruleset.configure(config, preset)` gives a new match's
  config;
- `initial_state(config, seats, rng)`: the state before the first movement;
- `add_seat(state, seat, rng)`: only where a game lets a seat join later (the
  service lets a player join the running match, `SeatAdded`), with
  `add_seat_steps(state, seat) -> steps` explaining its draws (optional);
- `to_move(state) -> ToMove`: who owes orders now and the movement's policy;
- `parse_order(text_or_json)` / `format_order(order)` / `dump_order(order)`:
  the order syntax (InvalidOrderError on bad syntax);
- `check_order(state, seat, order)`: raises IllegalOrderError with the reason;
- `resolve(state, orders, rng) -> (state, steps)`: `orders` lists
  (seat, order) in arrival order, already combined by the game's
  `OrderPolicy` (the Table does it, once for every game); seats missing
  from it were silent;
- `forfeit(state, seat) -> (state, steps)`: a seat is out (third strike,
  elimination, loss); the other seats go on or win, as the game says;
- `outcome(state) -> Outcome`; `view(state, seat)`; `dump_state` / `load_state`;
- `random_order(state, seat, rng)`: one legal order, for playouts, bots and
  benchmarks;
- `legal_orders(state, seat)`: every legal order of a seat now, where the game
  can list them (None: it cannot);
- `setup_steps(state) -> steps`: optional, the steps that explain the random
  draws `initial_state` made (Shades draws its tombs and its human cap); the
  Match records them in its Started event. None: the start draws nothing;
- `legal_commands(state, seat) -> {piece: (command, ...)}`, with
  `order_of_commands(commands) -> order` and `commands_of_order(order) ->
  (command, ...)`: optional, all three or none, for a game whose order is a
  combination of commands, one a piece (Shades, DRTS, B-Chess), so that its
  orders are too many to list: each piece the seat may command now (by a
  JSON-native id) with every command legal for it now, in a fixed order;
  empty for a seat that owes no order;
- `combining(state, seat, standing) -> Combining`: optional, beside
  `legal_commands`, how the listed commands combine into one further order
  now (the pieces at most, the repeats, a stock spent by
  `command_spends(command) -> {resource: n}`), given the seat's `standing`
  orders of the open movement as its order policy combines them
  (`Table.standing_orders`: the merged one under `merge`, every one under
  `accumulate`; a game whose later order replaces the earlier ignores them);
  without it, at most one listed command a piece, of any number of pieces.
  Any combination the rule allows passes `check_order`; where
  `Combining.snapshot` holds (every command judged against one state:
  Shades, DRTS) it also resolves without setting one of its commands aside
  (a step whose data holds a `refused` list). `command_note(state, seat,
  command) -> str`, optional, says why a listed command is legal where a
  rule needs saying (DRTS-6's diagonal cases), "" elsewhere;
- `display(state)`: the plain-text Public Display for mail and forum posts
  (None: the public view as indented JSON);
- `merge_orders(earlier, later) -> order`: only under `OrderPolicy.MERGE`
  (required there), how a seat's later order combines with its earlier one;
- `screen_order(state, seat, earlier, sent) -> Screened`: optional, for a game
  whose message holds several parts (DRTS v2's operations, B-Chess's lines)
  that stand or fall one by one: parses `sent` (text or JSON, as the seat
  sent it) part by part, checks each part on its own against the state and
  the seat's `earlier` orders of the movement (arrival order), and returns the
  parts that stand as one order with the refused parts and their reasons.
  When no part stands it raises InvalidOrderError or IllegalOrderError naming
  every part's reason. Without it a message is one order (`parse_order`,
  then `check_order`), accepted or refused whole;
- `resolve_phases(state, orders, rng) -> (Phase, ...)`: optional, the same
  resolution reported phase by phase (the state after each, and its steps);
  the last phase's state is `resolve`'s, and the steps of all phases in
  order are `resolve`'s steps. Without it a resolution is one phase
  (`Ruleset.phases`); a game that has it derives `resolve` from it
  (`resolution_of`), so that tracing cannot change the result;
- `actions`: the referee's moves inside the game's rules (B-Chess grants
  macks), each a `RefereeAction`: `parse(args)` (InvalidActionError) and
  `apply(state, action) -> (state, steps)` (IllegalActionError). None by
  default.

Seat numbers outside the game raise UnknownSeatError (`check_seat_number`);
a state JSON that does not load raises InvalidStateError (`load_config`
for its config). docs/rulesets.md walks through a ruleset package.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

from domain.errors import (
    InvalidConfigError,
    InvalidOrderError,
    UnknownActionError,
    UnknownSeatError,
)

# The config part of the contract lives in domain/rules/config.py; rulesets import it from here.
from domain.rules.config import JSON as JSON
from domain.rules.config import MAX_SECONDS as MAX_SECONDS
from domain.rules.config import Config as Config
from domain.rules.config import ConfigCheck as ConfigCheck
from domain.rules.config import ConfigField as ConfigField
from domain.rules.config import ConfigKind as ConfigKind
from domain.rules.config import Preset as Preset
from domain.rules.config import load_config as load_config
from domain.rules.config import validate_config as validate_config
from domain.rules.config import with_preset
from domain.rules.rng import Rng

DEFAULT_MAX_ORDER_CHARS = 4096  # the longest order a game takes unless it says more

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


class OrderPolicy(StrEnum):
    """How one seat's orders within one movement combine before `resolve` sees them."""

    REPLACE = "replace"  # a later order replaces the earlier one (the default)
    MERGE = "merge"  # the game's `merge_orders(earlier, later)` folds them (DRTS v2: per piece)
    ACCUMULATE = "accumulate"  # every order counts, in arrival order (B-Chess)


class Result(StrEnum):
    """Where a match stands."""

    ONGOING = "ongoing"
    WIN = "win"
    DRAW = "draw"
    NO_WINNER = "no_winner"


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
    # issue 11, typed config: named sets of values a match may start from (default: none)
    presets: tuple[Preset, ...] = ()
    # order policy (issue 11): how a seat's orders within one movement combine
    order_policy: OrderPolicy = OrderPolicy.REPLACE
    # the longest order (text, or its JSON form as compact JSON) the service takes; a game
    # whose orders command many pieces at once says more (Shades' bot replies)
    max_order_chars: int = DEFAULT_MAX_ORDER_CHARS
    # public orders (issue 24): a forum game has no sealed orders, every order is public as
    # soon as it is received (B-Chess); False keeps a movement's orders sealed until it closes
    public_orders: bool = False

    def defaults(self) -> Config:
        """Returns the default config (a fresh copy: callers may change it)."""
        return copy.deepcopy({f.name: f.default for f in self.config_fields})

    @property
    def accumulates_orders(self) -> bool:
        """Returns whether every order counts (deprecated: read `order_policy`)."""
        return self.order_policy is OrderPolicy.ACCUMULATE


@dataclass(frozen=True)
class MovementPolicy:
    """The clock of one movement: its length, early close and what silence means."""

    deadline_seconds: int
    silence: Silence
    close_early: bool = False
    extension_seconds: int = 0
    max_strikes: int = 0  # with Silence.STRIKE: the strike that forfeits (0 = never)
    # re-arming (issue 11): a deadline that finds no order pending does nothing, and the
    # movement waits for the next one, a period (`deadline_seconds`) later (B-Chess's
    # Turn of the Field); silence applies only once some order is pending
    rearm_when_empty: bool = False


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
    rematch: bool = False  # drawn, to be played again as a new match, same seats (DW-5)

    @property
    def finished(self) -> bool:
        """Returns whether the match is over."""
        return self.result is not Result.ONGOING

    def to_json(self) -> JSON:
        """Returns the outcome as a JSON object (seat keys as strings), as events store it:
        `rematch` under its stored key REMATCH_KEY."""
        return {
            "result": self.result.value,
            "finished": self.finished,
            "scores": {str(seat): points for seat, points in sorted(self.scores.items())},
            "ranking": list(self.ranking),
            "winners": list(self.winners),
            "team_scores": dict(self.team_scores),
            "winning_teams": list(self.winning_teams),
            "reason": self.reason,
            REMATCH_KEY: self.rematch,
        }


# The key of `Outcome.rematch` in an outcome's JSON form. Every stored outcome (in
# Started, MovementResolved, RefereeActed and Finished events) has it under this name,
# chained, so it stays "replay": in a stored outcome, "replay" means rematch.
REMATCH_KEY = "replay"


def asks_rematch(outcome: JSON) -> bool:
    """Returns whether an outcome's JSON form (None before the start) asks for a rematch."""
    return bool(outcome and outcome.get(REMATCH_KEY))


Steps = tuple[Step, ...]

ONE_PHASE = "resolution"  # the name of the one phase of a game without resolve_phases


@dataclass(frozen=True)
class Phase(Generic[StateT]):
    """One phase of a resolution: its name, the state after it, and the steps it took."""

    name: str
    state: StateT
    steps: Steps = ()


def resolution_of(phases: Sequence[Phase[StateT]]) -> tuple[StateT, Steps]:
    """Returns what `resolve` returns for a resolution's phases: the last phase's state and
    the steps of every phase, in order."""
    return phases[-1].state, tuple(step for phase in phases for step in phase.steps)


@dataclass(frozen=True)
class RefusedPart:
    """One part of a message that was refused while the others stand: the part as the
    seat wrote it (a line, an operation) and why."""

    part: str
    reason: str

    def to_json(self) -> JSON:
        return {"part": self.part, "reason": self.reason}


@dataclass(frozen=True)
class Screened(Generic[OrderT]):
    """A message screened part by part (`Ruleset.screen_order`): the parts that stand, as
    one order, and the refused parts with their reasons."""

    order: OrderT
    refused: tuple[RefusedPart, ...] = ()


@dataclass(frozen=True)
class Combining:
    """How a seat combines the commands `legal_commands` lists into one order now.

    An order holds at most one listed command a piece, except a piece named in
    `repeats`, whose commands it may hold up to that many times (B-Chess's
    purchases); commands of at most `max_pieces` pieces, the pieces in `free`
    aside (None: of every piece); and commands whose spendings
    (`Ruleset.command_spends`) add up to no more than `stock` holds. `rule`
    says it in words, naming the rules. `ordered`: the pieces the seat's
    standing order of the movement already commands, each with what its
    standing command spends (`stock` is what is left after them); they count
    against `max_pieces`, and a command on one takes its standing command's
    place there and in the stock (DRTS v2's merge, where it replaces it).
    `snapshot`: every command is judged
    against the state as it is now, so that an allowed combination resolves
    with none set aside; False where pieces act one after another and an
    earlier one may stop a later one (B-Chess's Priority List, BC-3).
    """

    rule: str
    max_pieces: int | None = None
    free: tuple[JSON, ...] = ()
    repeats: Mapping[str, int] = field(default_factory=dict)
    stock: Mapping[str, int] = field(default_factory=dict)
    snapshot: bool = True
    ordered: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def to_json(self) -> JSON:
        """Returns the rule as a JSON object."""
        return {
            "rule": self.rule,
            "max_pieces": self.max_pieces,
            "free": list(self.free),
            "repeats": dict(self.repeats),
            "stock": dict(self.stock),
            "snapshot": self.snapshot,
            "ordered": {piece: dict(spends) for piece, spends in self.ordered.items()},
        }

    def fault(
        self,
        listed: Mapping[Any, Sequence[Any]],
        commands: Sequence[Any],
        spends: Callable[[Any], Mapping[str, int]] | None = None,
    ) -> str:
        """Returns why `commands` is not a combination this rule allows of the `listed`
        commands (by piece), or "" when it is."""
        piece_of = {command: piece for piece, cs in listed.items() for command in cs}
        used: dict[Any, int] = {}
        for command in commands:
            if command not in piece_of:
                return f"{command!r} is not listed"
            piece = piece_of[command]
            used[piece] = used.get(piece, 0) + 1
            if used[piece] > self.repeats.get(str(piece), 1):
                return f"piece {piece!r} is commanded {used[piece]} times"
        named = {str(piece) for piece in used}
        free = {str(piece) for piece in self.free}
        counted = sorted((named | set(self.ordered)) - free)
        if self.max_pieces is not None and len(counted) > self.max_pieces:
            standing = ", ".join(sorted(set(self.ordered) - free))
            also = f" (the standing order commands {standing})" if standing else ""
            return f"{len(counted)} pieces commanded, at most {self.max_pieces}{also}"
        return self._overspent(commands, named, spends)

    def _overspent(
        self,
        commands: Sequence[Any],
        named: set[str],
        spends: Callable[[Any], Mapping[str, int]] | None,
    ) -> str:
        if spends is None:
            return ""
        total: dict[str, int] = {}
        for command in commands:
            for resource, count in spends(command).items():
                total[resource] = total.get(resource, 0) + count
        for piece in named & set(self.ordered):  # its standing command gives way, and back
            for resource, count in self.ordered[piece].items():
                total[resource] = total.get(resource, 0) - count
        for resource, count in sorted(total.items()):
            if count > self.stock.get(resource, 0):
                return f"{count} {resource} spent, {self.stock.get(resource, 0)} in stock"
        return ""


ONE_COMMAND_A_PIECE = Combining("at most one listed command a piece, of any number of pieces")


@dataclass(frozen=True)
class RefereeAction(Generic[StateT]):
    """A move a referee may make inside a game's rules (B-Chess: grant macks).

    `parse` reads the action's JSON arguments (InvalidActionError naming the
    fault, an unknown argument by its name); `apply` returns the state after
    it and the steps that explain it, at least one (IllegalActionError with
    the reason when it is not allowed now). `arguments` documents each argument, by name;
    `example` is a set of arguments that parses (for the docs, the API's
    listing and the conformance suite).
    """

    name: str
    description: str
    parse: Callable[[Mapping[str, JSON]], Any]
    apply: Callable[[StateT, Any], tuple[StateT, Steps]]
    arguments: Mapping[str, str] = field(default_factory=dict)
    example: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class Ruleset(Generic[StateT, OrderT]):
    """A named, versioned game definition: metadata and pure functions (module docstring)."""

    info: RulesetInfo
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
    # issue 11 (typed config, legal orders, Public Display); each optional, default stated:
    check_config: ConfigCheck | None = None  # a cross-field check after the typed one (none)
    legal_orders: Callable[[StateT, int], tuple[OrderT, ...]] | None = None  # None: cannot list
    # per-piece commands (issue 22): all three or none (module docstring)
    legal_commands: Callable[[StateT, int], Mapping[Any, tuple[Any, ...]]] | None = None
    order_of_commands: Callable[[Sequence[Any]], OrderT] | None = None
    commands_of_order: Callable[[OrderT], tuple[Any, ...]] | None = None
    # how listed commands combine (issue 48): None, ONE_COMMAND_A_PIECE; spendings: none
    combining: Callable[[StateT, int, Sequence[OrderT]], Combining] | None = None
    command_spends: Callable[[Any], Mapping[str, int]] | None = None
    # why a listed command is legal, where the rule needs saying (DRTS-6's diagonal cases)
    command_note: Callable[[StateT, int, Any], str] | None = None
    display: Callable[[StateT], str] | None = None  # None: the public view as indented JSON
    # order policy (issue 11): required under OrderPolicy.MERGE, unused otherwise
    merge_orders: Callable[[OrderT, OrderT], OrderT] | None = None
    # phases (issue 11): the resolution phase by phase; None: one phase (`phases`)
    resolve_phases: (
        Callable[[StateT, Sequence[tuple[int, OrderT]], Rng], tuple[Phase[StateT], ...]] | None
    ) = None
    # referee actions (issue 11): what a referee may do inside the game's rules
    actions: tuple[RefereeAction[StateT], ...] = ()
    # the start's draws (issue 22): steps explaining initial_state's random draws (none)
    setup_steps: Callable[[StateT], Steps] | None = None
    # a seat joining later (issue 24): the steps explaining add_seat's draws (none)
    add_seat_steps: Callable[[StateT, int], Steps] | None = None
    # messages of several parts that stand or fall one by one (DRTS v2, B-Chess); None:
    # a message is one order, accepted or refused whole (module docstring)
    screen_order: (
        Callable[[StateT, int, Sequence[OrderT], str | Mapping[str, JSON]], Screened[OrderT]] | None
    ) = None
    # the view is the state (issue 46): every seat and spectator sees the whole state as
    # dump_state gives it, so a reader may serve a stored state JSON as it is, without
    # loading and dumping it again (service/queries/views.py `state_view`); the
    # conformance test holds a game that says so to it
    view_is_state: bool = False

    def __post_init__(self) -> None:
        if self.info.order_policy is OrderPolicy.MERGE and self.merge_orders is None:
            raise ValueError(f"{self.info.name}: OrderPolicy.MERGE needs merge_orders")
        commands = (self.legal_commands, self.order_of_commands, self.commands_of_order)
        if any(f is None for f in commands) and any(f is not None for f in commands):
            raise ValueError(
                f"{self.info.name}: legal_commands, order_of_commands and commands_of_order "
                "come together"
            )

    @property
    def name(self) -> str:
        """Returns the registry name."""
        return self.info.name

    def validate_config(self, config: Mapping[str, JSON]) -> Config:
        """Returns the full config (defaults filled in); raises InvalidConfigError naming the
        option and what it allows (domain/rules/config.py)."""
        return validate_config(self.info.config_fields, config, self.check_config)

    def configure(self, config: Mapping[str, JSON], preset: str | None = None) -> Config:
        """Returns a new match's config: the preset's values, then `config`'s, validated."""
        return self.validate_config(with_preset(self.info.presets, preset, config))

    def public_display(self, state: StateT) -> str:
        """Returns the plain-text Public Display of a state (the game's, or the public view)."""
        if self.display is not None:
            return self.display(state)
        return json.dumps(self.view(state, None), indent=2, sort_keys=True) + "\n"

    def action(self, name: str) -> RefereeAction[StateT]:
        """Returns the referee action called `name`; raises UnknownActionError naming the
        actions the game has."""
        for action in self.actions:
            if action.name == name:
                return action
        known = ", ".join(a.name for a in self.actions) or "none"
        raise UnknownActionError(
            f"{self.info.name} has no referee action {name!r} (its actions: {known})"
        )

    def combining_of(self, state: StateT, seat: int, standing: Sequence[OrderT] = ()) -> Combining:
        """Returns how `seat` combines its listed commands into one further order now, over
        its `standing` orders of the movement (the game's `combining`, or
        ONE_COMMAND_A_PIECE)."""
        if self.combining is None:
            return ONE_COMMAND_A_PIECE
        return self.combining(state, seat, standing)

    def combination_fault(
        self, state: StateT, seat: int, commands: Sequence[Any], standing: Sequence[OrderT] = ()
    ) -> str:
        """Returns why `commands` is not a combination `seat` may order now of the commands
        `legal_commands` lists, over its `standing` orders, or "" when it is (the game must
        have legal_commands)."""
        assert self.legal_commands is not None
        listed = self.legal_commands(state, seat)
        rule = self.combining_of(state, seat, standing)
        return rule.fault(listed, commands, self.command_spends)

    def initial_steps(self, state: StateT) -> Steps:
        """Returns the steps explaining the random draws of a new match's initial state
        (`setup_steps`; none for a game whose start draws nothing)."""
        return () if self.setup_steps is None else self.setup_steps(state)

    def seat_steps(self, state: StateT, seat: int) -> Steps:
        """Returns the steps explaining the random draws `add_seat` made for `seat`
        (`add_seat_steps`; none for a game without them)."""
        return () if self.add_seat_steps is None else self.add_seat_steps(state, seat)

    def screen(
        self,
        state: StateT,
        seat: int,
        earlier: Sequence[OrderT],
        sent: str | Mapping[str, JSON],
    ) -> Screened[OrderT]:
        """Returns a message screened part by part (`screen_order`), or, for a game whose
        message is one order, that order parsed and checked whole (nothing refused)."""
        if self.screen_order is not None:
            return self.screen_order(state, seat, earlier, sent)
        order = self.parse_order(sent)
        self.check_order(state, seat, order)
        return Screened(order)

    def phases(
        self, state: StateT, orders: Sequence[tuple[int, OrderT]], rng: Rng
    ) -> tuple[Phase[StateT], ...]:
        """Returns the phases of resolving `orders` from `state`: the game's own
        (`resolve_phases`), or one phase named ONE_PHASE holding `resolve`'s result."""
        if self.resolve_phases is not None:
            return self.resolve_phases(state, orders, rng)
        after, steps = self.resolve(state, orders, rng)
        return (Phase(ONE_PHASE, after, steps),)


AnyRuleset = Ruleset[Any, Any]  # a ruleset of any state and order types, as registries hold them


def check_seat_number(game: str, seat: int, seats: int) -> None:
    """Raises UnknownSeatError unless `seat` is one of the game's seats 1..`seats`."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= seats:
        raise UnknownSeatError(f"{game} has no seat {seat!r} (seats 1..{seats})")


def check_seat_count(info: RulesetInfo, seats: int) -> None:
    """Raises InvalidConfigError unless a match of `info` may have `seats` seats."""
    if info.min_seats <= seats <= info.max_seats:
        return
    if info.min_seats == info.max_seats:
        allowed = f"exactly {info.min_seats} seats"
    else:
        allowed = f"{info.min_seats} to {info.max_seats} seats"
    raise InvalidConfigError(f"{info.name} is played by {allowed}, not {seats}")


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


# one encoder for every call: json.dumps with options builds a new one each time
_CANONICAL = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)


def canonical_json(value: JSON) -> bytes:
    """Returns the canonical JSON bytes of a value: UTF-8, sorted keys, no extra spaces."""
    return _CANONICAL.encode(value).encode()


def state_hash(dumped_state: JSON) -> str:
    """Returns the SHA-256 hex digest of a dumped state's canonical JSON."""
    return hashlib.sha256(canonical_json(dumped_state)).hexdigest()
