"""Shared fixtures: the toy rulesets, a hand-driven clock, and the Matches application
on SQLite and on the real PostgreSQL at 127.0.0.1:5432 (one database per test).

Both kinds of database are copies of a template migrated once per session with
the project's migrations (`drts db upgrade`), so every test runs on their schema;
`empty_url` gives one never migrated, for the tests of the migrations themselves.

PostgreSQL tests skip with a message saying what to start when the server is
not reachable, except in CI (CI=true), where they fail.

Nothing is written into the checkout (issue 39): hypothesis keeps its storage (its
example database, its caches) under a temporary folder of the session, the mail
that a test's Matches sends without an outbox of its own goes to the session's
temporary outbox (DRTS_MAIL_OUTBOX too, for the processes tests start), and the
plugin tests/support/stray_files.py fails the session on anything a test left in
the checkout.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator

import hypothesis.configuration
import psycopg
import pytest

from domain.rules import registry
from service import schema
from service.channels.mail.outbox import MaildirOutbox
from service.clock import ManualClock
from service.matches import Matches
from service.scheduling import RecordingScheduler
from service.settings import Settings
from service.usecases.lobby import Lobby
from tests.support.postgres import PG_HINT, PG_HOST, PG_PORT, new_pg_database, pg_admin, pg_url
from tests.support.toy_ruleset import TOYS

pytest_plugins = ["tests.support.stray_files"]
HYPOTHESIS_STORAGE = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """Moves hypothesis' storage (example database, caches) out of the working directory."""
    storage = tempfile.mkdtemp(prefix="drts-hypothesis-")
    config.stash[HYPOTHESIS_STORAGE] = storage
    os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = storage  # for the processes tests start
    hypothesis.configuration.set_hypothesis_home_dir(storage)


def pytest_unconfigure(config: pytest.Config) -> None:
    storage = config.stash.get(HYPOTHESIS_STORAGE, None)
    if storage is not None:
        shutil.rmtree(storage, ignore_errors=True)


@pytest.fixture(autouse=True, scope="session")
def outbox_outside_the_checkout(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Sends the mail of a Matches without an outbox of its own (whose default is
    `drts-outbox` in the working directory) to a temporary maildir of the session."""
    outbox = str(tmp_path_factory.mktemp("session-outbox"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Lobby, "outbox", MaildirOutbox(outbox))
        patch.setenv("DRTS_MAIL_OUTBOX", outbox)
        yield


def in_ci() -> bool:
    """Returns whether the run is CI's (a missing service fails instead of skipping)."""
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


@pytest.fixture
def toy_rulesets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registers the toy rulesets (`toy` and its variants, tests/support/toy_ruleset.py)."""
    for toy in TOYS:
        monkeypatch.setitem(registry.REGISTRY, toy.info.name, {toy.info.version: toy})


@pytest.fixture
def clock() -> ManualClock:
    """A hand-driven clock for one test, starting at 2030-01-01 UTC."""
    return ManualClock()


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
    with new_pg_database("drts_tpl") as name:
        schema.upgrade(Settings(pg_url(name)))
        yield name


@pytest.fixture
def pg_database(pg_template: str) -> Iterator[str]:
    """A fresh database for one test, created from the template and dropped after it."""
    with new_pg_database("drts_t", template=pg_template) as name:
        yield pg_url(name)


@pytest.fixture
def empty_pg_url(pg_server: str) -> Iterator[str]:
    """The URL of a new PostgreSQL database with nothing in it (never migrated)."""
    with new_pg_database("drts_e") as name:
        yield pg_url(name)


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


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_url(request: pytest.FixtureRequest, tmp_path: os.PathLike[str]) -> str:
    """The URL of a database with nothing in it: a new SQLite file, or a new PostgreSQL one."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/empty.sqlite"
    return str(request.getfixturevalue("empty_pg_url"))


@pytest.fixture
def matches(database_url: str, clock: ManualClock, toy_rulesets: None) -> Iterator[Matches]:
    """The Matches application on the test's store, with the hand-driven clock."""
    app = Matches(env=Settings(database_url).event_store_env(), clock=clock)
    yield app
    app.close()


@pytest.fixture
def scheduler() -> RecordingScheduler:
    return RecordingScheduler()


@pytest.fixture
def scheduled(
    database_url: str, clock: ManualClock, toy_rulesets: None, scheduler: RecordingScheduler
) -> Iterator[Matches]:
    """The Matches application with a scheduler that records what it is asked."""
    app = Matches(env=Settings(database_url).event_store_env(), clock=clock, scheduler=scheduler)
    yield app
    app.close()
