"""The referee's commands: deadlines moved, referee actions (the game's own, forfeit,
pause, resume), corrections of a resolved movement, and disputes filed and ruled.

Each takes the referee's token or the operator's (a seat may file a dispute too) and is
recorded as an event naming who acted. An act or a correction may close the open
movement or make a rematch due, so the referee's commands are given the resolution
(service/usecases/resolution.py) beside the store; service/matches.py wires them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from domain.errors import InvalidDeadlineError
from domain.integrity import commitment
from domain.match import Match
from domain.rules.contract import JSON
from service import limits
from service.errors import MissingTokenError
from service.queries import corrections, views
from service.queries.disputes import dispute_json, uncitable
from service.results import ActionTaken, CorrectionMade, Document, Superseded
from service.store.application import MatchStore, head_of
from service.usecases.resolution import Resolution

# the events that record a referee action (service `act`)
ACTED = (Match.RefereeActed, Match.Paused, Match.Resumed)


class Refereeing:
    """Moves deadlines, takes referee actions and corrections, files and rules disputes."""

    def __init__(self, store: MatchStore, resolution: Resolution) -> None:
        self.store, self.resolution = store, resolution

    def extend_deadline(
        self,
        match_id: UUID | str,
        referee_token: str | None,
        seconds: float | None = None,
        until: datetime | None = None,
        movement: int | None = None,
        reason: str | None = None,
    ) -> datetime:
        """Moves the open movement's deadline later, by `seconds` or to `until`; returns it.
        `reason`, if given, is recorded with it (DeadlineSet's `note`).

        The referee's (or the operator's) act, recorded as a DeadlineSet with
        reason "referee"; a near deadline gets its countdown task like any other.
        """
        if (seconds is None) == (until is None):
            raise InvalidDeadlineError("give either seconds to add or a new deadline (until)")
        if seconds is not None and not seconds > 0:
            raise InvalidDeadlineError(f"seconds to add must be positive, got {seconds}")
        if seconds is not None:
            limits.check_seconds(seconds)
        if movement is not None:
            limits.check_movement(movement)
        limits.check_reason(reason)

        def extend(match: Match) -> datetime:
            current = match.deadline or self.store.clock()
            deadline = until or current + timedelta(seconds=seconds or 0)
            match.extend_deadline(
                self.store.tokens.referee_hash(match, referee_token),
                match.movement if movement is None else movement,
                deadline,
                self.store.clock(),
                reason,
            )
            return deadline

        return self.store.retrying(match_id, extend)

    def act(
        self,
        match_id: UUID | str,
        referee_token: str | None,
        action: str,
        args: Mapping[str, JSON],
        reason: str,
    ) -> ActionTaken:
        """Takes a referee action (referee or operator token): one of the game's, or the
        referee's own `forfeit` ({"seat": n}), `pause` or `resume` (no arguments), each
        recorded as an event naming who acted and why (RefereeActed, Paused, Resumed);
        returns its steps and the outcome. A resume whose movement every owing seat has
        ordered closes it at once."""
        limits.check_reason(reason)
        limits.check_json(dict(args), "args")
        now, by = self.store.clock(), self.store.tokens.referee_name(referee_token)

        def act(match: Match) -> tuple[ActionTaken, bool]:
            token_hash = self.store.tokens.referee_hash(match, referee_token)
            steps = match.act(token_hash, action, dict(args), reason, by, now)
            acted = next(e for e in match.pending_events if isinstance(e, ACTED))
            taken = ActionTaken(
                match.id,
                match.movement,
                action,
                acted.originator_version,
                steps,
                views.outcome_json(match.outcome),
            )
            return taken, match.is_ready()

        with self.resolution.rematch_if_finished(match_id):
            taken, ready = self.store.retrying(match_id, act)
        if ready:  # resumed with every owing seat ordered: the movement closes now
            self.resolution.resolve_isolated(match_id, taken.movement, now)
        return taken

    def correct(
        self,
        match_id: UUID | str,
        referee_token: str | None,
        movement: int,
        changes: Sequence[Mapping[str, Any]],
        reason: str,
        dispute: int | None = None,
    ) -> CorrectionMade:
        """Corrects resolved `movement` (referee or operator token): the seats' orders in
        `changes` (`{"seat", "order"}`, an order None withdrawing the seat's, with an
        optional `received_at`) replace theirs, the movement resolves again and the later
        movements follow from the recorded inputs (service/queries/corrections.py). A rematch the
        correction voids is marked void; one a new draw asks for is created."""
        limits.check_reason(reason)
        now, by = self.store.clock(), self.store.tokens.referee_name(referee_token)
        wanted = corrections.order_changes(changes)

        def correct(match: Match) -> tuple[CorrectionMade, bool]:
            token_hash = self.store.tokens.referee_hash(match, referee_token)
            done = corrections.run(
                self.store, match, token_hash, movement, wanted, reason, by, now, dispute
            )
            corrected = next(e for e in match.pending_events if isinstance(e, Match.Corrected))
            made = CorrectionMade(
                match.id,
                movement,
                done.timeline,
                corrected.originator_version,
                Superseded(done.superseded_from, done.superseded_to),
                tuple(r.to_json() for r in done.refused),
                done.voided_rematch,
                match.movement,
                views.outcome_json(match.outcome),
                head_of(match),
            )
            return made, match.is_ready()

        made, ready = self.store.retrying(match_id, correct)
        if made.voided_rematch is not None:
            self._void(made)
        self.resolution.create_rematch_if_due(made.match_id)
        if ready:
            self.resolution.resolve_isolated(made.match_id, made.open_movement, now)
        return made

    def _void(self, made: CorrectionMade) -> None:
        """Marks void the rematch a correction voided (idempotent)."""
        assert made.voided_rematch is not None
        reason = (
            f"the correction at version {made.version} of match {made.match_id} "
            "made its draw no longer a draw"
        )
        self.store.retrying(
            UUID(made.voided_rematch),
            lambda m: m.void(str(made.match_id), made.version, reason, self.store.clock()),
        )

    def file_dispute(
        self, match_id: UUID | str, token: str | None, cites: Sequence[int], text: str
    ) -> Document:
        """Files a dispute from a seat (its token) or the referee (its token or the
        operator's), citing event versions, with a public text; recorded as a DisputeFiled
        event. Returns the dispute's public form (service/queries/disputes.py).

        A seat may cite any event but another seat's order or refusal still sealed
        (UncitableEventError); a cite the log does not hold, no cite or an empty text is an
        InvalidDisputeError."""
        return self.file_dispute_once(match_id, token, cites, text)[0]

    def file_dispute_once(
        self,
        match_id: UUID | str,
        token: str | None,
        cites: Sequence[int],
        text: str,
        idempotency_key: str | None = None,
    ) -> tuple[Document, bool]:
        """Files a dispute as `file_dispute` does; returns its public form and whether this
        call filed it. With an idempotency key, a dispute the same filer filed with that
        key is returned (False) and nothing is recorded, whatever the rest of the request
        says (as a retried create: docs/api.md)."""
        limits.check_dispute_text(text)
        versions = limits.check_cites(list(cites))
        if token is None:
            raise MissingTokenError("a dispute needs the token of a seat or of the referee")
        key_digest = None
        if idempotency_key is not None:
            limits.check_text(idempotency_key, "idempotency_key", limits.MAX_KEY_CHARS)
            key_digest = hashlib.sha256(idempotency_key.encode()).hexdigest()
        operator, now = self.store.tokens.is_operator(token), self.store.clock()

        def file(match: Match) -> tuple[Document, bool]:
            token_hash = (
                self.store.tokens.referee_hash(match, token) if operator else commitment(token)
            )
            by, filed = "operator" if operator else None, len(match.disputes)
            number = match.file_dispute(
                token_hash, versions, text, now, uncitable(self.store, match), by, key_digest
            )
            return dispute_json(match.dispute(number)), len(match.disputes) > filed

        return self.store.retrying(match_id, file)

    def rule_dispute(
        self,
        match_id: UUID | str,
        referee_token: str | None,
        number: int,
        ruling: str,
        reason: str,
    ) -> Document:
        """Rules on dispute `number` (referee or operator token): "dismissed" or "upheld",
        with a reason, recorded as a DisputeRuled event; returns the dispute as ruled.

        Upheld here is a note (its reason); a correction naming the dispute upholds it
        with the correction (`correct`, issue 19).
        A dispute is ruled on once (DisputeAlreadyRuledError)."""
        limits.check_dispute_text(reason, "reason")
        by, now = self.store.tokens.referee_name(referee_token), self.store.clock()

        def rule(match: Match) -> Document:
            token_hash = self.store.tokens.referee_hash(match, referee_token)
            return dispute_json(match.rule_dispute(token_hash, number, ruling, reason, by, now))

        return self.store.retrying(match_id, rule)
