"""Where the frozen corpus lies, and the few database chores its generator and tests share.

The corpus (tests/corpus/README.md) is three files beside this one: the
embedded SQLite store, a plain-SQL `pg_dump` of a PostgreSQL database holding
the same matches, and `expected.json`, what each match must keep showing.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from uuid import UUID

from eventsourcing.domain import Snapshot
from sqlalchemy import text

from service import schema
from service.matches import Matches
from service.settings import Settings
from tests.support.tables import EVENT_STORE

CORPUS = Path(__file__).parent
SQLITE_FILE = CORPUS / "matches.sqlite"
POSTGRES_DUMP = CORPUS / "postgres.sql"
EXPECTED_FILE = CORPUS / "expected.json"


class ClientToolMissingError(RuntimeError):
    """Raised when a PostgreSQL client program (psql, pg_dump) is not on the PATH."""


class RestoreError(RuntimeError):
    """Raised when psql fails to restore the PostgreSQL dump (its message says why)."""


def stored_topics(app: Matches, database_url: str) -> list[str]:
    """Returns every topic stored in the application's database, sorted: the event and
    snapshot classes of the rows, and the aggregate classes the snapshots name."""
    engine = schema.make_engine(Settings(database_url))
    events, snapshots = EVENT_STORE[engine.dialect.name]
    try:
        with engine.connect() as connection:
            topics = {
                row[0]
                for table in (events, snapshots)
                for row in connection.execute(text(f"SELECT DISTINCT topic FROM {table}"))
            }
            ids = [
                row[0]
                for row in connection.execute(
                    text(f"SELECT DISTINCT originator_id FROM {snapshots}")
                )
            ]
    finally:
        engine.dispose()
    assert app.store.snapshots is not None
    for originator_id in ids:
        stored = app.store.snapshots.get(UUID(str(originator_id)))
        topics |= {snapshot.topic for snapshot in stored if isinstance(snapshot, Snapshot)}
    return sorted(topics)


def client_tool(name: str) -> str:
    """Returns the path of a PostgreSQL client program; raises ClientToolMissingError."""
    path = shutil.which(name)
    if path is None:
        raise ClientToolMissingError(
            f"{name} is not on the PATH: install the PostgreSQL client tools "
            "(Debian: apt-get install postgresql-client)"
        )
    return path


def dump_postgres(database_url: str, path: Path) -> None:
    """Writes a plain-SQL dump of the whole database (schema and rows, no owners or grants)."""
    subprocess.run(
        [
            client_tool("pg_dump"),
            "--no-owner",
            "--no-privileges",
            f"--file={path}",
            f"--dbname={libpq_url(database_url)}",
        ],
        check=True,
    )


def restore_postgres(path: Path, database_url: str) -> None:
    """Restores a plain-SQL dump into an empty database with psql, in one transaction;
    raises RestoreError with psql's message if it fails."""
    done = subprocess.run(
        [
            client_tool("psql"),
            "--no-psqlrc",
            "--quiet",
            "--single-transaction",
            "--set=ON_ERROR_STOP=1",
            f"--file={path}",
            f"--dbname={libpq_url(database_url)}",
        ],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RestoreError(f"psql could not restore {path.name}: {done.stderr.strip()}")


def libpq_url(database_url: str) -> str:
    """Returns a DRTS_DATABASE_URL for PostgreSQL as libpq reads it (postgresql://...)."""
    return "postgresql://" + database_url.split("://", 1)[1].split("?", 1)[0]
