"""Counting the SQL statements a piece of work sends (issue 46: statements per order).

On PostgreSQL every statement psycopg sends is counted: each `Cursor.execute`, each
parameter set of `Cursor.executemany`, and the connection's own commands (BEGIN,
COMMIT, ROLLBACK, SAVEPOINT: `BaseConnection._exec_command`). On SQLite each statement
the library runs is reported by the connection's trace callback, set on every
connection opened while `tracing_sqlite` is active. The count does not depend on the
machine's load: a test may assert it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg._connection_base import BaseConnection


class Statements:
    """The statements sent while counting is on, in order (their text's first words)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.on = False

    def note(self, text: Any) -> None:
        if self.on:
            self.sent.append(" ".join(str(text).split()[:6]))

    def __len__(self) -> int:
        return len(self.sent)

    def of(self, run: Callable[[], Any]) -> list[str]:
        """Returns the statements `run()` sent."""
        start = len(self.sent)
        self.on = True
        try:
            run()
        finally:
            self.on = False
        return self.sent[start:]


@contextmanager
def counting_postgres() -> Iterator[Statements]:
    """Counts what psycopg sends while the block runs (counting on within `of`)."""
    statements = Statements()
    execute, executemany = psycopg.Cursor.execute, psycopg.Cursor.executemany
    command = BaseConnection._exec_command

    def counted_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        statements.note(query.as_string(self) if hasattr(query, "as_string") else query)
        return execute(self, query, *args, **kwargs)

    def counted_executemany(self: Any, query: Any, params_seq: Any, **kwargs: Any) -> Any:
        params = list(params_seq)
        for _ in params:
            statements.note(query.as_string(self) if hasattr(query, "as_string") else query)
        return executemany(self, query, params, **kwargs)

    def counted_command(self: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        statements.note(text.decode() if isinstance(text, bytes) else text)
        return (yield from command(self, text, *args, **kwargs))

    psycopg.Cursor.execute = counted_execute  # type: ignore[method-assign]
    psycopg.Cursor.executemany = counted_executemany  # type: ignore[method-assign]
    BaseConnection._exec_command = counted_command  # type: ignore[assignment,method-assign]
    try:
        yield statements
    finally:
        psycopg.Cursor.execute = execute  # type: ignore[method-assign]
        psycopg.Cursor.executemany = executemany  # type: ignore[method-assign]
        BaseConnection._exec_command = command  # type: ignore[method-assign]


@contextmanager
def tracing_sqlite() -> Iterator[Statements]:
    """Counts the statements of every SQLite connection opened while the block runs."""
    statements = Statements()
    connect = sqlite3.connect

    def traced(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(statements.note)
        return conn

    sqlite3.connect = traced  # type: ignore[assignment]
    sqlite3.dbapi2.connect = traced  # type: ignore[assignment]
    try:
        yield statements
    finally:
        sqlite3.connect = connect
        sqlite3.dbapi2.connect = connect
