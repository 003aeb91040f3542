"""Table: the pure referee of one match, between the ruleset and the Match aggregate.

It holds the current state, the open movement's orders and the strike
counts, and applies the ruleset contract's clock: who owes orders, early
close, and what silence means when the deadline passes. It reads no clock:
the caller says whether the deadline has passed (`close(deadline_passed)`).
It is the one referee: the scenario runner and the conformance playouts drive
it directly, and the Match aggregate's commands build one per command and
record what it computes.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from domain.errors import (
    IllegalActionError,
    InvalidActionError,
    MovementClosedError,
    NotYourSeatError,
)
from domain.memo import STATES_KEPT, IdentityMemo
from domain.rules.contract import (
    JSON,
    Config,
    OrderPolicy,
    Outcome,
    Phase,
    Ruleset,
    Screened,
    Silence,
    Step,
    ToMove,
)
from domain.rules.rng import Rng

AnyRuleset = Ruleset[Any, Any]

# the referee's own actions, beside the games' (a game's action never takes these names)
FORFEIT, PAUSE, RESUME = "forfeit", "pause", "resume"

# A state's outcome and the seats it has to move, remembered by the state's identity (a
# ruleset's states are frozen, domain/memo.py): an order asks both two or three times, and
# the next command on the match asks them again of the same decoded state (issue 46).
OUTCOMES = IdentityMemo(STATES_KEPT)
TO_MOVE = IdentityMemo(STATES_KEPT)


@dataclass(frozen=True)
class Resolution:
    """What closing a movement did: its number, the steps and the next state.

    `orders` are the orders `resolve` took; `used` the indexes of the pending
    orders that went into them (the order policy's choice).
    """

    movement: int
    steps: tuple[Step, ...]
    state: Any
    orders: tuple[tuple[int, Any], ...]
    used: frozenset[int] = frozenset()


def combine_orders(
    ruleset: AnyRuleset, orders: Sequence[tuple[int, Any]]
) -> tuple[list[tuple[int, Any]], frozenset[int]]:
    """Returns `orders` (arrival order) combined by the ruleset's order policy, and the
    indexes of the orders that went into the result.

    replace: a seat's last order stands; merge: `merge_orders` folds a seat's
    orders in arrival order; both keep one order a seat, at the arrival
    position of its last one. accumulate: every order, in arrival order.
    """
    policy = ruleset.info.order_policy
    if policy is OrderPolicy.ACCUMULATE:
        return list(orders), frozenset(range(len(orders)))
    last = {seat: i for i, (seat, _) in enumerate(orders)}
    if policy is OrderPolicy.REPLACE:
        kept = [(seat, order) for i, (seat, order) in enumerate(orders) if last[seat] == i]
        return kept, frozenset(last.values())
    merge = ruleset.merge_orders
    assert merge is not None  # Ruleset checks it under OrderPolicy.MERGE
    merged: dict[int, Any] = {}
    for seat, order in orders:
        merged[seat] = merge(merged[seat], order) if seat in merged else order
    combined = [(seat, merged[seat]) for i, (seat, _) in enumerate(orders) if last[seat] == i]
    return combined, frozenset(range(len(orders)))


@dataclass(frozen=True)
class DeadlinePassed:
    """What closing a movement did: strikes, forfeits, an extension or a resolution
    (`early`: resolved before its deadline, every owing seat having ordered); or nothing
    at all: not due yet, a finished match, or a movement that re-arms with no order
    pending (`rearmed`)."""

    strikes: tuple[int, ...] = ()
    forfeited: tuple[int, ...] = ()
    extension_seconds: int = 0
    resolution: Resolution | None = None
    rearmed: bool = False
    early: bool = False

    @property
    def steps(self) -> tuple[Step, ...]:
        """Returns the steps of the resolution, if the movement closed."""
        return self.resolution.steps if self.resolution else ()

    @property
    def acted(self) -> bool:
        """Returns whether anything happened: a strike, a forfeit or a resolution."""
        return bool(self.strikes or self.forfeited or self.resolution is not None)


@dataclass
class Table:
    """One match's rules-level play: state, open movement, pending orders, strikes."""

    ruleset: AnyRuleset
    seed: str
    state: Any
    movement: int = 1
    pending: list[tuple[int, Any]] = field(default_factory=list)
    strikes: dict[int, int] = field(default_factory=dict)
    # seats forfeited (by silence or by the referee): an order one of them sent before
    # the referee forfeited it stays pending (revealed at the close) but is not used
    out: set[int] = field(default_factory=set)

    @classmethod
    def start(cls, ruleset: AnyRuleset, config: Mapping[str, JSON], seats: int, seed: str) -> Table:
        """Returns a table at movement 1 of a new match (config validated, Rng movement 0)."""
        full: Config = ruleset.validate_config(config)
        return cls(ruleset, seed, ruleset.initial_state(full, seats, Rng(seed, 0)))

    def to_move(self) -> ToMove:
        """Returns the seats owing orders now and the movement's policy."""
        state, ruleset = self.state, self.ruleset
        to_move: ToMove = TO_MOVE.get(state, ruleset, lambda: ruleset.to_move(state))
        return to_move

    def outcome(self) -> Outcome:
        """Returns the ruleset's outcome of the current state."""
        state, ruleset = self.state, self.ruleset
        outcome: Outcome = OUTCOMES.get(state, ruleset, lambda: ruleset.outcome(state))
        return outcome

    def check_submission(self, seat: int, order: Any) -> None:
        """Raises unless `seat` may send `order` now (open movement, owes orders, legal)."""
        self.check_owes(seat)
        self.ruleset.check_order(self.state, seat, order)
        self._check_merged(seat, order)

    def check_owes(self, seat: int) -> None:
        """Raises unless the match goes on and `seat` owes orders in the open movement."""
        if self.outcome().finished:
            raise MovementClosedError(f"the match is finished; order from seat {seat} refused")
        owing = self.to_move().seats
        if seat not in owing:
            raise NotYourSeatError(
                f"seat {seat} owes no orders in movement {self.movement} "
                f"(seats owing: {', '.join(map(str, owing)) or 'none'})"
            )

    def _check_merged(self, seat: int, order: Any) -> None:
        """Under OrderPolicy.MERGE, raises unless the seat's orders merged with `order` (what
        resolve will see) are legal."""
        merge = self.ruleset.merge_orders
        earlier = self.orders_of(seat)
        if self.ruleset.info.order_policy is OrderPolicy.MERGE and merge and earlier:
            merged = functools.reduce(merge, [*earlier, order])
            self.ruleset.check_order(self.state, seat, merged)

    def submit(self, seat: int, order_input: str | Mapping[str, JSON]) -> Any:
        """Parses, checks and records an order; returns the parsed order (the parts that
        stand, for a game that screens a message part by part: `submit_screened`)."""
        return self.submit_screened(seat, order_input).order

    def submit_screened(self, seat: int, order_input: str | Mapping[str, JSON]) -> Screened[Any]:
        """Parses, checks and records a message; returns the order recorded with the parts
        refused. A game without `screen_order` takes the message whole (parse, then check);
        one with it keeps the parts that stand (contract, `screen_order`)."""
        if self.ruleset.screen_order is None:
            order = self.ruleset.parse_order(order_input)
            self.check_submission(seat, order)
            screened: Screened[Any] = Screened(order)
        else:
            self.check_owes(seat)
            screened = self.ruleset.screen(self.state, seat, self.orders_of(seat), order_input)
            self._check_merged(seat, screened.order)
        self.pending.append((seat, screened.order))
        return screened

    def orders_of(self, seat: int) -> list[Any]:
        """Returns a seat's pending orders, in arrival order."""
        return [order for s, order in self.pending if s == seat]

    def standing_orders(self, seat: int) -> list[Any]:
        """Returns a seat's standing orders as the order policy combines its pending ones:
        at most one (replace, merge), every one (accumulate), in arrival order."""
        combined = combine_orders(self.ruleset, [(seat, o) for o in self.orders_of(seat)])[0]
        return [order for _, order in combined]

    def standing_order(self, seat: int) -> JSON:
        """Returns a seat's standing order as the order policy combines its pending ones, in
        JSON form: one order (replace, merge), a list (accumulate), or None if it has none."""
        dumped = [self.ruleset.dump_order(order) for order in self.standing_orders(seat)]
        if self.ruleset.info.order_policy is OrderPolicy.ACCUMULATE:
            return dumped
        return dumped[0] if dumped else None

    def act(self, name: str, args: Mapping[str, JSON]) -> tuple[Step, ...]:
        """Applies the ruleset's referee action `name` with its JSON `args` to the state;
        returns its steps. The open movement and its orders stay as they were.

        `forfeit` ({"seat": n}) is the referee's own: the game's `forfeit` applies, and
        it may end the match (`forfeit_seat`).

        Raises MovementClosedError on a finished match, UnknownActionError,
        InvalidActionError, IllegalActionError (also for an action that would end
        the match: a match ends by its rules).
        """
        if self.outcome().finished:
            raise MovementClosedError(f"the match is finished; referee action {name!r} refused")
        if name == FORFEIT:
            return self.forfeit_seat(forfeit_seat_arg(args))
        action = self.ruleset.action(name)
        state, steps = action.apply(self.state, action.parse(args))
        if self.ruleset.outcome(state).finished:
            raise IllegalActionError(
                f"referee action {name!r} would end the match: a match ends by its rules"
            )
        self.state = state
        return steps

    def forfeit_seat(self, seat: int) -> tuple[Step, ...]:
        """Puts `seat` out by the game's `forfeit` (the referee's act); returns its steps.
        Its pending orders stay but are not used. Raises IllegalActionError for a seat
        already out, UnknownSeatError for one that does not exist."""
        if seat in self.out:
            raise IllegalActionError(f"seat {seat} is already out of the match")
        state, steps = self.ruleset.forfeit(self.state, seat)
        if not steps:  # the game says it changed nothing: the seat was out already
            raise IllegalActionError(f"seat {seat} is already out of the match")
        self.state = state
        self.out.add(seat)
        return steps

    def orders_for_resolution(self) -> list[tuple[int, Any]]:
        """Returns the pending orders as `resolve` takes them (`combine_orders`)."""
        return self._counted()[0]

    def _counted(self) -> tuple[list[tuple[int, Any]], frozenset[int]]:
        """Returns `combine_orders` of the pending orders of seats still in, with the
        indexes (in `pending`) of the orders that went into them."""
        kept = [i for i, (seat, _) in enumerate(self.pending) if seat not in self.out]
        orders, used = combine_orders(self.ruleset, [self.pending[i] for i in kept])
        return orders, frozenset(kept[i] for i in used)

    def is_ready(self) -> bool:
        """Returns whether the movement may close now: early close and every owing seat ordered."""
        owing = self.to_move()
        ordered = {seat for seat, _ in self.pending}
        return owing.policy.close_early and bool(owing.seats) and set(owing.seats) <= ordered

    def resolve(self) -> Resolution:
        """Resolves the open movement with the pending orders and opens the next one."""
        orders, used = self._counted()
        state, steps = self.ruleset.resolve(self.state, orders, Rng(self.seed, self.movement))
        return self._close(state, steps, orders, used)

    def phases(self, forfeited: Sequence[int] = ()) -> tuple[Phase[Any], ...]:
        """Returns the phases of closing the open movement, changing nothing: first the
        forfeit of each `forfeited` seat (as a passed deadline forfeits them), then the
        ruleset's phases of resolving the pending orders (`Ruleset.phases`), unless a
        forfeit ended the match. The last phase's state is the state the close gives.
        """
        state, phases = self.state, []
        for seat in forfeited:
            state, steps = self.ruleset.forfeit(state, seat)
            phases.append(Phase(f"forfeit of seat {seat}", state, steps))
        if phases and self.ruleset.outcome(state).finished:
            return tuple(phases)
        orders = self.orders_for_resolution()
        rng = Rng(self.seed, self.movement)
        return (*phases, *self.ruleset.phases(state, orders, rng))

    def close(self, deadline_passed: bool = True) -> DeadlinePassed:
        """Closes the movement if it is due: resolves it early if it is ready, else, once
        its deadline has passed, applies what silence means (`pass_deadline`).

        Returns what closing did; nothing (`acted` false) before the deadline of a
        movement that is not ready.
        """
        if self.is_ready():
            return DeadlinePassed(resolution=self.resolve(), early=True)
        return self.pass_deadline() if deadline_passed else DeadlinePassed()

    def pass_deadline(self) -> DeadlinePassed:
        """Applies the movement's silence policy to the seats that owe orders and sent none.

        On a finished match nothing is open: it returns an empty DeadlinePassed.
        A movement that re-arms with no order pending stays open, unchanged.
        """
        if self.outcome().finished:
            return DeadlinePassed()
        owing = self.to_move()
        if owing.policy.rearm_when_empty and not self.pending:
            return DeadlinePassed(rearmed=True)
        ordered = {seat for seat, _ in self.pending}
        silent = tuple(seat for seat in owing.seats if seat not in ordered)
        silence = owing.policy.silence
        if silence in (Silence.HOLD, Silence.PASS) or not silent:
            return DeadlinePassed(resolution=self.resolve())
        if silence is Silence.STRIKE:
            return self._strike(silent, owing.policy.max_strikes, owing.policy.extension_seconds)
        return self._forfeit_then_resolve(silent)

    def _strike(self, silent: tuple[int, ...], max_strikes: int, extension: int) -> DeadlinePassed:
        for seat in silent:
            self.strikes[seat] = self.strikes.get(seat, 0) + 1
        out = tuple(s for s in silent if max_strikes and self.strikes[s] >= max_strikes)
        if not out:
            return DeadlinePassed(strikes=silent, extension_seconds=extension)
        passed = self._forfeit_then_resolve(out)
        return DeadlinePassed(silent, out, 0, passed.resolution)

    def _forfeit_then_resolve(self, out: tuple[int, ...]) -> DeadlinePassed:
        state = self.state
        steps: tuple[Step, ...] = ()
        for seat in out:
            state, more = self.ruleset.forfeit(state, seat)
            steps += more
        self.state = state
        self.out.update(out)
        if self.outcome().finished:
            return DeadlinePassed(forfeited=out, resolution=self._close(state, steps, []))
        resolution = self.resolve()
        merged = replace(resolution, steps=steps + resolution.steps)
        return DeadlinePassed(forfeited=out, resolution=merged)

    def _close(
        self,
        state: Any,
        steps: Sequence[Step],
        orders: Sequence[tuple[int, Any]],
        used: frozenset[int] = frozenset(),
    ) -> Resolution:
        resolution = Resolution(self.movement, tuple(steps), state, tuple(orders), used)
        self.state = state
        self.pending = []
        self.movement += 1
        return resolution


def forfeit_seat_arg(args: Mapping[str, JSON]) -> int:
    """Returns the seat of a forfeit's arguments, exactly {"seat": n} with n a positive
    integer; raises InvalidActionError naming the fault."""
    unknown = sorted(set(args) - {"seat"})
    if unknown:
        raise InvalidActionError(f"forfeit takes only a seat; unknown argument {unknown[0]!r}")
    seat = args.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
        raise InvalidActionError(f"forfeit needs a seat number (1, 2, ...), got {seat!r}")
    return seat
