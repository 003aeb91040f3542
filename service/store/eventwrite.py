"""The Matches log's write in one statement on PostgreSQL (issue 46).

eventsourcing 9.5.6's PostgresApplicationRecorder writes events with six statements
(BEGIN, SET LOCAL lock_timeout, LOCK TABLE ... IN EXCLUSIVE MODE, NOTIFY, INSERT,
COMMIT). `MatchesRecorder` sends one instead: a call, in autocommit, of the function
`drts_insert_events` that migration 0017 creates, which does the same in the same
order within the call's own transaction and returns the notification ids.

What the library's write guarantees holds: the table lock makes notification ids
commit in the order they are issued (the tailing readers skip nothing); the NOTIFY
wakes the subscribers at the commit; a duplicate (originator_id, originator_version)
raises eventsourcing's `IntegrityError` (the datastore maps psycopg's, as for the
library's INSERT), so optimistic concurrency and the store's retries are unchanged;
the ids come back in the order of the events, one an event.

A database without the function (migration 0017 not run: `drts db downgrade`, or a
store adopted before the migrations, tests/service/test_migrations.py) is written to as
the library writes, from the first call that finds the function missing on. The
service refuses a PostgreSQL database behind the latest revision at start-up anyway
(service/schema.py `prepare`). SQLite, the snapshots, and the read models' tracking
recorders are not touched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import (
    ApplicationRecorder,
    InfrastructureFactory,
    InterfaceError,
    OperationalError,
    StoredEvent,
)
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresFactory
from eventsourcing.utils import retry
from psycopg import Connection, errors
from psycopg.sql import SQL, Identifier

FUNCTION = "drts_insert_events"
TABLE = "matches_events"  # the Matches application's log (service/migrations/versions/0001)


class MatchesRecorder(PostgresApplicationRecorder):
    """eventsourcing's PostgreSQL application recorder, writing events in one statement
    (the function of migration 0017) where the database has it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.has_insert_function = True
        self._calls: dict[int, str] = {}  # the call's text by number of events

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        """Records the events; returns their notification ids, in their order. Raises
        eventsourcing's IntegrityError if one's (originator_id, originator_version) is
        stored already (nothing is then written)."""
        if not self.has_insert_function:
            return self._as_the_library(stored_events, **kwargs)
        if not stored_events:
            return None  # as the library's: nothing recorded, no ids
        params = [
            *(e.originator_id for e in stored_events),
            *(e.originator_version for e in stored_events),
            *(e.topic for e in stored_events),
            *(e.state for e in stored_events),
            self.datastore.lock_timeout,
        ]
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            try:
                curs.execute(self._call(len(stored_events), conn), params, prepare=True)
            except errors.UndefinedFunction:
                self.has_insert_function = False
            else:
                row = curs.fetchone()
                assert row is not None and len(row["ids"]) == len(stored_events), row
                return list(row["ids"])
        return self._as_the_library(stored_events, **kwargs)

    def _call(self, count: int, conn: Connection[Any]) -> str:
        """Returns the text of the function's call for `count` events: each array is
        written as ARRAY[...] of scalar parameters, which psycopg dumps in C (a list
        parameter costs it a Python scan of the list, about 0.1 ms an order)."""
        text = self._calls.get(count)
        if text is None:
            arrays = [
                SQL("ARRAY[{0}]").format(SQL(", ").join([SQL(f"%b::{cast}")] * count))
                for cast in ("uuid", "bigint", "text", "bytea")
            ]
            call = SQL("SELECT {0}({1}, %b::integer) AS ids").format(
                Identifier(self.datastore.schema, FUNCTION), SQL(", ").join(arrays)
            )
            text = self._calls[count] = call.as_string(conn)
        return text

    def _as_the_library(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        """Records the events as eventsourcing's recorder does (six statements)."""
        ids: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
        return ids


def application_recorder(factory: InfrastructureFactory[Any]) -> ApplicationRecorder | None:
    """Returns the Matches log's recorder for the factory: a MatchesRecorder for the
    Matches application on PostgreSQL with uuid ids; None elsewhere (the library's)."""
    if type(factory) is not PostgresFactory:
        return None
    datastore = factory.datastore
    if datastore.originator_id_type != "uuid" or factory.env.name.lower() != "matches":
        return None
    if factory.env.get(factory.APPLICATION_RECORDER_TOPIC):
        return None  # a recorder named in the environment is the one to use
    recorder = MatchesRecorder(datastore, events_table_name=TABLE)
    if factory.env_create_table():
        recorder.create_table()
    return recorder
