"""The store of matches: the one eventsourcing application, under every use case.

It opens the event store (checking its schema, service/schema.py), stores the Match's
typed values in snapshots (service/store/transcodings.py), loads a match (at any version),
runs a command with optimistic concurrency (`retrying`), asks the scheduler for the
countdown task of each deadline it stores (`countdowns_held` holds them back), keeps
the matches between commands (service/store/matchcache.py) and reads (service/store/pastreads.py),
the read models (service/readmodels/) and the tokens (service/store/tokens.py). Each use case
is given the store (service/matches.py wires them); none inherits it.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import UTC, datetime
from typing import Any, ClassVar, TypeVar
from uuid import UUID

from eventsourcing.application import Application, ProcessingEvent
from eventsourcing.persistence import (
    ApplicationRecorder,
    IntegrityError,
    JSONTranscoder,
    Recording,
    Transcoder,
)
from eventsourcing.utils import get_topic

from domain.errors import DrtsError
from domain.match import Match
from service import schema
from service.errors import ConcurrentWriteError, MatchImportedError, MatchNotFoundError
from service.readmodels.recorders import OUTAGES
from service.readmodels.runner import ReadModels, read_models_for
from service.results import Head
from service.scheduling import NoScheduler, Scheduler, ask_for_countdowns
from service.store import eventwrite, fastforward, imported, loading
from service.store.fastforward import ReadAhead
from service.store.logguard import LogGuard
from service.store.matchcache import MatchCache, Turns, cache_size
from service.store.pastreads import PastReads, past_cache_size
from service.store.tokens import Tokens
from service.store.transcodings import (
    MatchTranscoder,
    mapper_for_snapshots,
    register_values,
    snapshot_of,
)

SNAPSHOT_INTERVAL = 25
MAX_ATTEMPTS = 10
MAX_REMEMBERED = 10_000  # matches whose imported-or-not a process remembers

T = TypeVar("T")


def utc_now() -> datetime:
    """Returns the current UTC instant."""
    return datetime.now(UTC)


class MatchStore(Application[UUID]):
    """Loads and saves matches: the use cases' store (service/matches.py wires them)."""

    name = "Matches"  # eventsourcing's: its environment prefix and table names (never changes)
    snapshotting_intervals: ClassVar[dict[Any, int]] = {Match: SNAPSHOT_INTERVAL}

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        clock: Callable[[], datetime] = utc_now,
        scheduler: Scheduler | None = None,
        operator_token: str | None = None,
    ) -> None:
        schema.prepare(env or {})
        super().__init__(env)
        self._read_models: ReadModels | None = None
        self.snapshot_trust = loading.SnapshotTrust()
        self.kept = MatchCache(
            cache_size(self.env)
        )  # between commands (service/store/matchcache.py)
        self.turns = Turns()  # one command at a time on a match (service/store/matchcache.py)
        self.past = PastReads(past_cache_size(self.env))  # for reads (service/store/pastreads.py)
        self._imported: dict[UUID, bool] = {}  # of stored matches: it never changes
        self.clock = clock
        self.scheduler: Scheduler = scheduler or NoScheduler()
        self._held_countdowns = threading.local()  # countdowns_held
        self.tokens = Tokens(operator_token)
        self._on_close: list[Callable[[], None]] = []  # before_close
        self.snapshot_mapper = mapper_for_snapshots(self.mapper)

    def construct_transcoder(self) -> Transcoder:
        """Returns the store's JSON transcoder (MatchTranscoder: the library's, decoding
        faster), or the one the environment names (TRANSCODER_TOPIC)."""
        if self.factory.env.get(self.factory.TRANSCODER_TOPIC):
            return super().construct_transcoder()
        transcoder = MatchTranscoder()
        self.register_transcodings(transcoder)
        return transcoder

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        """Registers eventsourcing's transcodings and those of the Match's typed values."""
        super().register_transcodings(transcoder)
        register_values(transcoder)

    def construct_recorder(self) -> ApplicationRecorder:
        """Returns the log's recorder: on PostgreSQL one that writes events in one
        statement (service/store/eventwrite.py), elsewhere eventsourcing's."""
        return eventwrite.application_recorder(self.factory) or super().construct_recorder()

    def save(self, *objs: Any, **kwargs: Any) -> list[Recording[UUID]]:
        """Saves matches as eventsourcing's `save` does (record, snapshot, notify), but
        collects their events directly: the library's runtime-Protocol isinstance checks
        cost more than a command (issue 30). Anything else goes to the library's `save`."""
        if kwargs or not all(type(obj) is Match for obj in objs):
            return super().save(*objs, **kwargs)
        processing_event: ProcessingEvent[UUID] = ProcessingEvent()
        for match in objs:
            processing_event.events.extend(match.collect_events())
            processing_event.aggregates[match.id] = match
        recordings = self._record(processing_event)
        self._take_snapshots(processing_event)
        self._notify(recordings)
        self.notify(processing_event.events)  # the library's deprecated hook, as it calls it
        return recordings

    def get_match(self, match_id: UUID | str, version: int | None = None) -> Match:
        """Returns the match (at a past version if given), loaded from its rows and checked
        (service/store/loading.py); raises MatchNotFoundError, or TamperedLogError naming what
        in the stored log is not sound."""
        return loading.load(self, self.match_id(match_id), version)

    def take_snapshot(
        self,
        aggregate_id: UUID,
        version: int | None = None,
        projector_func: Any = None,
    ) -> None:
        """Takes a snapshot of the match at `version` as loaded and checked (never from an
        unchecked snapshot), and remembers it as checked."""
        self._put_snapshot(self.get_match(aggregate_id, version))

    def match_ids(self) -> Iterator[UUID]:
        """Yields the id of every match in the store, oldest first (a scan of the log's
        Created events; listings read the match list read model instead)."""
        return (match_id for _, match_id in self._created_since(1))

    @staticmethod
    def match_id(match_id: UUID | str) -> UUID:
        """Returns a match id as a UUID; raises MatchNotFoundError for a malformed one."""
        if isinstance(match_id, UUID):
            return match_id
        try:
            return UUID(match_id)
        except ValueError:
            raise MatchNotFoundError(f"no match with id {match_id!r} (not a UUID)") from None

    def is_imported(self, match_id: UUID | str) -> bool:
        """Returns whether the match was imported from an archive: read-only (docs/archive.md)."""
        return imported.is_imported(self.read_models, self.match_id(match_id))

    @property
    def read_models(self) -> ReadModels:
        """Returns the read models of this store (made on first use)."""
        if self._read_models is None:
            self._read_models = read_models_for(self)
        return self._read_models

    def before_close(self, stop: Callable[[], None]) -> None:
        """Has `close` call `stop` first: a thread reading the store (the live feed's) must
        end before its connections close (an SQLite connection closed under a running
        statement crashes the process)."""
        self._on_close.append(stop)

    def close(self) -> None:
        """Stops what follows the log (the read models, and what asked `before_close`) and
        closes the store."""
        for stop in self._on_close:
            stop()
        if self._read_models is not None:
            self._read_models.close()
        super().close()

    # -- private ----------------------------------------------------------------------------

    def _take_snapshots(self, processing_event: ProcessingEvent[UUID]) -> None:
        """Takes the snapshots a save makes due: a match whose save records a version that
        is a multiple of SNAPSHOT_INTERVAL is snapshotted at its last version, as it is in
        memory. It is the fold of checked events (a checked load, a kept match
        fast-forwarded over checked events, or nothing) and of the events it has just
        recorded itself, so it equals what a reload would give, without reading and
        folding again (issue 30). A save of several events across the due version (a
        resolution) is snapshotted at its end, not reloaded at the due version: a reload
        decodes a snapshot and the movement logs grow with the match (issue 46)."""
        if self.snapshots is None:
            return
        due: dict[UUID, Match] = {}
        for event in processing_event.events:
            match = processing_event.aggregates.get(event.originator_id)
            interval = self.snapshotting_intervals.get(type(match))
            if isinstance(match, Match) and interval and not event.originator_version % interval:
                due[match.id] = match
        for match in due.values():
            self._put_snapshot(match)

    def _put_snapshot(self, match: Match) -> None:
        """Stores a snapshot of a checked match and remembers it as checked."""
        if self.snapshots is None:
            raise AssertionError("snapshots are not enabled")
        stored = self.snapshot_mapper.to_stored_event(snapshot_of(match))
        self.snapshots.recorder.insert_events([stored])
        self.snapshot_trust.trust(stored)

    def retrying(self, match_id: UUID | str, command: Callable[[Match], T]) -> T:
        """Loads the match, runs the command, saves; reloads and retries on a lost race.

        Events recorded before the command raises (a rejected order) are saved too. An
        imported match is read-only: MatchImportedError, before anything is run. The first
        attempt takes the match this process kept, brought up to date from the store; a
        retry loads it from the store. This process's commands on one match take turns
        (service/store/matchcache.py).
        """
        key = self.match_id(match_id)
        with self.turns.turn(key):  # this process's other commands on it wait their turn
            for attempt in range(MAX_ATTEMPTS):
                match = self.load_for_command(key, attempt == 0)
                self._check_writable(match)
                try:
                    result = command(match)
                except DrtsError:
                    if self._saved(match):
                        self.kept.put(match)
                        raise
                    continue
                if self._saved(match):
                    self.kept.put(match)
                    return result
        raise ConcurrentWriteError(f"match {match_id} kept changing under {MAX_ATTEMPTS} attempts")

    def _check_writable(self, match: Match) -> None:
        """Raises MatchImportedError for an imported match (docs/archive.md).

        What it found is remembered: a match whose events are stored was marked imported
        before they were written, or never will be (service/store/imported.py).
        """
        known = self._imported.get(match.id)
        if known is None:
            if len(self._imported) >= MAX_REMEMBERED:
                self._imported.clear()
            known = self._imported[match.id] = self.is_imported(match.id)
        if known:
            raise MatchImportedError(
                f"match {match.id} was imported from an archive and is read-only: it takes no "
                "orders, referee acts, deadlines or rematches (docs/archive.md)"
            )

    def remember_imported(self, found: Mapping[UUID, bool]) -> None:
        """Remembers whether each match is imported, as found by one query for many."""
        if len(self._imported) + len(found) > MAX_REMEMBERED:
            self._imported.clear()
        self._imported.update(found)

    def _saved(self, match: Match) -> bool:
        """Saves the match's new events; returns False if another writer got there first."""
        if not match.pending_events:
            return True
        try:
            self.save(match)
        except IntegrityError:
            return False
        return True

    def seat_of(self, match_id: UUID | str, token: str | None) -> int:
        """Returns the seat of a seat token (MissingTokenError, InvalidTokenError)."""
        return self.get_match(match_id).seat_of(self.tokens.seat_hash(token))

    def load_for_command(
        self, match_id: UUID, may_use_kept: bool, ahead: ReadAhead | None = None
    ) -> Match:
        """Returns the match for a command: the kept one fast-forwarded over the events
        stored since (checked; those in `ahead` when they were read after its version),
        or, if none is kept or `may_use_kept` is false, the match loaded from the store.
        The same read tells what the read models recorded of the match: TruncatedLogError
        for a log that ends before the recorded head (service/store/logguard.py)."""
        kept, guard = self.kept.take(match_id), LogGuard(self, match_id)
        if kept is None or not may_use_kept:
            match = loading.load(self, match_id, select=guard.select)
        else:
            after = (kept.version, kept.chain, kept.seed_commitment)
            if ahead is not None and ahead.version == kept.version:
                newer = loading.checked_rows(self, match_id, ahead.rows, after)
                guard.recorded = ahead.recorded
            else:
                newer = loading.checked_events(self, match_id, after, select=guard.select)
            folded = loading.fold(match_id, newer, kept)
            assert folded is not None  # folding onto a match gives a match
            match = folded
        guard.check(match)  # a log cut short takes no write (service/store/logguard.py)
        return match

    def warm(self, match_ids: Iterable[UUID], until: datetime) -> int:
        """Loads the matches not kept yet into the kept matches, one by one while the clock
        is before `until`; returns how many it loaded. A worker warms what it will resolve
        while it waits anyway (the settling time, or before a burst of deadlines): the
        resolution then only fast-forwards over the events stored since, checked as any
        kept match is (service/store/matchcache.py). A match that fails to load is skipped: its
        resolution loads it again and counts the failure."""
        loaded = 0
        for match_id in match_ids:
            if self.clock() >= until:
                break
            if self.kept.holds(match_id):
                continue
            try:
                match = self.get_match(match_id)
                match.table()  # decodes its state now, kept beside it (domain/match/parsed.py)
                self.kept.put(match)
            except OUTAGES:
                raise
            except Exception:  # the resolution meets it again and counts it
                continue
            loaded += 1
        return loaded

    def read_ahead(self, match_ids: Iterable[UUID]) -> dict[UUID, ReadAhead]:
        """Returns the rows stored after each kept match's version, read in one query
        where the store can (service/store/fastforward.py); empty where it cannot."""
        versions = {m: v for m in match_ids if (v := self.kept.version_of(m)) is not None}
        return fastforward.rows_after(self, versions) or {}

    @contextlib.contextmanager
    def countdowns_held(self) -> Iterator[None]:
        """Holds back the countdown tasks this thread's saves ask for until the block ends,
        then asks for them all (within an outer block, the outer one's end). A worker
        resolving a burst saves every batch first: sending a task costs about a
        millisecond, and it is for a later deadline. Asked for even if the block raises:
        their deadlines are stored."""
        if getattr(self._held_countdowns, "calls", None) is not None:
            yield
            return
        self._held_countdowns.calls = []
        try:
            yield
        finally:
            calls, self._held_countdowns.calls = self._held_countdowns.calls, None
            ask_for_countdowns(self.scheduler, calls)  # those due together in one task

    def _notify(self, recordings: list[Recording[UUID]]) -> None:
        """Asks the scheduler to resolve each deadline just stored (whoever stored it: a
        command, a rematch, a retried save), or holds the request (`countdowns_held`)."""
        held = getattr(self._held_countdowns, "calls", None)
        for recording in recordings:
            new = recording.domain_event
            if isinstance(new, Match.DeadlineSet) and new.reason != "periodic":
                # a movement that re-arms waits for an order; its arming asks for the task
                call = (new.originator_id, new.movement, new.deadline, self.clock())
                if held is None:
                    self.scheduler.deadline_set(*call)
                else:
                    held.append(call)

    def _created_since(self, start: int) -> Iterator[tuple[int, UUID]]:
        """Yields (log position, match id) of every Created event from position `start` on."""
        topic = get_topic(Match.Created)
        while True:
            notes = self.recorder.select_notifications(start=start, limit=500, topics=[topic])
            yield from ((note.id, UUID(str(note.originator_id))) for note in notes)
            if len(notes) < 500:
                return
            start = notes[-1].id + 1


def head_of(match: Match) -> Head:
    """Returns the head of a match as loaded, with what a command recorded on it: the
    head after the command's whole write, once saved."""
    return Head(match.version, match.chain)
