"""Corrections (issue 19): the referee re-resolves a past movement with changed orders,
and the later movements follow from the match's recorded inputs.

`correct` records `Corrected` (domain/match/timelines.py: the restart and the
superseded range), files the changed orders, then plays the recorded inputs of the
superseded range again, in the order they were processed, each at its own instant:
orders at their received times (each checked again: one no longer legal is refused,
recorded as OrderRejected, and listed in the report), the referee's acts at theirs,
and each close at the instant a worker processed it, so every deadline passes at its
intended instant as the time rules say. Last, what has fallen due by the correction's
instant passes. Nothing it does reads a clock: the instants are the log's.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.errors import DrtsError, InvalidActionError, UnknownSeatError
from domain.integrity import normalized, order_seal
from domain.match.disputes import MatchDisputes
from domain.match.lobby import MatchLobby
from domain.match.referee import MatchReferee
from domain.match.timelines import CLOSE_EVENTS, restart_of
from domain.rules.contract import JSON
from domain.table import PAUSE, RESUME

CORRECTION = "correction"  # the source of an order the referee filed by a correction
PART = "refused_part"  # a report's error for an order that stands without some of its parts


@dataclass(frozen=True)
class OrderChange:
    """One seat's orders for the corrected movement: replaced by `order` (as sent, with
    its `salt` and the instant it counts as received), or withdrawn (`order` None)."""

    seat: int
    order: JSON
    salt: str
    received_at: datetime | None = None  # None: when the movement closed in the log


@dataclass(frozen=True)
class Refusal:
    """A recorded input of the superseded range that the new timeline refused."""

    version: int
    type: str
    seat: int | None
    error: str
    reason: str

    def to_json(self) -> dict[str, JSON]:
        return {
            "version": self.version,
            "type": self.type,
            "seat": self.seat,
            "error": self.error,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Correction:
    """What a correction did: the new timeline, the range it superseded, the inputs it
    refused, and the rematch it voided (a draw that is no longer one), if any."""

    timeline: int
    superseded_from: int
    superseded_to: int
    refused: tuple[Refusal, ...]
    voided_rematch: str | None


class MatchCorrections(MatchLobby, MatchDisputes):
    """The referee's correction of a resolved movement."""

    def correct(
        self,
        referee_token_hash: str,
        past: MatchReferee,
        inputs: Sequence[Any],
        changes: Sequence[OrderChange],
        reason: str,
        by: str,
        at: datetime,
        dispute: int | None = None,
    ) -> Correction:
        """Re-resolves movement `past.movement` with `changes` and plays `inputs` again
        (module docstring). `past` is this match as it stood before that movement's
        close (timelines.restart_version), `inputs` the current timeline's events after
        it. Raises InvalidActionError (no reason, no change, a seat twice),
        UnknownSeatError, what filing a changed order raises (an illegal one), and for
        a `dispute` it rules on (upheld, naming this correction) UnknownDisputeError or
        DisputeAlreadyRuledError.
        """
        self._check_may_act(referee_token_hash, "correct", reason)
        self._check_changes(changes)
        if dispute is not None:
            self.check_may_rule(dispute)
        last = self.version
        run = _Rerun(past, inputs, changes, reason, by, at, dispute)
        rehearsal = copy.deepcopy(self)  # a first pass finds what the report will say
        refused, rematch = rehearsal._rerun(run, (), None)
        self._rerun(run, refused, rematch)
        if dispute is not None:  # the dispute it rules on is upheld with it
            self.rule_dispute(referee_token_hash, dispute, "upheld", reason, by, at, last + 1)
        return Correction(self.timeline, past.version + 1, last, refused, rematch)

    def void(self, original_id: str, correction: int, reason: str, at: datetime) -> bool:
        """Records that this rematch is void (its original is no longer a draw); returns
        False, recording nothing, when it is void already."""
        if self.voided is not None:
            return False
        outcome = self.outcome if self.finished else None
        self._record(
            self.Voided,
            at,
            original_id=original_id,
            correction=correction,
            reason=reason,
            voided_outcome=outcome,
        )
        return True

    def _check_changes(self, changes: Sequence[OrderChange]) -> None:
        if not changes:
            raise InvalidActionError("a correction needs at least one changed order")
        seats = [change.seat for change in changes]
        for seat in seats:
            if not 1 <= seat <= len(self.seats):
                raise UnknownSeatError(f"match {self.id} has no seat {seat}")
        if len(set(seats)) != len(seats):
            raise InvalidActionError("a correction names each seat once")

    def _rerun(
        self, run: _Rerun, refused: Sequence[Refusal], voided_rematch: str | None
    ) -> tuple[tuple[Refusal, ...], str | None]:
        """Records the correction (its report `refused` and the rematch it voids, as a
        first pass found them); returns what this pass refused and the rematch to void."""
        tokens = {seat.number: seat.token_hash for seat in self.seats}
        self._record(
            self.Corrected,
            run.at,
            movement=run.past.movement,
            timeline=self.timeline + 1,
            superseded_from=run.past.version + 1,
            superseded_to=self.version,
            changes=[{"seat": c.seat, "order": c.order} for c in run.changes],
            reason=run.reason,
            by=run.by,
            dispute=run.dispute,
            restart=restart_of(run.past),
            voided_outcome=self.outcome if self.finished else None,
            voided_rematch=voided_rematch,
            refused=[r.to_json() for r in refused],
        )
        closed_at = _first_close(run.inputs)
        for change in run.changes:
            if change.order is not None:
                self._file(change, change.received_at or closed_at)
        found = [self._replay_input(event, tokens) for event in run.inputs]
        self._close(self.table(), run.at)
        return tuple(r for r in found if r is not None), self._voided(voided_rematch)

    def _voided(self, voided: str | None) -> str | None:
        """Returns the rematch a correction voids: the one linked before it, now that the
        corrected match no longer asks for one (a draw that is no longer a draw)."""
        if voided is not None or self.rematch_id is None or self.wants_rematch():
            return voided
        return self.rematch_id

    def _file(self, change: OrderChange, received_at: datetime) -> None:
        """Files a changed order for the corrected movement (the referee's ruling: no
        deadline or early close applies to it; the rules check it as any order)."""
        table = self.table()
        screened = table.submit_screened(change.seat, change.order)
        dumped = normalized(table.ruleset.dump_order(screened.order))
        digest, sealed = order_seal(dumped, normalized(change.order), change.salt)
        self._record(
            self.OrderSubmitted,
            received_at,
            seat=change.seat,
            movement=self.movement,
            received_at=received_at,
            source=CORRECTION,
            message_id=None,
            digest=digest,
            ready=False,
            sealed=sealed,
        )

    def _replay_input(self, event: Any, tokens: Mapping[int, str]) -> Refusal | None:
        """Plays one recorded event again if it is an input (an order, a referee's act,
        a close a worker ran); returns its refusal, or None."""
        kind = type(event).__name__
        try:
            if kind == "OrderSubmitted":
                return self._order_again(event)
            self._again(kind, event, tokens)
        except DrtsError as error:
            seat = getattr(event, "seat", None)
            return Refusal(event.originator_version, kind, seat, error.code, str(error))
        return None

    def _again(self, kind: str, event: Any, tokens: Mapping[int, str]) -> None:
        referee = self.referee_token_hash
        if kind in CLOSE_EVENTS:
            self._close(self.table(), event.timestamp)
        elif kind == "DeadlineSet" and event.reason == "referee":
            self.extend_deadline(
                referee, event.movement, event.deadline, event.timestamp, event.note
            )
        elif kind == "RefereeActed":
            self.act(referee, event.action, event.args, event.reason, event.by, event.timestamp)
        elif kind in ("Paused", "Resumed"):
            action = PAUSE if kind == "Paused" else RESUME
            self.act(referee, action, {}, event.reason, event.by, event.timestamp)
        elif kind == "SeatAdded":  # the seat keeps the token it holds now
            self.join(event.name, tokens.get(event.seat, event.token_hash), event.timestamp)

    def _order_again(self, event: Any) -> Refusal | None:
        """Submits a recorded order again as it was received; returns the refusal of the
        parts of it that no longer stand (the rest stands), if any."""
        sealed = event.sealed
        sent = sealed.get("sent", sealed["order"])
        if event.source == CORRECTION:  # a ruling of an earlier correction stands
            change = OrderChange(event.seat, sent, sealed["salt"])
            self._file(change, event.received_at)
            return None
        receipt = self.submit_order(
            self.seats[event.seat - 1].token_hash,
            sent,
            sealed["salt"],
            event.received_at,
            event.source,
            event.message_id,
            event.movement,
        )
        if not receipt.refused:
            return None
        parts = "; ".join(f"{part.part!r}: {part.reason}" for part in receipt.refused)
        reason = f"part of the order no longer stands: {parts}"
        return Refusal(event.originator_version, "OrderSubmitted", event.seat, PART, reason)


@dataclass(frozen=True)
class _Rerun:
    """What a correction plays: the match before the corrected close, the inputs after
    it, the changed orders, and the referee's act (reason, who, when, the dispute)."""

    past: MatchReferee
    inputs: Sequence[Any]
    changes: Sequence[OrderChange]
    reason: str
    by: str
    at: datetime
    dispute: int | None


def _first_close(inputs: Sequence[Any]) -> datetime:
    """Returns the instant the corrected movement closed in the log (its MovementClosed's
    intended instant, or its timestamp for one stored before those)."""
    closed = next(e for e in inputs if type(e).__name__ == "MovementClosed")
    instant: datetime = closed.intended_at or closed.timestamp
    return instant
