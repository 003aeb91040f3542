"""The commands of a started match: orders, closing a movement, the referee's deadline and
game actions, looks at secrets; and the recording of what a close did and of each new
movement's deadline.

A command builds the match's Table (domain/table.py, the one referee) once and passes it
on: a late order or action first lets the due deadline pass on that table (`_close`),
then goes on with it. Closing is `Table.close(deadline_passed)`; the match records what
it did, one event per result.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from domain.errors import (
    DrtsError,
    DuplicateMessageError,
    IllegalOrderError,
    InvalidActionError,
    InvalidDeadlineError,
    InvalidOrderError,
    MatchNotStartedError,
    MatchPausedError,
    MovementClosedError,
    NotYourSeatError,
)
from domain.integrity import normalized, order_seal, refusal_seal
from domain.match import parsed
from domain.match.queries import MatchQueries
from domain.match.values import Receipt
from domain.rules.contract import JSON, MAX_SECONDS, Step, state_hash
from domain.table import FORFEIT, DeadlinePassed, Resolution, Table

REJECTABLE = (InvalidOrderError, IllegalOrderError, NotYourSeatError, MovementClosedError)
MAX_DEADLINE_SECONDS = MAX_SECONDS  # a year and a day: longer is a typo, and overflows later


def next_firing(origin: datetime, period_seconds: int, after: datetime) -> datetime:
    """Returns the first instant `origin + k * period` (k = 0, 1, ...) later than `after`:
    where a movement that re-arms fires next (a firing at the order's instant is too late
    for it, as a deadline is for any order)."""
    if origin > after:
        return origin
    period = timedelta(seconds=period_seconds)
    return origin + ((after - origin) // period + 1) * period


class MatchPlay(MatchQueries):
    """The commands of a started match."""

    def submit_order(
        self,
        token_hash: str,
        order: str | dict[str, JSON],
        salt: str,
        at: datetime,
        source: str = "api",
        message_id: str | None = None,
        movement: int | None = None,
    ) -> Receipt:
        """Records an order from the seat holding the token, or records its rejection and
        raises; once the match has finished (a late order may first finish it) the
        rejection is answered only, never recorded (docs/integrity.md)."""
        seat = self.seat_of(token_hash)
        if not self.started:
            raise MatchNotStartedError(
                f"match {self.id} has not started; order from seat {seat} refused"
            )
        self.check_not_quarantined()
        table = self.table()
        if self._deadline_passed(at):  # a late order first lets every due deadline pass
            self._close(table, at)
        target = self.movement if movement is None else movement
        raced = self.closed_at is not None and at < self.closed_at
        meta = {
            "seat": seat,
            "movement": self.movement - 1 if raced and movement is None else target,
            "received_at": at,
            "source": source,
            "message_id": message_id,
        }
        try:
            if raced:
                raise self._raced(at)
            self._check_not_late(target, at)
            self.check_open(target)
            screened = table.submit_screened(seat, order)
        except REJECTABLE as error:
            if not self.finished:  # a finished match has nothing pending: docs/integrity.md
                self._record_refusal(meta, order, salt, error, at)
            raise
        dumped = normalized(table.ruleset.dump_order(screened.order))
        digest, sealed = order_seal(dumped, normalized(order), salt)  # kept as sent (issue 17)
        if screened.refused:  # parts refused while the rest stands (contract, screen_order)
            sealed = {**sealed, "refused": [part.to_json() for part in screened.refused]}
        ready = table.is_ready() and self.paused is None
        self._record(self.OrderSubmitted, at, **meta, digest=digest, ready=ready, sealed=sealed)
        if len(table.pending) == 1:
            self._arm(table, at)
        standing = normalized(table.standing_order(seat))
        return Receipt(seat, target, digest, at, ready, screened.refused, standing)

    def check_message_new(self, token_hash: str, source: str, message_id: str | None) -> None:
        """Raises DuplicateMessageError when the token's seat already has an order of this
        message (`source` and `message_id`) pending; records nothing. The intake asks it
        before `submit_order`: two copies of one mail or forum post processed at once both
        pass the desks' look for a message seen before, and the copy that loses the write
        race reloads the match and stops here (service/channels/forum/desk.py). A correction's
        re-run of recorded orders does not ask: it plays the inputs as they were taken."""
        if message_id is None:
            return
        seat = self.seat_of(token_hash)
        for pending in self.pending:
            if (pending.seat, pending.source, pending.message_id) == (seat, source, message_id):
                raise DuplicateMessageError(
                    f"message {message_id!r} of seat {seat} ({source}) is already pending "
                    f"as event {pending.version}: nothing new stored",
                    pending.version,
                )

    def close_movement(self, movement: int, at: datetime) -> DeadlinePassed | None:
        """Closes `movement` if it is ready or its deadline has passed at `at`, and records
        what closing did; returns it, or None if nothing was due."""
        if not self.is_open() or movement != self.movement:
            return None
        return self._close(self.table(), at)

    def extend_deadline(
        self,
        referee_token_hash: str,
        movement: int,
        deadline: datetime,
        at: datetime,
        note: str | None = None,
    ) -> None:
        """Moves the open movement's deadline later (the referee's act; reason "referee",
        with the referee's `note` saying why, if given)."""
        self.check_referee(referee_token_hash)
        if not self.started:
            raise MatchNotStartedError(f"match {self.id} has not started: no deadline to extend")
        self.check_open(movement)
        if self.paused is not None:
            raise MatchPausedError(
                f"match {self.id} is paused: resume it first (its deadline then moves "
                "later by the pause)"
            )
        if self.deadline is not None and deadline <= self.deadline:
            raise InvalidDeadlineError(
                f"the new deadline {deadline.isoformat()} of movement "
                f"{movement} is not later than the current one, "
                f"{self.deadline.isoformat()}"
            )
        if (deadline - at).total_seconds() > MAX_DEADLINE_SECONDS:
            raise InvalidDeadlineError(
                f"the new deadline {deadline.isoformat()} is more than "
                f"{MAX_DEADLINE_SECONDS} seconds away"
            )
        self._record(
            self.DeadlineSet,
            at,
            movement=movement,
            deadline=deadline,
            reason="referee",
            intended_at=at,
            note=note,
        )

    def act(
        self,
        referee_token_hash: str,
        action: str,
        args: dict[str, JSON],
        reason: str,
        by: str,
        at: datetime,
    ) -> tuple[Step, ...]:
        """Takes one of the game's referee actions (the referee's act) and records it with
        the state it gives and its steps; returns the steps. A deadline already due passes
        first, as for a late order (the action meets the movement then open).

        The referee's own actions are here too: `forfeit` ({"seat": n}: the game's
        forfeit; the match may end, or the movement close if every seat still owing
        has ordered); `pause` and `resume` are domain/match/referee.py's.

        Raises what Table.act raises, InvalidActionError without a reason,
        MatchNotStartedError before the start, and MatchQuarantinedError while the
        match is quarantined (the referee retries it first).
        """
        self._check_may_act(referee_token_hash, action, reason)
        table = self.table()
        if self._deadline_passed(at):
            self._close(table, at)
        steps = table.act(action, args)
        dumped = normalized(table.ruleset.dump_state(table.state))
        self._record(
            self.RefereeActed,
            at,
            movement=self.movement,
            action=action,
            args=args,
            reason=reason,
            by=by,
            steps=[step.to_json() for step in steps],
            state=dumped,
            state_hash=state_hash(dumped),
            outcome=table.outcome().to_json(),
        )
        if action == FORFEIT:
            self._after_forfeit(table, at)
        return steps

    def _after_forfeit(self, table: Table, at: datetime) -> None:
        """Records what a seat's forfeit leads to at once: the end of the match, or the
        close of a movement every seat still owing has now ordered (intended at `at`)."""
        outcome = table.outcome()
        if outcome.finished:
            self._record(
                self.Finished, at, outcome=outcome.to_json(), seed=self.seed, intended_at=at
            )
        elif self.paused is None and table.is_ready():
            self._close(table, at)

    def _check_may_act(self, referee_token_hash: str, action: str, reason: str) -> None:
        """Raises unless the referee may act now: its token, a started match, a reason,
        no quarantine (a deadline due would fail again: the referee retries it first)."""
        self.check_referee(referee_token_hash)
        if not self.started:
            raise MatchNotStartedError(f"match {self.id} has not started: no referee action yet")
        if not reason.strip():
            raise InvalidActionError(f"referee action {action!r} needs a reason, got none")
        self.check_not_quarantined()

    def note_secret_viewed(self, viewer: str, what: str, at: datetime) -> None:
        """Records that the referee (or the operator) looked at secret data (seed, open orders)."""
        self._record(self.SecretViewed, at, viewer=viewer, what=what)

    def _record_refusal(
        self,
        meta: dict[str, object],
        order: str | dict[str, JSON],
        salt: str,
        error: DrtsError,
        at: datetime,
    ) -> None:
        """Records a refused order sealed like an accepted one: the order as sent and the
        reason in `sealed`, bound by a digest (docs/integrity.md); public: the error code."""
        digest, sealed = refusal_seal(normalized(order), str(error), salt)
        public = {"error": error.code, "reason": "", "digest": digest}
        self._record(self.OrderRejected, at, **meta, **public, sealed=sealed)

    def _raced(self, at: datetime) -> MovementClosedError:
        """Returns the refusal of an order received at `at`, before the intended close of
        the last movement, but processed after that close was recorded: it belonged to
        that movement, and is filed into no other (docs/operations.md, settling time)."""
        closed = self.movement - 1
        assert self.closed_at is not None
        return MovementClosedError(
            f"order received at {at.isoformat()}, before movement {closed} of match "
            f"{self.id} closed at {self.closed_at.isoformat()}, was processed after that "
            f"close was recorded (it outlived the settling time); it is not filed into "
            f"movement {self.movement}: send it again"
        )

    def _check_not_late(self, target: int, at: datetime) -> None:
        """Raises MovementClosedError, naming its close and the order's received time, if
        `target` is the movement that closed at or before `at`."""
        if self.closed_at is not None and target == self.movement - 1:
            raise MovementClosedError(
                f"movement {target} of match {self.id} is not open: it closed at "
                f"{self.closed_at.isoformat()} and the order was received at "
                f"{at.isoformat()} (movement {self.movement} is open)"
            )

    # -- recording a close and a movement's deadline ----------------------------------------

    def _close(self, table: Table, at: datetime) -> DeadlinePassed | None:
        """Applies, in order, every close due at `at`, each at its intended instant, and
        records what each did: an early close (every owing seat ordered) at its last
        order's received time; each passed deadline D at D (strikes, an extension counted
        from D, forfeits, a resolution opening the next movement from D), until the open
        deadline is later than `at`, the match ends or a movement re-arms with no order.

        Returns what the closes did together (strikes and forfeits of all, the first
        resolution), or None when nothing happened.
        """
        done: list[DeadlinePassed] = []
        while self.is_open() and self.paused is None:
            if table.is_ready():
                reason, intended = "all_ordered", self._ready_since()
            elif self._deadline_passed(at):
                assert self.deadline is not None
                reason, intended = "deadline", self.deadline
            else:
                break
            silence = table.to_move().policy.silence
            passed = table.close(deadline_passed=True)
            if not passed.acted:  # re-armed: waits for an order on its period grid
                break
            self._record_passed(table, passed, reason, str(silence), at, intended)
            done.append(passed)
        return _together(done)

    def _ready_since(self) -> datetime:
        """Returns the instant the open movement became ready: its last order's received
        time, or the referee's last act (a resume, a forfeit) if that came later."""
        last = max(p.received_at for p in self.pending)
        return last if self.clock_floor is None else max(last, self.clock_floor)

    def _record_passed(
        self,
        table: Table,
        passed: DeadlinePassed,
        reason: str,
        silence: str,
        at: datetime,
        intended: datetime,
    ) -> None:
        movement = self.movement
        for seat in passed.strikes:
            self._record(
                self.SeatStruck,
                at,
                seat=seat,
                movement=movement,
                strikes=table.strikes[seat],
                intended_at=intended,
            )
        for seat in passed.forfeited:
            self._record(
                self.SeatEliminated,
                at,
                seat=seat,
                movement=movement,
                reason=silence,
                intended_at=intended,
            )
        if passed.resolution is None:  # DW-6: the extension counts from the intended limit
            self._record(
                self.DeadlineSet,
                at,
                movement=movement,
                reason="extended",
                deadline=intended + timedelta(seconds=passed.extension_seconds),
                intended_at=intended,
            )
            return
        self._record_resolution(table, passed.resolution, reason, at, intended)

    def _record_resolution(
        self, table: Table, resolution: Resolution, reason: str, at: datetime, intended: datetime
    ) -> None:
        movement, fired = resolution.movement, self.deadline
        revealed = [
            {
                "seat": p.seat,
                "order": p.order,
                **({} if p.sent is None else {"sent": p.sent}),  # none: stored before issue 17
                "salt": p.salt,
                "digest": p.digest,
                "used": i in resolution.used,
            }
            for i, p in enumerate(self.pending)
        ]
        self._record(
            self.MovementClosed,
            at,
            movement=movement,
            reason=reason,
            orders=revealed,
            intended_at=intended,
        )
        for index, step in enumerate(resolution.steps, 1):
            self._record(self.StepApplied, at, movement=movement, index=index, **step.to_json())
        dumped = normalized(table.ruleset.dump_state(resolution.state))
        self._record(
            self.MovementResolved,
            at,
            movement=movement,
            state=dumped,
            state_hash=state_hash(dumped),
            outcome=table.outcome().to_json(),
            intended_at=intended,
        )
        # The next command's table takes the state just resolved for the JSON recorded of
        # it, rather than decoding that JSON again (issue 46: a DRTS Team 23 state decodes
        # in about 0.16 ms). The same value: load_state(dump_state(s)) == s for every state
        # a ruleset reaches (tests/conformance, the dump and load round trip).
        parsed.STATES.keep(self.state, table.ruleset, resolution.state)
        self._open(table, at, intended, fired)

    def _open(
        self, table: Table, at: datetime, intended: datetime, origin: datetime | None = None
    ) -> None:
        """Opens the table's movement at the instant `intended` (recorded at `at`): its
        deadline, `intended` plus the movement's length, or Finished. A movement that
        re-arms fires on the period grid of `origin` (the last movement's deadline), if any."""
        outcome = table.outcome()
        if outcome.finished:
            self._record(
                self.Finished, at, outcome=outcome.to_json(), seed=self.seed, intended_at=intended
            )
            return
        seconds = self._period(table)
        deadline, reason = intended + timedelta(seconds=seconds), "opened"
        if table.to_move().policy.rearm_when_empty:
            deadline = deadline if origin is None else next_firing(origin, seconds, intended)
            reason = "periodic"
        self._record(
            self.DeadlineSet,
            at,
            movement=table.movement,
            deadline=deadline,
            reason=reason,
            intended_at=intended,
        )

    def _arm(self, table: Table, at: datetime) -> None:
        """Records, when the first order of a movement that re-arms arrives, the firing that
        will resolve it: the first on the grid of its deadline later than the order."""
        if self.deadline is None or self.paused is not None:
            return  # a pause's resume moves the deadline, armed or not
        if not table.to_move().policy.rearm_when_empty:
            return
        deadline = next_firing(self.deadline, self._period(table), at)
        self._record(
            self.DeadlineSet,
            at,
            movement=self.movement,
            deadline=deadline,
            reason="armed",
            intended_at=at,
        )

    def _period(self, table: Table) -> int:
        """Returns the length in seconds of the table's movement (the match's, or the rules')."""
        seconds: int = (
            self.schedule.get("deadline_seconds") or table.to_move().policy.deadline_seconds
        )
        return seconds


def _together(done: list[DeadlinePassed]) -> DeadlinePassed | None:
    """Returns the closes in `done` as one result: every strike and forfeit, the first
    resolution and its early flag, the last extension; None for no close."""
    if not done:
        return None
    first = next((p for p in done if p.resolution is not None), done[0])
    return DeadlinePassed(
        strikes=tuple(seat for p in done for seat in p.strikes),
        forfeited=tuple(seat for p in done for seat in p.forfeited),
        extension_seconds=done[-1].extension_seconds,
        resolution=first.resolution,
        early=first.early,
    )
