"""The tail of the event log: which matches have events after a log position.

A process that serves public streams keeps one `LogTail` (service/live/hub.py runs it in
one thread). `changes()` reads the log past its position, without the events' bodies, and
returns each match's newest version there; `wait(seconds)` returns once the store may hold
more: on PostgreSQL when the event store's NOTIFY arrives (eventsourcing sends one on its
channel with every insert; one LISTEN connection a process, never one a viewer), elsewhere
after POLL_SECONDS (SQLite has no notifications: the poll is one indexed query, and it sees
the process's own writes and the worker's alike).
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder
from psycopg.sql import SQL, Identifier

POLL_SECONDS = 0.05  # SQLite and memory: how often the log's tail is read
BATCH = 1000  # log positions read at once


class LogTail:
    """Reads the log of `recorder` from a position on (the log's end when made)."""

    def __init__(self, recorder: ApplicationRecorder) -> None:
        self.recorder = recorder
        self.position = recorder.max_notification_id() or 0
        self._conn: Any = None
        self._sqlite: sqlite3.Connection | None = None

    def changes(self) -> dict[UUID, int]:
        """Returns each match's newest version among the events stored past the position,
        and moves the position to the last of them."""
        changed: dict[UUID, int] = {}
        while True:
            rows = self._rows_after(self.position)
            for position, match_id, version in rows:
                changed[match_id] = max(version, changed.get(match_id, 0))
                self.position = position
            if len(rows) < BATCH:
                return changed

    def wait(self, seconds: float) -> None:
        """Returns when the store may hold newer events, or after `seconds`."""
        if self._conn is None:
            time.sleep(min(seconds, POLL_SECONDS))
            return
        for _ in self._conn.notifies(timeout=seconds, stop_after=1):
            pass

    @contextlib.contextmanager
    def listening(self) -> Iterator[LogTail]:
        """Holds the LISTEN connection (PostgreSQL: one from the store's pool) while the
        block runs; elsewhere does nothing. Listens before it reads, so no commit is
        missed between a read and a wait."""
        recorder = self.recorder
        if not isinstance(recorder, PostgresApplicationRecorder):
            yield self
            return
        with recorder.datastore.get_connection() as conn:
            conn.execute(SQL("LISTEN {0}").format(Identifier(recorder.channel_name)))
            self._conn = conn
            try:
                yield self
            finally:
                self._conn = None
                with contextlib.suppress(Exception):
                    conn.execute("UNLISTEN *")

    def _rows_after(self, position: int) -> list[tuple[int, UUID, int]]:
        """Returns (log position, match id, version) of up to BATCH events past `position`."""
        recorder = self.recorder
        if isinstance(recorder, PostgresApplicationRecorder):
            return self._postgres_rows(recorder, position)
        if isinstance(recorder, SQLiteApplicationRecorder):
            return self._sqlite_rows(recorder, position)
        notes = recorder.select_notifications(position + 1, BATCH)
        return [(n.id, UUID(str(n.originator_id)), n.originator_version) for n in notes]

    def _sqlite_rows(
        self, recorder: SQLiteApplicationRecorder, position: int
    ) -> list[tuple[int, UUID, int]]:
        """Reads on a connection of its own (not the store's pool): the store may be closed
        while this thread polls, and a pooled connection closed under a query is not safe."""
        pool = recorder.datastore.pool
        if self._sqlite is None:
            if pool.is_sqlite_memory_mode:  # a private in-memory database: only the pool's
                notes = recorder.select_notifications(position + 1, BATCH)
                return [(n.id, UUID(str(n.originator_id)), n.originator_version) for n in notes]
            self._sqlite = sqlite3.connect(pool.db_name, check_same_thread=False, timeout=10)
        statement = (
            f"SELECT rowid, originator_id, originator_version FROM "
            f"{recorder.events_table_name} WHERE rowid > ? ORDER BY rowid LIMIT ?"
        )
        rows = self._sqlite.execute(statement, (position, BATCH)).fetchall()
        return [(row[0], UUID(str(row[1])), row[2]) for row in rows]

    def close(self) -> None:
        """Closes its own SQLite connection, if it opened one."""
        if self._sqlite is not None:
            self._sqlite.close()
            self._sqlite = None

    def _postgres_rows(
        self, recorder: PostgresApplicationRecorder, position: int
    ) -> list[tuple[int, UUID, int]]:
        statement = SQL(
            "SELECT notification_id, originator_id, originator_version FROM {0} "
            "WHERE notification_id > %s ORDER BY notification_id LIMIT %s"
        ).format(Identifier(recorder.datastore.schema, recorder.events_table_name))
        if self._conn is not None:
            rows = self._conn.execute(statement, (position, BATCH)).fetchall()
        else:
            with recorder.datastore.get_connection() as conn:
                rows = conn.execute(statement, (position, BATCH)).fetchall()
        return [
            (row["notification_id"], UUID(str(row["originator_id"])), row["originator_version"])
            for row in rows
        ]
