"""Resolution: closing a movement at its deadline (or early, once ready), for one match
or for a batch of due movements together, the sweep's `resolve_due`, the rematch a
drawn match asks for (DW-5), the quarantine of a match that keeps failing and its
retry, and the countdown tasks a save asks for.

A worker on time waits out SETTLING past a deadline before it resolves. A failure that
is the match's fault is counted, and quarantines the match once it has happened
`quarantine_after` times in a row; a lost race, a database outage and an imported match
are raised instead. Given the store (service/store/application.py) and the failures in a row that
quarantine a match; the intake and the referee's commands are given it in turn, as an
order or an act may close a movement (service/matches.py wires them).
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError

from domain.errors import MovementClosedError
from domain.match import Match
from domain.table import DeadlinePassed
from service.errors import (
    ConcurrentWriteError,
    MatchImportedError,
    MatchNotFoundError,
    TruncatedLogError,
)
from service.readmodels import queries
from service.readmodels.recorders import OUTAGES, error_text
from service.results import Closing, DueMovement, QuarantinedMatch
from service.store.application import MatchStore, head_of
from service.store.fastforward import ReadAhead
from service.usecases import batches, dueoffers, quarantine

SETTLING = timedelta(milliseconds=100)  # a worker's wait past a deadline (issue 13)

logger = logging.getLogger(__name__)
# a lost race, a database outage, an imported (read-only) match: raised, never counted
NOT_THE_MATCHS_FAULT: tuple[type[Exception], ...] = (
    ConcurrentWriteError,
    MatchImportedError,
    *OUTAGES,
)


class Resolution:
    """Resolves due movements, creates the rematches they ask for, quarantines, retries."""

    sleep: Callable[[float], None] = staticmethod(time.sleep)  # waits out SETTLING

    def __init__(self, store: MatchStore, quarantine_after: int = 3) -> None:
        self.store = store
        self.quarantine_after = quarantine_after  # identical failures in a row (quarantine.py)

    def resolve(
        self, match_id: UUID | str, movement: int, now: datetime | None = None
    ) -> Closing | None:
        """Resolves `movement` if it is due (deadline passed, or ready to close early); a
        match that finishes asking for a rematch then gets it (`create_rematch_if_due`).

        Idempotent: once the movement has closed, it returns None and records nothing
        (but still creates a rematch that is due and missing, as after a crash). A
        quarantined match is left alone: None.
        """
        at = now or self._settled(match_id)

        def close(match: Match) -> tuple[Closing | None, bool]:
            if match.quarantined is not None:
                return None, False
            passed = match.close_movement(movement, at)
            closing = None if passed is None else _closing(match, movement, passed)
            return closing, match.wants_rematch()

        closing, rematch_due = self.store.retrying(match_id, close)
        rematch_id = self.create_rematch_if_due(match_id) if rematch_due else None
        return None if closing is None else replace(closing, rematch_id=rematch_id)

    def create_rematch_if_due(self, match_id: UUID | str) -> UUID | None:
        """Creates the rematch of a match whose outcome asks for one (DW-5); returns its
        id, or None when no rematch is due.

        Idempotent: the drawn match first records the rematch's id (ReplayLinked); a
        second call, or one after a crash between the two saves, finds that id and
        creates the rematch only if it is missing.
        """
        now = self.store.clock()
        rematch_id = self.store.retrying(match_id, lambda m: m.link_rematch(uuid4(), now))
        if rematch_id is None:
            return None
        try:
            self.store.get_match(rematch_id)
        except MatchNotFoundError:
            original = self.store.get_match(match_id)
            rematch = Match.rematch(original, rematch_id, secrets.token_hex(32), now)
            with contextlib.suppress(IntegrityError):  # a racing caller created it
                self.store.save(rematch)
        return rematch_id

    def resolve_isolated(
        self, match_id: UUID | str, movement: int, now: datetime | None = None
    ) -> Closing | None:
        """Resolves like `resolve`, but a failure is counted instead of raised (returning
        None), and the match quarantined once it has failed the same way
        `quarantine_after` times in a row (service/usecases/quarantine.py). A lost race
        (ConcurrentWriteError), a database outage and an imported match, which is
        read-only (MatchImportedError), are raised: not the match's fault.
        """
        closing = self._resolve_counted(match_id, movement, now)
        if closing is not None:
            quarantine.forget(self.store.read_models, closing.match_id)
        return closing

    def offer_due(self, dues: Sequence[batches.Due], by: str) -> None:
        """Offers due movements, as worker `by`, to every worker draining its held tasks
        (usecases/dueoffers.py)."""
        dueoffers.offer(self.store.read_models, dues, self.store.clock(), by)

    def take_offered(self, limit: int, offered_by: str | None = None) -> list[DueMovement]:
        """Takes up to `limit` offered due movements (only worker `offered_by`'s when given)
        that no other worker took; they are this caller's to resolve (usecases/dueoffers.py)."""
        return dueoffers.take(self.store.read_models, limit, offered_by)

    def resolve_batch(self, batch: Sequence[batches.Due]) -> list[Closing | None]:
        """Resolves each due movement of the batch like `resolve_isolated`: one that fails
        is counted (and quarantined) while the others go on. Returns what each resolution
        did, in order (None: nothing due, failed, or left to the sweep).

        Fewer round trips than one call each (service/usecases/batches.py): it settles once (loading
        its matches while it waits, `warm`), skips the imported matches found in one
        query, resolves the others in memory and saves them together, up to JOINT_SAVE
        (50) in one transaction, and forgets the successes' failure counts in one
        statement. A match whose resolution raises, and every match of a joint save
        that lost a race, is then resolved on its own, in its own transaction: counted if
        it fails, a lost race logged and left to the sweep; a database outage is raised.
        """
        imported = batches.imported_among(self.store.read_models, [due.match_id for due in batch])
        self.store.remember_imported({due.match_id: due.match_id in imported for due in batch})
        members = [due for due in batch if due.match_id not in imported]
        now = self._settled_after(
            batches.latest_deadline(batch), meanwhile=[due.match_id for due in members]
        )
        jointly: dict[int, Closing | None] = {}
        with self.store.countdowns_held():  # every group saved first
            for group in batches.in_joint_saves(batches.first_of_each_match(members)):
                jointly.update(self._resolve_jointly(group, now))
        closings = [
            None
            if due.match_id in imported
            else jointly[index]
            if index in jointly
            else self._resolve_in_batch(due, now)
            for index, due in enumerate(batch)
        ]
        resolved = [closing.match_id for closing in closings if closing is not None]
        batches.forget_failures(self.store.read_models, resolved)
        return closings

    def _resolve_jointly(
        self, members: Mapping[int, batches.Due], now: datetime
    ) -> dict[int, Closing | None]:
        """Resolves the batch's members (by index) in memory and saves them in one
        transaction; returns what each did. Left out, for `resolve_batch` to resolve on
        its own: a member whose resolution raised, and every member when the joint save
        failed (another writer got to one of them first)."""
        ahead = self.store.read_ahead(due.match_id for due in members.values())
        closed = {
            index: self._closed_in_memory(due, now, ahead.get(due.match_id))
            for index, due in members.items()
        }
        done = {index: outcome for index, outcome in closed.items() if outcome is not None}
        changed = [match for match, _, _ in done.values() if match.pending_events]
        try:
            if changed:
                self.store.save(*changed)
        except OUTAGES:
            raise
        except Exception as error:  # a lost race, or one match's events not recordable
            logger.info("a batch's joint save failed (%s); resolving each on its own", error)
            return {}
        for match, _, _ in done.values():
            self.store.kept.put(match)
        return {
            index: self._with_rematch(closing, wants) for index, (_, closing, wants) in done.items()
        }

    def _closed_in_memory(
        self, due: batches.Due, now: datetime, ahead: ReadAhead | None
    ) -> tuple[Match, Closing | None, bool] | None:
        """Returns the member's match with its movement closed (not saved), what closing
        did, and whether it asks for a rematch; None if anything raised. A kept match is
        fast-forwarded over the rows read `ahead` for its group, if any."""
        try:
            match = self.store.load_for_command(due.match_id, may_use_kept=True, ahead=ahead)
            if match.quarantined is not None:
                return match, None, False
            passed = match.close_movement(due.movement, now)
        except Exception:  # resolved again on its own, which counts or raises it
            return None
        closing = None if passed is None else _closing(match, due.movement, passed)
        return match, closing, match.wants_rematch()

    def _with_rematch(self, closing: Closing | None, wants_rematch: bool) -> Closing | None:
        """Returns a saved closing with the rematch it asks for, created (DW-5)."""
        if closing is None or not wants_rematch:
            return closing
        return replace(closing, rematch_id=self.create_rematch_if_due(closing.match_id))

    def create_missing_rematches(self) -> list[UUID]:
        """Creates the rematch of every finished match that asks for one and lacks it (a
        crash came between the draw and the rematch); returns the rematches' ids."""
        created = (
            self.create_rematch_if_due(match_id)
            for match_id in queries.rematches_due(self.store.read_models)
        )
        return [rematch_id for rematch_id in created if rematch_id is not None]

    def resolve_due(self, now: datetime | None = None) -> list[Closing]:
        """Resolves every movement due at `now`, each on its own (`resolve_isolated`: one
        that fails is counted and the rest go on); returns what each resolution did."""
        at = now or self.store.clock()
        closings = (
            self.resolve_isolated(due.match_id, due.movement, now)
            for due in queries.due(self.store.read_models, at)
        )
        return [closing for closing in closings if closing is not None]

    def retry(self, match_id: UUID | str, referee_token: str | None) -> int:
        """Lifts the match's quarantine (referee or operator token), recorded as a
        QuarantineLifted event; the sweep then tries its movement again, which it returns.
        Raises NotQuarantinedError when the match is not quarantined."""
        by, now = self.store.tokens.referee_name(referee_token), self.store.clock()
        movement = self.store.retrying(
            match_id,
            lambda m: m.lift_quarantine(self.store.tokens.referee_hash(m, referee_token), by, now),
        )
        quarantine.forget(self.store.read_models, self.store.match_id(match_id))
        return movement

    def quarantined_matches(self) -> list[QuarantinedMatch]:
        """Returns the quarantined matches, the earliest quarantined first: for each, the
        movement that kept failing, the last error, the failures in a row and when (one
        query of the `match_failures` table; what /health counts)."""
        return quarantine.quarantined(self.store.read_models)

    # -- private ----------------------------------------------------------------------------

    def _settled(self, match_id: UUID | str) -> datetime:
        """Returns now, once the open movement's deadline is at least the settling time
        past: a worker on time waits out the rest of it, so that an order received before
        the deadline and still in processing is written first (docs/operations.md)."""
        return self._settled_after(self.store.get_match(match_id).deadline)

    def _settled_after(self, deadline: datetime | None, meanwhile: Sequence[UUID] = ()) -> datetime:
        """Returns now, once `deadline` (if any) is at least the settling time past; the
        matches `meanwhile` are loaded while it waits (`warm`), so that resolving them
        after it only fast-forwards them."""
        now = self.store.clock()
        if deadline is not None and deadline <= now < deadline + SETTLING:
            self.store.warm(meanwhile, until=deadline + SETTLING)
            now = self.store.clock()
            if now < deadline + SETTLING:
                self.sleep((deadline + SETTLING - now).total_seconds())
                now = self.store.clock()
        return now

    def _resolve_counted(
        self, match_id: UUID | str, movement: int, now: datetime | None
    ) -> Closing | None:
        """`resolve`, counting a failure that is the match's fault instead of raising it."""
        try:
            return self.resolve(match_id, movement, now)
        except NOT_THE_MATCHS_FAULT:
            raise
        except TruncatedLogError:
            return None  # quarantined, and logged, when the log was found cut short
        except Exception as error:
            self._count_failure(self.store.match_id(match_id), movement, error)
            return None

    def _resolve_in_batch(self, due: batches.Due, now: datetime) -> Closing | None:
        """`_resolve_counted` for one member of a batch: a race lost ten times is logged
        and left to the sweep (the movement stays due), not raised over the others."""
        try:
            return self._resolve_counted(due.match_id, due.movement, now)
        except ConcurrentWriteError:
            logger.warning("match %s kept changing; the sweep will resolve it", due.match_id)
            return None

    def _count_failure(self, match_id: UUID, movement: int, error: Exception) -> None:
        """Counts a failed resolution and quarantines the match once it has failed the same
        way `quarantine_after` times in a row."""
        now = self.store.clock()
        failures = quarantine.count_failure(self.store.read_models, match_id, movement, error, now)
        logger.error(
            "resolving movement %s of match %s failed (%s in a row): %s",
            movement,
            match_id,
            failures,
            error_text(error),
            exc_info=error,
        )
        if failures < self.quarantine_after:
            return
        name, text = type(error).__name__, error_text(error)

        def quarantine_match(match: Match) -> bool:
            match.quarantine(movement, name, text, failures, now)
            return match.quarantined is not None

        if self.store.retrying(match_id, quarantine_match):
            quarantine.mark_quarantined(self.store.read_models, match_id, now)
            logger.error("match %s is quarantined: the sweep leaves it until a retry", match_id)

    @contextlib.contextmanager
    def rematch_if_finished(self, match_id: UUID | str) -> Iterator[None]:
        """Creates a rematch that became due when a command refused as too late (the match
        is over: MovementClosedError) had first let the due deadline pass and finish it."""
        try:
            yield
        except MovementClosedError:
            self.create_rematch_if_due(match_id)
            raise


def _closing(match: Match, movement: int, passed: DeadlinePassed) -> Closing:
    return Closing(
        match.id,
        movement,
        passed.strikes,
        passed.forfeited,
        passed.resolution is not None,
        passed.steps,
        match.finished,
        head=head_of(match),
    )
