"""Re-adjudication: a match's log played again under its pinned ruleset version, and
compared, step by step and state hash by state hash, with what the log stored.

`readjudicate(ruleset, events)` never loads a stored state (except a start state the
referee gave, which the rules did not compute): it starts from the ruleset's
`initial_state` (config, seat count and seed from the log), then re-applies what the
log says happened, in order, on one `Table` (the referee every command uses): the
start and its setup steps, each accepted order (checked again), each close (strikes,
forfeits, the orders MovementClosed revealed with their `used` flags, the resolution),
each referee action with its args, each correction's restart (`Corrected`: the
events given are one timeline's, domain/match/timelines.py). Deadlines change no
state. It stops at the first divergence: the first place where the recomputed steps,
state hash, outcome, strikes, forfeits or orders differ from the stored ones.

A start state cannot be told from a changed `initial_state` of a game whose start draws
nothing: a start whose stored state is not the recomputed one and that recorded no
setup step is taken as given by the referee (`given_start`), and play goes on from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import zip_longest
from typing import Any

from domain.integrity import normalized
from domain.match import Match
from domain.rules.contract import JSON, AnyRuleset, Step, state_hash
from domain.rules.rng import Rng
from domain.table import DeadlinePassed, Table

# what a divergence is about (docs/referee.md explains each)
STEP, MISSING_STEP, EXTRA_STEP = "step", "missing step", "extra step"
STATE_HASH, OUTCOME, ORDER, ORDERS = "state_hash", "outcome", "order", "orders"
STRIKES, FORFEITS, CLOSE, ERROR = "strikes", "forfeits", "close", "error"


@dataclass(frozen=True)
class Divergence:
    """The first place where re-adjudication differs from the log: the movement, the
    step's index (1..n; None for a state, outcome or close), what differs, the stored and
    the recomputed value, the rule ids of the steps involved, and the stored event
    (its version and type) where it shows."""

    movement: int
    step: int | None
    what: str
    stored: JSON
    recomputed: JSON
    rulings: tuple[str, ...]
    version: int
    event: str


@dataclass(frozen=True)
class Readjudication:
    """What re-adjudicating a log found: how many movements' resolutions were compared,
    the first divergence (None: exact), and whether the start state was the referee's."""

    movements: int
    divergence: Divergence | None
    given_start: bool = False


class _Diverged(Exception):
    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.what)
        self.divergence = divergence


def readjudicate(ruleset: AnyRuleset, events: Sequence[Any]) -> Readjudication:
    """Plays a match's events (domain events, from Created on, in order) again under
    `ruleset`, the match's pinned version; returns the first divergence, or none."""
    referee = _Referee(ruleset, events)
    try:
        referee.run()
    except _Diverged as diverged:
        return Readjudication(referee.movements, diverged.divergence, referee.given_start)
    return Readjudication(referee.movements, None, referee.given_start)


def step_json(step: Step) -> JSON:
    """Returns a step as the log stores it (rule, text, data; tuples as lists)."""
    return normalized(step.to_json())


def rulings(*steps: Any) -> tuple[str, ...]:
    """Returns the rule ids of the steps (JSON objects; None skipped), each once, in order."""
    rules = [s["rule"] for s in steps if isinstance(s, dict) and "rule" in s]
    return tuple(dict.fromkeys(rules))


class _Referee:
    """One pass over the log: the table it keeps and the cursor in the events."""

    def __init__(self, ruleset: AnyRuleset, events: Sequence[Any]) -> None:
        self.ruleset, self.events = ruleset, events
        self.at = 0
        self.movements = 0
        self.given_start = False
        self.seats = 0
        self.config: dict[str, Any] = {}
        self.seed = ""
        self.table: Table | None = None

    def run(self) -> None:
        while self.at < len(self.events):
            event = self.events[self.at]
            try:
                self._one(event)
            except _Diverged:
                raise
            except Exception as error:  # the rules (or the log) broke: name it, never crash
                self._error(event, error)

    def _one(self, event: Any) -> None:
        if isinstance(event, Match.SeatStruck | Match.SeatEliminated | Match.MovementClosed):
            self._close()
            return
        self.at += 1
        if isinstance(event, Match.Created):
            self.config, self.seed = event.config, event.sealed["seed"]
        elif isinstance(event, Match.SeatJoined):
            self.seats += 1
        elif isinstance(event, Match.Started):
            self._start(event)
        elif isinstance(event, Match.SeatAdded):
            self._add_seat(event)
        elif isinstance(event, Match.OrderSubmitted):
            self._order(event)
        elif isinstance(event, Match.RefereeActed):
            self._act(event)
        elif isinstance(event, Match.Corrected):
            self._corrected(event)
        elif isinstance(event, Match.Finished):
            self._outcome(self._table().movement - 1, event, event.outcome, ())

    def _table(self) -> Table:
        if self.table is None:
            raise ValueError("the log plays before its Started event")
        return self.table

    # -- the events that change the state ---------------------------------------------------

    def _start(self, event: Any) -> None:
        table = Table.start(self.ruleset, self.config, self.seats, self.seed)
        drawn = self.ruleset.initial_steps(table.state)
        if self._hash(table.state) != event.state_hash and not event.steps:
            self.given_start = True  # a state given by the referee: the start drew nothing
            table.state, drawn = self.ruleset.load_state(event.state), ()
        table.movement = event.movement
        table.strikes = {int(seat): n for seat, n in (event.strikes or {}).items()}
        self.table = table
        self._steps(event.movement, event, list(event.steps), drawn)
        self._state(event.movement, event, list(event.steps))

    def _add_seat(self, event: Any) -> None:
        """Seats a player who joined the running match, as the Match did (BC-5: the game's
        `add_seat`, drawn from the Rng of the seed, the movement and "add_seat <seat>")."""
        table, add_seat = self._table(), self.ruleset.add_seat
        if add_seat is None:
            raise ValueError(
                f"a seat joined the running match, but {self.ruleset.name} has no add_seat"
            )
        rng = Rng(self.seed, table.movement, f"add_seat {event.seat}")
        table.state = add_seat(table.state, event.seat, rng)
        again = self.ruleset.seat_steps(table.state, event.seat)
        self._steps(event.movement, event, list(event.steps), again)
        self._state(event.movement, event, list(event.steps))

    def _order(self, event: Any) -> None:
        table = self._table()
        try:
            table.submit(event.seat, event.sealed["order"])
        except Exception as error:
            stored = {"seat": event.seat, "order": event.sealed["order"], "accepted": True}
            self._diverge(table.movement, None, ORDER, event, stored, _refusal(error))

    def _act(self, event: Any) -> None:
        steps = self._table().act(event.action, event.args)
        self._steps(event.movement, event, list(event.steps), steps)
        self._state(event.movement, event, list(event.steps))

    def _corrected(self, event: Any) -> None:
        """Meets a correction (a timeline's events, service/queries/corrections.py): the table
        must stand where the correction restarts the match; the changed seats' orders go
        (their replacements follow as orders of source "correction")."""
        table, restart = self._table(), event.restart
        self._same(table.movement, CLOSE, event, restart["movement"], table.movement)
        stored = state_hash(restart["state"])
        if self._hash(table.state) != stored:
            self._diverge(table.movement, None, STATE_HASH, event, stored, self._hash(table.state))
        changed = {change["seat"] for change in event.changes}
        table.pending = [(seat, order) for seat, order in table.pending if seat not in changed]

    def _close(self) -> None:
        """Closes the open movement as the stored close did, and compares each part."""
        table = self._table()
        movement, opening = table.movement, self.events[self.at]
        struck = self._take(Match.SeatStruck)
        eliminated = self._take(Match.SeatEliminated)
        closed = self._take(Match.MovementClosed)
        steps = self._take(Match.StepApplied)
        resolved = self._take(Match.MovementResolved)
        pending = [
            {"seat": seat, "order": normalized(self.ruleset.dump_order(order))}
            for seat, order in table.pending
        ]
        passed = table.close(deadline_passed=True)
        stored_strikes = [{"seat": e.seat, "strikes": e.strikes} for e in struck]
        again = [{"seat": seat, "strikes": table.strikes[seat]} for seat in passed.strikes]
        self._same(movement, STRIKES, opening, stored_strikes, again)
        stored_out = [e.seat for e in eliminated]
        self._same(movement, FORFEITS, opening, stored_out, list(passed.forfeited))
        self._same(movement, CLOSE, opening, _closing(closed), _recomputed_closing(passed))
        if not closed:
            return
        self._revealed(movement, closed[0], pending, passed)
        stored_steps = [{"rule": e.rule, "text": e.text, "data": e.data} for e in steps]
        assert passed.resolution is not None
        self._steps(movement, steps or closed, stored_steps, passed.resolution.steps)
        if not resolved:
            self._diverge(movement, None, STATE_HASH, closed[-1], None, self._hash(table.state))
        self._state(movement, resolved[0], stored_steps)
        self.movements += 1

    def _revealed(
        self, movement: int, closed: Any, pending: list[dict[str, Any]], passed: DeadlinePassed
    ) -> None:
        """Compares the orders MovementClosed revealed, and their `used` flags, with the
        orders the table held and the ones the order policy combined."""
        used = passed.resolution.used if passed.resolution else frozenset()
        stored = [
            {"seat": o["seat"], "order": o["order"], "used": o["used"]} for o in closed.orders
        ]
        again = [{**p, "used": i in used} for i, p in enumerate(pending)]
        self._same(movement, ORDERS, closed, stored, again)

    # -- comparing --------------------------------------------------------------------------

    def _steps(
        self, movement: int, where: Any, stored: list[Any], recomputed: Sequence[Step]
    ) -> None:
        events = where if isinstance(where, list) else [where] * max(len(stored), 1)
        pairs = zip_longest(stored, [step_json(s) for s in recomputed])
        for index, (kept, again) in enumerate(pairs, 1):
            if kept == again:
                continue
            what = EXTRA_STEP if kept is None else MISSING_STEP if again is None else STEP
            event = events[min(index, len(events)) - 1]
            self._diverge(movement, index, what, event, kept, again, rulings(kept, again))

    def _state(self, movement: int, event: Any, steps: list[Any]) -> None:
        table = self._table()
        again = self._hash(table.state)
        if again != event.state_hash:
            self._diverge(
                movement, None, STATE_HASH, event, event.state_hash, again, rulings(*steps)
            )
        self._outcome(movement, event, event.outcome, steps)

    def _outcome(self, movement: int, event: Any, stored: JSON, steps: Sequence[Any]) -> None:
        again = normalized(self._table().outcome().to_json())
        if again != stored:
            self._diverge(movement, None, OUTCOME, event, stored, again, rulings(*steps))

    def _same(self, movement: int, what: str, event: Any, stored: JSON, again: JSON) -> None:
        if stored != again:
            self._diverge(movement, None, what, event, stored, again)

    def _diverge(
        self,
        movement: int,
        step: int | None,
        what: str,
        event: Any,
        stored: JSON,
        recomputed: JSON,
        rules: tuple[str, ...] = (),
    ) -> None:
        raise _Diverged(
            Divergence(
                movement,
                step,
                what,
                stored,
                recomputed,
                rules,
                event.originator_version,
                type(event).__name__,
            )
        )

    def _error(self, event: Any, error: Exception) -> None:
        movement = self.table.movement if self.table else 0
        self._diverge(movement, None, ERROR, event, None, _refusal(error))

    # -- helpers ----------------------------------------------------------------------------

    def _take(self, kind: type) -> list[Any]:
        """Returns the events of `kind` at the cursor, moving past them."""
        taken = []
        while self.at < len(self.events) and isinstance(self.events[self.at], kind):
            taken.append(self.events[self.at])
            self.at += 1
        return taken

    def _hash(self, state: Any) -> str:
        return state_hash(normalized(self.ruleset.dump_state(state)))


def _refusal(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"


def _closing(closed: list[Any]) -> JSON:
    """Returns how the stored close ended: not resolved, or resolved (and why)."""
    return {"resolved": bool(closed), "reason": closed[0].reason if closed else None}


def _recomputed_closing(passed: DeadlinePassed) -> JSON:
    resolved = passed.resolution is not None
    reason = ("all_ordered" if passed.early else "deadline") if resolved else None
    return {"resolved": resolved, "reason": reason}
