"""Keeping the read models up to date: catch up, rebuild, follow the log live, or poll.

- `catch_up()` pulls whatever the log holds past each projection's tracked
  position (in batches of one transaction each) and applies it. Idempotent:
  an event already applied, here or by another process, is skipped by its
  tracking row. Queries call it first, so they read their own writes.
- `rebuild(name)` empties a projection and replays the whole log into it in
  one transaction: readers see the old rows until it commits, and other
  processes applying events wait for it, then skip what it did. It also
  clears the projection's quarantine: a match left out is applied again (and
  left out again if its event still fails).
- `quarantined()` lists the (projection, match) pairs left out because one of
  the match's events failed to apply (recorders.py); `quarantine_count()`
  counts them in one query, for a health check.
- `start()`: on PostgreSQL a thread follows the log live, woken by LISTEN/NOTIFY,
  in one process per database at a time (`Follower`); on SQLite, which has no
  notifications, a timer thread calls `catch_up()` every few seconds.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from eventsourcing.application import Application
from eventsourcing.persistence import Notification, Tracking
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.projection import Projection
from eventsourcing.sqlite import SQLiteDatastore
from psycopg.sql import SQL, Identifier

from service.readmodels.mailout import MailOutbox
from service.readmodels.projections import PROJECTIONS, ReadModel
from service.readmodels.ratings import RatedMatches
from service.readmodels.recorders import QUARANTINE, PostgresView, Quarantined, SQLiteView, View
from service.readmodels.tables import PROJECTION_NAMES
from service.schema import MemoryDatabase

BATCH = 500  # events per catch-up transaction
DECODED_KEPT = 2 * BATCH  # decoded events a catch-up keeps for its other projections
# the read models, then the mail outbox (its own module: it reads the mail tables) and
# the rated matches (their own module: what the ratings fold, issue 45)
ALL_PROJECTIONS: tuple[type[ReadModel], ...] = (*PROJECTIONS, MailOutbox, RatedMatches)
logger = logging.getLogger(__name__)


class UnknownProjectionError(LookupError):
    """Raised when a projection name is not one of PROJECTIONS."""

    code = "unknown_projection"


@dataclass(frozen=True)
class Progress:
    """Where a projection stands: its last processed log position, the log's last, and
    how many of its events are waiting (at most BATCH + 1 are counted).
    """

    name: str
    position: int
    head: int
    pending: int


class ReadModels:
    """The projections of one application's log, with views in the given datastore."""

    def __init__(
        self,
        app: Application[Any],
        datastore: PostgresDatastore | SQLiteDatastore,
        live: bool,
        interval: float = 2.0,
    ) -> None:
        self.app, self.live, self.interval = app, live, interval
        self.projections: dict[str, Projection[View]] = {
            cls.name: cls(view=_view(datastore, cls.name)) for cls in ALL_PROJECTIONS
        }
        self._locks = {name: threading.Lock() for name in self.projections}
        self._thread: Follower | Timer | None = None
        self._deferrals = 0  # blocks of `deferring` running in this process
        self._deferrals_lock = threading.Lock()
        self.undeferred = threading.Event()  # set when none runs: the follower may catch up
        self.undeferred.set()

    @contextmanager
    def deferring(self) -> Iterator[None]:
        """While the block runs, this process's follower defers its catch-ups (for at most
        Follower.MAX_DEFERRAL seconds), so that the process's CPU goes to the block: a
        worker draining a burst of deadlines (issue 46; py-spy: the leading worker's
        follower took more of its process than the drain did). Reads need no follower:
        each catches up what it reads first, and the deadlines' sweep too."""
        with self._deferrals_lock:
            self._deferrals += 1
            self.undeferred.clear()
        try:
            yield
        finally:
            with self._deferrals_lock:
                self._deferrals -= 1
                if not self._deferrals:
                    self.undeferred.set()

    def view(self, name: str) -> View:
        """Returns a projection's view (its tables and tracking row)."""
        return self.projection(name).view

    def projection(self, name: str) -> Projection[View]:
        """Returns a projection by name; raises UnknownProjectionError."""
        try:
            return self.projections[name]
        except KeyError:
            raise UnknownProjectionError(
                f"no projection named {name!r}: use one of {', '.join(self.projections)}"
            ) from None

    def catch_up(self, names: Iterable[str] | None = None) -> dict[str, int]:
        """Applies the events past each projection's position; returns how many each applied.

        An event read by several projections is decoded once (issue 30)."""
        decoded = _Decoded(self.app)
        return {
            name: self._catch_up(self.projection(name), decoded)
            for name in (self.projections if names is None else names)
        }

    def rebuild(self, name: str) -> int:
        """Empties a projection and replays the whole log into it; returns the events applied."""
        projection = self.projection(name)
        with self._locks[name], projection.view.batch():
            projection.view.reset(self.app.name)
            return self._apply_from(projection, 0)

    def progress(self) -> list[Progress]:
        """Returns each projection's position, the log's head, and its waiting events."""
        head = self.app.recorder.max_notification_id() or 0
        return [self._progress(projection, head) for projection in self.projections.values()]

    def quarantined(self) -> list[Quarantined]:
        """Returns the (projection, match) pairs left out since an event failed to apply."""
        return [item for p in self.projections.values() for item in p.view.quarantined()]

    def quarantine_count(self) -> int:
        """Returns how many (projection, match) pairs are left out (one query; for /health)."""
        rows = self.view(PROJECTION_NAMES[0]).query(f"SELECT COUNT(*) AS n FROM {{{QUARANTINE}}}")
        return int(rows[0]["n"])

    def apply(self, projection: Projection[View], domain_event: Any, tracking: Tracking) -> None:
        """Applies one event to one projection (skipped if its position was processed)."""
        with self._locks[projection.name]:
            projection.process_event(domain_event, tracking)

    def start(self) -> None:
        """Starts following the log: live on PostgreSQL, every `interval` seconds on SQLite."""
        if self._thread is None:
            self._thread = Follower(self) if self.live else Timer(self)
            self._thread.start()

    def stop(self) -> None:
        """Stops following the log (waits for the thread to finish)."""
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.stop()

    def close(self) -> None:
        """Stops following the log and lets go of what the read models hold."""
        self.stop()

    # -- private ----------------------------------------------------------------------------

    def _progress(self, projection: Projection[View], head: int) -> Progress:
        position = projection.view.position(self.app.name)
        waiting = self.app.recorder.select_notifications(
            start=position, limit=BATCH + 1, topics=projection.topics, inclusive_of_start=False
        )
        return Progress(projection.name, position, head, len(waiting))

    def _catch_up(self, projection: Projection[View], decoded: _Decoded) -> int:
        with self._locks[projection.name]:
            return self._apply_from(projection, projection.view.position(self.app.name), decoded)

    def _apply_from(
        self, projection: Projection[View], position: int, decoded: _Decoded | None = None
    ) -> int:
        """Applies the projection's events after `position`, a batch per transaction
        (or all in the caller's batch, if it has one), each batch with one tracking write
        unless one of its events fails (View.apply_batch); `decoded`: the catch-up's
        events decoded for its projections so far.
        """
        decoded = decoded or _Decoded(self.app)
        applied = 0
        while True:
            notifications = self.app.recorder.select_notifications(
                start=position, limit=BATCH, topics=projection.topics, inclusive_of_start=False
            )
            if notifications:
                events = [decoded.event(notification) for notification in notifications]
                apply_each = functools.partial(_process_all, projection, events)
                projection.view.apply_batch(self.app.name, notifications[-1].id, apply_each)
            applied += len(notifications)
            if len(notifications) < BATCH:  # the log's end, as of this read
                return applied
            position = notifications[-1].id


class _Decoded:
    """The events of the log's notifications for the projections of one catch-up, the
    first DECODED_KEPT of them kept once decoded (an event is frozen, and projections
    only read it): a burst's events are decoded once, not once a projection."""

    def __init__(self, app: Application[Any]) -> None:
        self.app = app
        self._events: dict[int, tuple[Any, Tracking]] = {}

    def event(self, notification: Notification) -> tuple[Any, Tracking]:
        """Returns the domain event and tracking of a notification."""
        found = self._events.get(notification.id)
        if found is None:
            found = (
                self.app.mapper.to_domain_event(notification),
                Tracking(self.app.name, notification.id),
            )
            if len(self._events) < DECODED_KEPT:
                self._events[notification.id] = found
        return found


def _process_all(projection: Projection[View], events: list[tuple[Any, Tracking]]) -> None:
    """Applies a batch's events in order, after what the projection reads for them
    (`ReadModel.before_batch`: the match list's recorded heads)."""
    model = projection if isinstance(projection, ReadModel) else None
    if model is not None:
        model.before_batch(events)
    try:
        for domain_event, tracking in events:
            projection.process_event(domain_event, tracking)
    finally:
        if model is not None:
            model.after_batch()


def _view(datastore: PostgresDatastore | SQLiteDatastore, projection: str) -> View:
    if isinstance(datastore, PostgresDatastore):
        return PostgresView(datastore, projection)
    return SQLiteView(datastore, projection)


class Timer(threading.Thread):
    """Calls `catch_up()` every `interval` seconds until stopped (SQLite has no subscriptions)."""

    def __init__(self, read_models: ReadModels) -> None:
        super().__init__(name="drts-read-models-timer", daemon=True)
        self.read_models = read_models
        self._stopping = threading.Event()

    def run(self) -> None:
        while not self._stopping.wait(self.read_models.interval):
            try:
                self.read_models.catch_up()
            except Exception:  # a locked or unreachable database: try again next time
                logger.exception("catching up the read models failed; retrying")

    def stop(self) -> None:
        self._stopping.set()
        self.join()


class Follower(threading.Thread):
    """Keeps the read models up to date on PostgreSQL, one process per database at a time.

    Every API process starts one (every Celery worker process instead under
    DRTS_FOLLOW_LOG=worker: service/settings.py), but only the one holding the lead (a PostgreSQL
    advisory lock, held on its own connection for as long as it follows) does the
    work: woken by the event store's NOTIFY, it catches up every projection in
    batches (`catch_up`: one transaction per projection per batch), at most every
    `PAUSE` seconds, so a burst of events costs a few transactions, not one per event
    per projection per process. The others try for the lead every `interval` seconds:
    when the leader stops or its process dies, its session ends, the lock is free and
    another takes over. Every query catches up first anyway, so a process that does
    not lead still reads its own writes. On an error it logs, lets go of the lead,
    waits `interval` seconds and tries again.
    """

    PAUSE = 0.05  # seconds between two catch-ups: the events of a burst share one
    MAX_DEFERRAL = 5.0  # seconds a catch-up waits for a block of `deferring` at most
    WAIT = 0.5  # seconds a wait for a notification lasts (how soon `stop` is seen)

    def __init__(self, read_models: ReadModels) -> None:
        super().__init__(name="drts-read-models-follower", daemon=True)
        self.read_models = read_models
        self.subscribed = threading.Event()  # set while this process leads and listens
        self._stopping = threading.Event()

    def run(self) -> None:
        while not self._stopping.is_set():
            try:
                self._lead()
            except Exception:
                logger.exception("following the log failed; trying again")
            self.subscribed.clear()
            self._stopping.wait(self.read_models.interval)

    def stop(self) -> None:
        self._stopping.set()
        self.join()

    def _lead(self) -> None:
        """Follows the log while this process holds the lead; returns at once if another
        process holds it."""
        recorder = self.read_models.app.recorder
        assert isinstance(recorder, PostgresApplicationRecorder)
        key = f"drts read models: {recorder.datastore.schema}.{recorder.events_table_name}"
        with recorder.datastore.get_connection() as conn:
            taken = conn.execute("SELECT pg_try_advisory_lock(hashtext(%s)) AS led", (key,))
            if not (taken.fetchone() or {}).get("led"):
                return
            try:
                conn.execute(SQL("LISTEN {0}").format(Identifier(recorder.channel_name)))
                self._follow(conn)
            finally:
                conn.execute("SELECT pg_advisory_unlock_all()")

    def _follow(self, conn: Any) -> None:
        """Catches up, then again after each wake-up, until stopped. Nothing is missed:
        the connection listens before the first catch-up, and PostgreSQL queues every
        notification of a commit after that for it."""
        self.read_models.catch_up()
        self.subscribed.set()
        while not self._stopping.is_set():
            woken = any(True for _ in conn.notifies(timeout=self.WAIT, stop_after=1))
            if woken and not self._stopping.wait(self.PAUSE):
                self.read_models.undeferred.wait(self.MAX_DEFERRAL)
                self.read_models.catch_up()


def read_models_for(app: Application[Any], interval: float = 2.0) -> ReadModels:
    """Returns the read models of an application, in its own database."""
    datastore = getattr(app.factory, "datastore", None)
    if isinstance(datastore, PostgresDatastore):
        return ReadModels(app, datastore, live=True, interval=interval)
    if isinstance(datastore, SQLiteDatastore):
        return ReadModels(app, datastore, live=False, interval=interval)
    return MemoryReadModels(app, interval)


class MemoryReadModels(ReadModels):
    """Read models of an in-memory application, in a private in-memory SQLite database."""

    def __init__(self, app: Application[Any], interval: float) -> None:
        self.database = MemoryDatabase()
        self.datastore = SQLiteDatastore(self.database.uri)
        super().__init__(app, self.datastore, live=False, interval=interval)

    def close(self) -> None:
        super().close()
        self.datastore.close()
        self.database.close()
