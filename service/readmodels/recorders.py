"""Materialised views: eventsourcing tracking recorders that write a projection's rows
and its tracking row in one transaction, on PostgreSQL and on SQLite.

A projection says what to write as statements (SQL with `{table}` names and
`:name` parameters, written once for both databases); its view runs them
after recording the tracking row, so an event is applied exactly once: a
second attempt finds its position already tracked and changes nothing.

Each projection has its own tracking table, `<projection>_tracking`, with
eventsourcing's single-row layout (one row per upstream application, holding
the last position processed). On SQLite eventsourcing would name it
`tracking` whatever the projection, so the SQLite view renames its statements.
"""

from __future__ import annotations

import re
import threading
from abc import abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder
from psycopg.sql import SQL, Identifier
from sqlalchemy import Boolean, DateTime, Uuid

from service.readmodels.tables import PROJECTION_TABLES, metadata

Statement = tuple[str, Mapping[str, Any]]
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


class View(TrackingRecorder):
    """A projection's tables and tracking row; `record` writes both in one transaction."""

    def __init__(self, projection: str) -> None:
        self.projection = projection
        self.tables = {
            table.name: self._table_name(table.name) for table in PROJECTION_TABLES[projection]
        }
        self.tracking_table = f"{projection}_tracking"
        self._local = threading.local()

    def record(self, tracking: Tracking, statements: Sequence[Statement]) -> bool:
        """Runs the statements with the tracking row; returns False (and writes nothing)
        when this position was already processed.
        """
        with self._cursor() as cursor:
            try:
                self._track(cursor, tracking)
            except IntegrityError:
                return False
            for sql, params in statements:
                self._execute(cursor, sql, params)
            return True

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Runs every `record` and `reset` of this thread inside one transaction."""
        if getattr(self._local, "cursor", None) is not None:
            yield
            return
        with self._transaction(commit=True) as cursor:
            self._local.cursor = cursor
            try:
                yield
            finally:
                self._local.cursor = None

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
            for table in self.tables.values():
                self._execute(cursor, f"DELETE FROM {table}", {})

    def query(self, sql: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Returns the rows of a SELECT, with ids as UUIDs and times as aware UTC datetimes."""
        with self._transaction(commit=False) as cursor:
            self._execute(cursor, sql, params or {})
            return [
                {key: self._decode(key, value) for key, value in dict(row).items()}
                for row in cursor.fetchall()
            ]

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

    @contextmanager
    def _cursor(self) -> Iterator[Any]:
        cursor = getattr(self._local, "cursor", None)
        if cursor is not None:
            yield cursor
            return
        with self._transaction(commit=True) as cursor:
            yield cursor

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

    def _lock_tracking(self, cursor: Any) -> None:
        """Nothing to do: the first write of the batch takes the file's write lock."""

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
