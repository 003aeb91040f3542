"""The PostgreSQL server the tests and benchmarks use (127.0.0.1:5432, trust
authentication for user postgres), and new databases on it that are dropped after use.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

PG_HOST, PG_PORT, PG_USER = "127.0.0.1", 5432, "postgres"
PG_HINT = (
    f"PostgreSQL not reachable at {PG_HOST}:{PG_PORT}: start it with "
    "`pg_ctlcluster 15 main start` (Debian; or `service postgresql start`), "
    "with trust authentication for user postgres on 127.0.0.1"
)


def pg_admin() -> psycopg.Connection[Any]:
    """Returns an autocommit connection to the maintenance database (CREATE DATABASE needs it).

    Raises psycopg.OperationalError when the server does not answer within 3 seconds.
    """
    return psycopg.connect(
        host=PG_HOST,
        port=PG_PORT,
        user=PG_USER,
        dbname="postgres",
        autocommit=True,
        connect_timeout=3,
    )


def pg_url(dbname: str) -> str:
    """Returns the DRTS_DATABASE_URL of a database on the test server."""
    return f"postgresql://{PG_USER}@{PG_HOST}:{PG_PORT}/{dbname}"


@contextmanager
def new_pg_database(prefix: str, template: str | None = None) -> Iterator[str]:
    """Creates a database named `prefix` and a random suffix (a copy of `template` when
    given, else empty), yields its name, and drops it afterwards even if connections
    to it are still open.

    Raises psycopg.OperationalError when the server is not reachable.
    """
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with pg_admin() as conn:
        conn.execute(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
    try:
        yield name
    finally:
        with pg_admin() as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
