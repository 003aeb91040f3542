"""The database schema: Alembic's migrations (service/migrations/) own every table.

Revision 0001 is the event store, frozen as eventsourcing 9.5.6 creates it
for the application "Matches"; later revisions are the read models. The
application runs with eventsourcing's table creation off (CREATE_TABLE=no).

Before a process uses a database, `prepare` upgrades or refuses:
- the embedded SQLite file is upgraded to the latest revision automatically,
  so that the one-command start keeps working on a fresh or older file;
- PostgreSQL is never migrated behind the operator's back: a database that
  is not at the latest revision is refused with a message naming
  `drts db upgrade`.

The database URL comes from service/settings.py and is translated here to
SQLAlchemy's (`sqlite:///path`, `postgresql+psycopg://...`) for Alembic.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import threading
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from eventsourcing.utils import Environment
from sqlalchemy import URL, Engine, create_engine, event, pool

from domain.errors import DrtsError
from service.settings import Settings, SettingsError

APPLICATION_NAME = "Matches"  # the eventsourcing application (service/store/application.py)

MIGRATIONS = Path(__file__).parent / "migrations"
EVENT_STORE_REVISION = "0001"
ADVISORY_LOCK = 7_331_001  # serialises concurrent `upgrade`s on one PostgreSQL database
_ALEMBIC = threading.RLock()  # alembic's `context` is one global per process: one run at a time


class SchemaOutOfDateError(DrtsError):
    """Raised when a PostgreSQL database is not at the migration revision the code needs."""

    code = "schema_out_of_date"


Store = Settings | Mapping[str, str]  # settings, or an eventsourcing environment


def store_env(store: Store) -> Environment:
    """Returns the eventsourcing environment of a store, as the Matches application reads it
    (its own keys over the process environment, `MATCHES_`-prefixed keys first).
    """
    env = store.event_store_env() if isinstance(store, Settings) else store
    return Environment(APPLICATION_NAME, {**os.environ, **env})


def sqlalchemy_url(store: Store) -> URL:
    """Returns the SQLAlchemy URL of a store's database (psycopg 3 for PostgreSQL)."""
    env = store_env(store)
    module = env.get("PERSISTENCE_MODULE", "")
    if module == "eventsourcing.sqlite":
        return URL.create("sqlite", database=env.get("SQLITE_DBNAME"))
    if module == "eventsourcing.postgres":
        return URL.create(
            "postgresql+psycopg",
            username=env.get("POSTGRES_USER"),
            password=env.get("POSTGRES_PASSWORD") or None,
            host=env.get("POSTGRES_HOST"),
            port=int(env.get("POSTGRES_PORT") or 5432),
            database=env.get("POSTGRES_DBNAME"),
        )
    raise SettingsError(
        f"a store in memory ({module or 'eventsourcing.popo'}) keeps nothing "
        "on disk: there is no schema to migrate (use sqlite:///path or "
        "postgresql://...)"
    )


def schema_name(store: Store) -> str | None:
    """Returns the PostgreSQL schema of the store (`?schema=` in the URL), if any."""
    return store_env(store).get("POSTGRES_SCHEMA") or None


def backend(store: Store) -> str:
    """Returns "sqlite", "postgres" or "memory"."""
    module = store_env(store).get("PERSISTENCE_MODULE", "")
    return {"eventsourcing.sqlite": "sqlite", "eventsourcing.postgres": "postgres"}.get(
        module, "memory"
    )


def alembic_config(store: Store | None = None, engine: Engine | None = None) -> Config:
    """Returns the Alembic configuration for a store's database (or an engine's)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if engine is not None:
        config.attributes["engine"] = engine
    elif store is not None:
        config.attributes["engine"] = make_engine(store)
        config.attributes["schema"] = schema_name(store)
    return config


def make_engine(store: Store) -> Engine:
    """Returns an engine for migrations: no pool; on SQLite, each transaction takes the
    write lock at once (BEGIN IMMEDIATE), so that two processes starting together
    migrate one after the other.
    """
    url = sqlalchemy_url(store)
    if url.get_backend_name() != "sqlite":
        return create_engine(url, poolclass=pool.NullPool, connect_args={"connect_timeout": 10})
    Path(str(url.database)).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, poolclass=pool.NullPool, connect_args={"timeout": 30})
    immediate_transactions(engine)
    return engine


def immediate_transactions(engine: Engine) -> None:
    """Makes an SQLite engine begin every transaction with BEGIN IMMEDIATE."""

    @event.listens_for(engine, "connect")
    def _no_implicit_begin(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def _begin_immediate(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def upgrade(store: Store, revision: str = "head") -> None:
    """Migrates the database up to `revision` (the latest by default)."""
    _run(command.upgrade, store, revision)


def downgrade(store: Store, revision: str) -> None:
    """Migrates the database down to `revision` (never below the event store's)."""
    _run(command.downgrade, store, revision)


def _run(alembic_command: Any, store: Store, revision: str) -> None:
    config = alembic_config(store)
    try:
        with _ALEMBIC:
            alembic_command(config, revision)
    finally:
        config.attributes["engine"].dispose()


@functools.cache
def head() -> str:
    """Returns the latest revision of the migrations."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def current(store: Store) -> str | None:
    """Returns the database's revision (None for a database never migrated)."""
    engine = make_engine(store)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(
                connection, opts={"version_table_schema": schema_name(store)}
            )
            return context.get_current_revision()
    finally:
        engine.dispose()


def prepare(store: Store) -> None:
    """Makes sure the database is at the latest revision: upgrades SQLite, refuses
    PostgreSQL behind (or ahead of) the code with what to run. Memory needs nothing.
    """
    kind = backend(store)
    if kind == "memory":
        return
    revision = current(store)
    if revision == head():
        return
    if kind == "sqlite":
        upgrade(store)
        return
    raise SchemaOutOfDateError(out_of_date_message(store, revision))


def out_of_date_message(store: Store, revision: str | None) -> str:
    """Returns what is wrong with a database's revision and what to do about it."""
    where = f"the database {sqlalchemy_url(store).render_as_string(hide_password=True)}"
    if revision is None:
        return (
            f"{where} has no drts tables yet (it was never migrated): run `drts db "
            f"upgrade` with the same DRTS_DATABASE_URL, then start again"
        )
    known = {
        script.revision for script in ScriptDirectory.from_config(alembic_config()).walk_revisions()
    }
    if revision not in known:
        return (
            f"{where} is at revision {revision}, which this version of drts does not "
            f"know (its latest is {head()}): it was migrated by a newer drts"
        )
    return (
        f"{where} is at revision {revision}, behind this version of drts ({head()}): "
        f"run `drts db upgrade` with the same DRTS_DATABASE_URL, then start again"
    )


class MemoryDatabase:
    """A private in-memory SQLite database at the latest revision (for the read models
    of `memory://`); it lives until `close()`, as long as one connection to it is open.
    """

    def __init__(self) -> None:
        self.uri = f"file:drts-{uuid.uuid4().hex}?mode=memory&cache=shared"
        self._keeper = sqlite3.connect(self.uri, uri=True, check_same_thread=False)
        engine = create_engine(
            "sqlite://",
            poolclass=pool.NullPool,
            creator=lambda: sqlite3.connect(self.uri, uri=True),
        )
        with _ALEMBIC:
            command.upgrade(alembic_config(engine=engine), "head")
        engine.dispose()

    def close(self) -> None:
        """Lets the database go."""
        self._keeper.close()
