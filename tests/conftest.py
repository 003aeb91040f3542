"""Shared fixtures: the toy rulesets, a hand-driven clock, and the Matches application
on SQLite and on the real PostgreSQL at 127.0.0.1:5432 (one database per test).

Both kinds of database are copies of a template migrated once per session with
the project's migrations (`drts db upgrade`), so every test runs on their schema.

PostgreSQL tests skip with a message saying what to start when the server is
not reachable, except in CI (CI=true), where they fail.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import psycopg
import pytest

from domain.rules import registry
from service import schema
from service.matches import Matches
from service.scheduling import RecordingScheduler
from service.settings import Settings
from tests.support.toy_ruleset import TOYS

PG_HOST, PG_PORT, PG_USER = "127.0.0.1", 5432, "postgres"
PG_HINT = (
    f"PostgreSQL not reachable at {PG_HOST}:{PG_PORT}: start it with "
    "`pg_ctlcluster 15 main start` (Debian; or `service postgresql start`), "
    "with trust authentication for user postgres on 127.0.0.1"
)


class Clock:
    """A clock driven by hand: `now` stays put until `advance` moves it."""

    def __init__(self, start: datetime = datetime(2030, 1, 1, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


def in_ci() -> bool:
    """Returns whether the run is CI's (a missing service fails instead of skipping)."""
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


def pg_admin() -> psycopg.Connection:
    """Returns an autocommit connection to the maintenance database (CREATE DATABASE needs it)."""
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


@pytest.fixture
def toy_rulesets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registers the toy rulesets (`toy` and its variants, tests/support/toy_ruleset.py)."""
    for toy in TOYS:
        monkeypatch.setitem(registry.REGISTRY, toy.info.name, toy)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="session")
def pg_server() -> str:
    """Checks that PostgreSQL answers; skips (or fails in CI) with what to start."""
    try:
        with pg_admin() as conn:
            conn.execute("SELECT 1")
    except psycopg.OperationalError as error:
        if in_ci():
            pytest.fail(f"{PG_HINT} ({error})")
        pytest.skip(PG_HINT)
    return f"{PG_HOST}:{PG_PORT}"


@pytest.fixture(scope="session")
def pg_template(pg_server: str) -> Iterator[str]:
    """A database migrated to the latest revision (empty tables), cloned for each test."""
    name = f"drts_tpl_{uuid.uuid4().hex[:10]}"
    with pg_admin() as conn:
        conn.execute(f"CREATE DATABASE {name}")
    schema.upgrade(Settings(pg_url(name)))
    yield name
    with pg_admin() as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def pg_database(pg_template: str) -> Iterator[str]:
    """A fresh database for one test, created from the template and dropped after it."""
    name = f"drts_t_{uuid.uuid4().hex[:12]}"
    with pg_admin() as conn:
        conn.execute(f"CREATE DATABASE {name} TEMPLATE {pg_template}")
    yield pg_url(name)
    with pg_admin() as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An SQLite file migrated to the latest revision, copied for each test."""
    path = tmp_path_factory.mktemp("template") / "drts.sqlite"
    schema.upgrade(Settings(f"sqlite:///{path}"))
    return str(path)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: os.PathLike[str]) -> str:
    """The DRTS_DATABASE_URL of a fresh store: an SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        path = shutil.copyfile(
            request.getfixturevalue("sqlite_template"), f"{tmp_path}/drts.sqlite"
        )
        return f"sqlite:///{path}"
    return str(request.getfixturevalue("pg_database"))


@pytest.fixture
def matches(database_url: str, clock: Clock, toy_rulesets: None) -> Iterator[Matches]:
    """The Matches application on the test's store, with the hand-driven clock."""
    app = Matches(env=Settings(database_url).event_store_env(), clock=clock)
    yield app
    app.close()


@pytest.fixture
def scheduler() -> RecordingScheduler:
    return RecordingScheduler()


@pytest.fixture
def scheduled(
    database_url: str, clock: Clock, toy_rulesets: None, scheduler: RecordingScheduler
) -> Iterator[Matches]:
    """The Matches application with a scheduler that records what it is asked."""
    app = Matches(env=Settings(database_url).event_store_env(), clock=clock, scheduler=scheduler)
    yield app
    app.close()
