"""Materialised views: eventsourcing tracking recorders that write a projection's rows
and its tracking row in one transaction, on PostgreSQL and on SQLite.

A projection says what to write as statements (SQL with `{table}` names and
`:name` parameters, written once for both databases); its view runs them
after recording the tracking row, so an event is applied exactly once: a
second attempt finds its position already tracked and changes nothing. A
catch-up batch (`apply_batch`) keeps other writers of the tracking row out
for its transaction, skips the events at or before the position it reads,
and writes the tracking row once, at the batch's end: the same guarantee,
with one tracking write a batch instead of one an event.

Each projection has its own tracking table, `<projection>_tracking`, with
eventsourcing's single-row layout (one row per upstream application, holding
the last position processed). On SQLite eventsourcing would name it
`tracking` whatever the projection, so the SQLite view renames its statements.

One bad event never stops a projection: when an event's statements fail (a
value the database refuses, a handler that raises), the view rolls back to a
savepoint taken before them, deletes what the projection holds of that match,
records (projection, match, position, error) in `projection_quarantine`,
records the tracking row, and goes on; the match's later events are skipped
by this projection until a rebuild (`reset`) clears its quarantine. A batch
on the fast path has no savepoint an event: when one of its events fails, all
the batch did is rolled back and it is applied again event by event. Errors
that mean the database itself cannot be used now (a lost connection, a lock
timeout) are raised instead, so that the batch is tried again later.
"""

from __future__ import annotations

import logging
import re
import sqlite3
import threading
from abc import abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast
from uuid import UUID

import psycopg
from eventsourcing import persistence
from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder
from psycopg.errors import PipelineAborted
from psycopg.sql import SQL, Identifier
from sqlalchemy import Boolean, DateTime, Uuid

from service.readmodels.tables import (
    FORUM_TABLES,
    MAIL_TABLES,
    PROJECTION_TABLES,
    due_offers,
    imported_matches,
    match_failures,
    metadata,
    page_sessions,
    projection_quarantine,
    sweep_status,
)

Statement = tuple[str, Mapping[str, Any]]
QUARANTINE = projection_quarantine.name
FAILURES = match_failures.name
SWEEP_STATUS = sweep_status.name
IMPORTED = imported_matches.name
DUE_OFFERS = due_offers.name
# tables of no one projection: a reset leaves them, and every view may name them
SHARED = (
    QUARANTINE,
    FAILURES,
    SWEEP_STATUS,
    IMPORTED,
    DUE_OFFERS,
    *(table.name for table in (*MAIL_TABLES, *FORUM_TABLES, page_sessions)),
)
MAX_ERROR_CHARS = 1000
# The database cannot be used now: raised, never a reason to leave a match out.
OUTAGES: tuple[type[Exception], ...] = (
    psycopg.OperationalError,
    psycopg.InterfaceError,
    sqlite3.OperationalError,
    sqlite3.InterfaceError,
    persistence.OperationalError,
    persistence.InterfaceError,
)
logger = logging.getLogger(__name__)
SQLITE_TIME = "%Y-%m-%d %H:%M:%S.%f"  # SQLAlchemy's own SQLite format: sorts as time
PARAMETER = re.compile(r"(?<![:\w]):(\w+)")


def _column_kinds() -> dict[str, str]:
    """Returns the kind ("uuid", "time", "bool") of every read-model column that has one."""
    kinds = {}
    for table in metadata.tables.values():
        for column in table.columns:
            for sql_type, kind in ((Uuid, "uuid"), (DateTime, "time"), (Boolean, "bool")):
                if isinstance(column.type, sql_type):
                    kinds[column.name] = kind
    return kinds


KINDS = _column_kinds()  # a column name means the same kind in every table


@dataclass(frozen=True)
class Quarantined:
    """A match a projection leaves out: the event it failed to apply, and why."""

    projection: str
    match_id: UUID
    position: int
    event_type: str
    error: str
    quarantined_at: datetime


class _EventFailed(Exception):
    """An event's statements failed on the fast path: its batch is applied event by event."""


class View(TrackingRecorder):
    """A projection's tables and tracking row; `apply` writes both in one transaction."""

    def __init__(self, projection: str) -> None:
        self.projection = projection
        own = PROJECTION_TABLES[projection]
        self.tables = {table.name: self._table_name(table.name) for table in own}
        self.match_tables = [self.tables[table.name] for table in own if "match_id" in table.c]
        self.tables.update({name: self._table_name(name) for name in SHARED})
        self.tracking_table = f"{projection}_tracking"
        self._local = threading.local()

    def apply(
        self,
        tracking: Tracking,
        match_id: UUID,
        event_type: str,
        statements: Callable[[], Sequence[Statement]],
    ) -> bool:
        """Records the tracking row and the statements one event of a match writes; returns
        False (and writes nothing) when this position was already processed.

        Skips the statements of a match this projection quarantined; quarantines the
        match when they fail (module docstring). Raised: the errors of OUTAGES.
        """
        fast_from: int | None = getattr(self._local, "fast_from", None)
        if fast_from is not None:
            return self._apply_fast(fast_from, tracking, match_id, statements)
        with self._cursor() as cursor:
            try:
                self._track(cursor, tracking)
            except IntegrityError:
                return False
            if match_id in self._quarantined(cursor):
                return True
            cursor.execute("SAVEPOINT drts_event")
            error = self._run(cursor, statements)
            if error is not None:
                cursor.execute("ROLLBACK TO SAVEPOINT drts_event")
                self._quarantine(cursor, match_id, tracking, event_type, error)
            cursor.execute("RELEASE SAVEPOINT drts_event")
            return True

    def apply_batch(self, application_name: str, last: int, apply_each: Callable[[], None]) -> None:
        """Runs `apply_each`, which `apply`s a batch's events in log order (the last at log
        position `last`), in one transaction (or the caller's batch), with one tracking write.

        Fast path: other writers of the tracking row are kept out, the position is read,
        each event after it has its statements run with no tracking write nor savepoint
        of its own (events at or before it were applied by another process: skipped),
        then the tracking row is written once, at `last`. When an event's statements fail,
        all the fast path did is rolled back and `apply_each` runs again with per-event
        tracking and savepoints, quarantining the match (module docstring): the outcome
        is the per-event path's. On PostgreSQL the fast path's statements are pipelined
        (psycopg's pipeline mode): they do not wait for each other's results. Raised: the
        errors of OUTAGES.

        In the caller's batch the fast path runs after a savepoint, rolled back to when it
        fails; in a transaction of its own it needs none (issue 46: statements a catch-up):
        a failed fast path rolls the whole transaction back, and the per-event path runs
        in a new one.
        """
        if self._in_batch():
            with self._cursor() as cursor:
                self._lock_tracking(cursor)
                position = self._tracked_and_left_out(cursor, application_name)
                cursor.execute("SAVEPOINT drts_batch")
                if not self._fast_batch(cursor, application_name, last, apply_each, position):
                    cursor.execute("ROLLBACK TO SAVEPOINT drts_batch")
                    apply_each()
                cursor.execute("RELEASE SAVEPOINT drts_batch")
            return
        try:
            with self.batch(), self._cursor() as cursor:
                self._lock_tracking(cursor)
                position = self._tracked_and_left_out(cursor, application_name)
                if not self._fast_batch(cursor, application_name, last, apply_each, position):
                    raise _EventFailed  # rolls the transaction back
        except _EventFailed:
            with self.batch(), self._cursor() as cursor:
                self._lock_tracking(cursor)
                apply_each()

    def _fast_batch(
        self,
        cursor: Any,
        application_name: str,
        last: int,
        apply_each: Callable[[], None],
        position: int,
    ) -> bool:
        """Runs the batch on the fast path from `position` and tracks `last`; returns
        False, having tracked nothing, when one of its events failed."""
        if not self._applied_fast(apply_each, position):
            return False
        if last > position:
            self._track(cursor, Tracking(application_name, last))
        return True

    def quarantined(self) -> list[Quarantined]:
        """Returns the matches this projection leaves out, in log order."""
        rows = self.query(
            "SELECT projection, match_id, position, event_type, error, quarantined_at "
            f"FROM {{{QUARANTINE}}} WHERE projection = :projection ORDER BY position",
            {"projection": self.projection},
        )
        return [Quarantined(**row) for row in rows]

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Runs every `apply` and `reset` of this thread inside one transaction."""
        if getattr(self._local, "cursor", None) is not None:
            yield
            return
        with self._transaction(commit=True) as cursor:
            self._local.cursor = cursor
            try:
                yield
            finally:
                self._local.cursor = self._local.quarantined = None

    def reset(self, application_name: str) -> None:
        """Deletes every row of the projection and forgets its position (use in a batch).

        Other processes applying events wait until the batch commits, then skip what
        it applied: the tracking table is locked before anything is deleted.
        """
        with self._cursor() as cursor:
            self._lock_tracking(cursor)
            self._execute(
                cursor,
                f"DELETE FROM {self._table_name(self.tracking_table)} "
                "WHERE application_name = :name",
                {"name": application_name},
            )
            for name, table in self.tables.items():
                if name not in SHARED:
                    self._execute(cursor, f"DELETE FROM {table}", {})
            self._execute(
                cursor,
                f"DELETE FROM {{{QUARANTINE}}} WHERE projection = :projection",
                {"projection": self.projection},
            )
            if self._in_batch():
                self._local.quarantined = set()

    def query(self, sql: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Returns the rows of a SELECT, with ids as UUIDs and times as aware UTC datetimes."""
        with self._transaction(commit=False) as cursor:
            self._execute(cursor, sql, params or {})
            return [
                {key: self._decode(key, value) for key, value in dict(row).items()}
                for row in cursor.fetchall()
            ]

    def select(self, sql: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Returns the rows of a SELECT run in this thread's batch transaction (in its own
        outside a batch), decoded as `query` decodes them: what a batch reads of the rows
        it is about to change."""
        with self._cursor() as cursor:
            self._execute(cursor, sql, params or {})
            return [
                {key: self._decode(key, value) for key, value in dict(row).items()}
                for row in cursor.fetchall()
            ]

    def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Runs one statement in its own transaction and commits; returns the rows of its
        RETURNING clause (none without one), decoded as `query` decodes them."""
        with self._transaction(commit=True) as cursor:
            self._execute(cursor, sql, params or {})
            rows = cursor.fetchall() if " RETURNING " in sql else []
            return [
                {key: self._decode(key, value) for key, value in dict(row).items()} for row in rows
            ]

    def execute_many(self, sql: str, rows: Sequence[Mapping[str, Any]]) -> None:
        """Runs one statement once for each row of parameters, in one transaction, and
        commits (psycopg sends them without a round trip each)."""
        with self._transaction(commit=True) as cursor:
            cursor.executemany(
                self._statement(sql.format_map(self.tables)),
                [{key: self._encode(value) for key, value in row.items()} for row in rows],
            )

    def execute_alone(self, sql: str, params: Mapping[str, Any] | None = None) -> None:
        """Runs one write statement as its own transaction in autocommit (issue 46): one
        statement sent, not BEGIN, the statement and COMMIT; its outcome is `execute`'s."""
        with self._autocommit() as cursor:
            self._execute(cursor, sql, params or {})

    def position(self, application_name: str) -> int:
        """Returns the last log position processed (0 when none)."""
        return self.max_tracking_id(application_name) or 0

    # -- backend ----------------------------------------------------------------------------

    @abstractmethod
    def _table_name(self, name: str) -> str:
        """Returns a table's name as SQL (schema-qualified where the database has schemas)."""

    @abstractmethod
    def _transaction(self, commit: bool) -> Any:
        """Returns a context manager giving a cursor inside a transaction."""

    @abstractmethod
    def _autocommit(self) -> AbstractContextManager[Any]:
        """Returns a context giving a cursor whose every statement commits by itself."""

    @abstractmethod
    def _lock_tracking(self, cursor: Any) -> None:
        """Keeps every other transaction from recording tracking rows until this one ends."""

    @abstractmethod
    def _track(self, cursor: Any, tracking: Tracking) -> None:
        """Records the tracking row; raises IntegrityError if the position was processed."""

    @abstractmethod
    def _statement(self, sql: str) -> str:
        """Returns the statement in the driver's parameter style."""

    @abstractmethod
    def _encode(self, value: Any) -> Any:
        """Returns a parameter as the driver stores it."""

    @abstractmethod
    def _decode(self, column: str, value: Any) -> Any:
        """Returns a column's value as Python (UUID, aware datetime, bool)."""

    # -- private ----------------------------------------------------------------------------

    def _in_batch(self) -> bool:
        return getattr(self._local, "cursor", None) is not None

    def _applied_fast(self, apply_each: Callable[[], None], position: int) -> bool:
        """Runs `apply_each` on the fast path from `position`; returns False when an
        event's statements failed (what ran before is left for the caller to roll back)."""
        with self._cursor() as cursor:
            self._quarantined(cursor)  # read now: a read would end the pipeline's run
            self._local.fast_from = position
            try:
                with self._pipeline(cursor):  # a statement's error may show at its end
                    apply_each()
            except (_EventFailed, PipelineAborted):
                return False
            except OUTAGES:
                raise
            except psycopg.Error:  # a pipelined statement's, seen at the pipeline's end
                return False
            finally:
                self._local.fast_from = None
        return True

    def _pipeline(self, cursor: Any) -> AbstractContextManager[Any]:
        """Returns a context in which statements need not wait for their results."""
        return nullcontext()

    def _apply_fast(
        self,
        position: int,
        tracking: Tracking,
        match_id: UUID,
        statements: Callable[[], Sequence[Statement]],
    ) -> bool:
        """`apply` on the fast path (`apply_batch`): no tracking write, no savepoint."""
        if tracking.notification_id <= position:
            return False
        with self._cursor() as cursor:
            if match_id in self._quarantined(cursor):
                return True
            error = self._run(cursor, statements)
            if error is not None:
                raise _EventFailed from error
        return True

    def _run(self, cursor: Any, statements: Callable[[], Sequence[Statement]]) -> Exception | None:
        """Runs an event's statements; returns the error they failed with (OUTAGES raised)."""
        try:
            for sql, params in statements():
                self._execute(cursor, sql, params)
        except PipelineAborted as error:  # a statement before failed (`_pipeline`)
            return error
        except OUTAGES:
            raise
        except Exception as error:
            return error
        return None

    def _tracked_and_left_out(self, cursor: Any, application_name: str) -> int:
        """Returns the position recorded in the tracking row and keeps the matches this
        projection leaves out for the batch (`_quarantined`), both read in one statement
        in this transaction (issue 46: statements a catch-up)."""
        self._execute(
            cursor,
            "SELECT MAX(notification_id) AS position, NULL AS match_id FROM "
            f"{self._table_name(self.tracking_table)} WHERE application_name = :name "
            f"UNION ALL SELECT NULL, match_id FROM {{{QUARANTINE}}} WHERE projection = :projection",
            {"name": application_name, "projection": self.projection},
        )
        position, left_out = 0, set()
        for row in map(dict, cursor.fetchall()):
            if row["match_id"] is None:
                position = int(row["position"] or 0)
            else:
                left_out.add(self._decode("match_id", row["match_id"]))
        self._local.quarantined = left_out
        return position

    def _quarantined(self, cursor: Any) -> set[UUID]:
        """Returns the matches this projection leaves out (read once per batch)."""
        known: set[UUID] | None = getattr(self._local, "quarantined", None)
        if known is None:
            self._execute(
                cursor,
                f"SELECT match_id FROM {{{QUARANTINE}}} WHERE projection = :projection",
                {"projection": self.projection},
            )
            known = {self._decode("match_id", dict(row)["match_id"]) for row in cursor.fetchall()}
            if self._in_batch():
                self._local.quarantined = known
        return known

    def _quarantine(
        self, cursor: Any, match_id: UUID, tracking: Tracking, event_type: str, error: Exception
    ) -> None:
        """Deletes what this projection holds of the match and records why it is left out."""
        text = error_text(error)
        logger.error(
            "projection %s leaves out match %s: applying %s at log position %s failed: %s",
            self.projection,
            match_id,
            event_type,
            tracking.notification_id,
            text,
        )
        key = {"match_id": match_id}
        for table in self.match_tables:
            self._execute(cursor, f"DELETE FROM {table} WHERE match_id = :match_id", key)
        self._execute(
            cursor,
            f"INSERT INTO {{{QUARANTINE}}} (projection, match_id, position, event_type, error, "
            "quarantined_at) VALUES (:projection, :match_id, :position, :event_type, :error, "
            ":quarantined_at) ON CONFLICT (projection, match_id) DO NOTHING",
            {
                **key,
                "projection": self.projection,
                "position": tracking.notification_id,
                "event_type": event_type[:200],
                "error": text,
                "quarantined_at": datetime.now(UTC),
            },
        )
        if self._in_batch():  # the batch's own list; outside one, the next event reads it
            self._quarantined(cursor).add(match_id)

    @contextmanager
    def _cursor(self) -> Iterator[Any]:
        """Yields this thread's batch cursor, or the cursor of the transaction this thread
        has open here (a handler's read within `apply`), or a new transaction's."""
        cursor = getattr(self._local, "cursor", None) or getattr(self._local, "inner", None)
        if cursor is not None:
            yield cursor
            return
        with self._transaction(commit=True) as cursor:
            self._local.inner = cursor
            try:
                yield cursor
            finally:
                self._local.inner = None

    def _execute(self, cursor: Any, sql: str, params: Mapping[str, Any]) -> None:
        cursor.execute(
            self._statement(sql.format_map(self.tables)),
            {key: self._encode(value) for key, value in params.items()},
        )


class PostgresView(View, PostgresTrackingRecorder):
    """A view in PostgreSQL, in the event store's schema, sharing its connection pool."""

    def __init__(self, datastore: PostgresDatastore, projection: str) -> None:
        PostgresTrackingRecorder.__init__(
            self, datastore, tracking_table_name=f"{projection}_tracking"
        )
        View.__init__(self, projection)
        self._statements: dict[str, str] = {}

    def _table_name(self, name: str) -> str:
        return (
            SQL("{0}.{1}")
            .format(Identifier(self.datastore.schema), Identifier(name))
            .as_string(None)
        )

    def _transaction(self, commit: bool) -> Any:
        return self.datastore.transaction(commit=commit)

    @contextmanager
    def _autocommit(self) -> Iterator[Any]:
        with self.datastore.get_connection() as conn, conn.cursor() as cursor:  # autocommit
            yield cursor

    def _pipeline(self, cursor: Any) -> AbstractContextManager[Any]:
        """psycopg's pipeline mode: a batch's statements go without a round trip each."""
        return cast(AbstractContextManager[Any], cursor.connection.pipeline())

    def _lock_tracking(self, cursor: Any) -> None:
        cursor.execute(f"LOCK TABLE {self._table_name(self.tracking_table)} IN EXCLUSIVE MODE")

    def _track(self, cursor: Any, tracking: Tracking) -> None:
        self._insert_tracking(cursor, tracking)

    def _statement(self, sql: str) -> str:
        if sql not in self._statements:
            self._statements[sql] = PARAMETER.sub(r"%(\1)s", sql)
        return self._statements[sql]

    def _encode(self, value: Any) -> Any:
        return value

    def _decode(self, column: str, value: Any) -> Any:
        if isinstance(value, datetime):
            return value.astimezone(UTC)
        return value


class SQLiteView(View, SQLiteTrackingRecorder):
    """A view in the event store's SQLite file, sharing its connection pool."""

    def __init__(self, datastore: SQLiteDatastore, projection: str) -> None:
        SQLiteTrackingRecorder.__init__(self, datastore)
        View.__init__(self, projection)
        table = self.tracking_table  # eventsourcing's statements, for this projection's table
        self.insert_tracking_statement = (
            f"INSERT INTO {table} VALUES (:application_name, :notification_id) "
            "ON CONFLICT (application_name) DO UPDATE SET notification_id = :notification_id "
            f"WHERE {table}.notification_id < :notification_id RETURNING notification_id"
        )
        self.select_max_tracking_id_statement = (
            f"SELECT MAX(notification_id) FROM {table} WHERE application_name=?"
        )

    def _table_name(self, name: str) -> str:
        return name

    def _transaction(self, commit: bool) -> Any:
        return self.datastore.transaction(commit=commit)

    @contextmanager
    def _autocommit(self) -> Iterator[Any]:
        # the writer's connection (eventsourcing opens it with isolation_level None)
        with self.datastore.get_connection(commit=True) as conn:
            yield conn.cursor()

    def _lock_tracking(self, cursor: Any) -> None:
        """Takes the file's write lock with a write that changes nothing: a read first would
        pin a snapshot that a later write could not build on once another process commits."""
        cursor.execute(f"DELETE FROM {self.tracking_table} WHERE 0")

    def _track(self, cursor: Any, tracking: Tracking) -> None:
        self._insert_tracking(cursor, tracking)

    def _statement(self, sql: str) -> str:
        return sql

    def _encode(self, value: Any) -> Any:
        if isinstance(value, UUID):
            return value.hex
        if isinstance(value, datetime):
            return value.astimezone(UTC).strftime(SQLITE_TIME)
        return value

    def _decode(self, column: str, value: Any) -> Any:
        kind = KINDS.get(column)
        if value is None or kind is None:
            return value
        if kind == "uuid":
            return UUID(value)
        if kind == "time":
            return datetime.strptime(value, SQLITE_TIME).replace(tzinfo=UTC)
        return bool(value)


def error_text(error: Exception) -> str:
    """Returns the error as text any database stores: no NUL nor other control character,
    no lone surrogate, at most MAX_ERROR_CHARS characters."""
    text = f"{type(error).__name__}: {error}".encode("utf-8", "backslashreplace").decode()
    text = "".join(char if char.isprintable() else "?" for char in text)
    return text[:MAX_ERROR_CHARS]
