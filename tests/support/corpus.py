"""A working copy of the frozen corpus (tests/corpus/README.md), migrated and opened,
and what each match must keep showing."""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from service import schema
from service.matches import Matches
from service.scenarios.driver import ManualClock
from service.settings import Settings
from tests.conftest import in_ci, pg_admin, pg_url
from tests.corpus.store import (
    EXPECTED_FILE,
    POSTGRES_DUMP,
    SQLITE_FILE,
    ClientToolMissingError,
    client_tool,
    restore_postgres,
)

EXPECTED: dict[str, Any] = json.loads(EXPECTED_FILE.read_text())


MATCHES: list[dict[str, Any]] = EXPECTED["matches"]


BY_KEY = {entry["key"]: entry for entry in MATCHES}


BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@dataclass
class Corpus:
    """A working copy of the corpus, migrated, with the Matches application on it."""

    url: str
    revision_before_upgrade: str | None
    app: Matches
    clock: ManualClock


@contextmanager
def corpus_copy(
    backend: str,
    request: pytest.FixtureRequest,
    directory: Path,
    files: tuple[Path, Path] = (SQLITE_FILE, POSTGRES_DUMP),
) -> Iterator[str]:
    """Yields the URL of a fresh copy of a corpus set (`files`: its SQLite file and its
    PostgreSQL dump; the first set by default): the SQLite file copied into `directory`,
    or the dump restored into a new database (dropped after)."""
    sqlite_file, postgres_dump = files
    if backend == "sqlite":
        yield f"sqlite:///{shutil.copyfile(sqlite_file, directory / sqlite_file.name)}"
        return
    request.getfixturevalue("pg_server")
    try:
        client_tool("psql")
    except ClientToolMissingError as error:
        if in_ci():
            pytest.fail(str(error))
        pytest.skip(str(error))
    name = f"drts_corpus_{uuid.uuid4().hex[:12]}"
    with pg_admin() as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        restore_postgres(postgres_dump, pg_url(name))
        yield pg_url(name)
    finally:
        with pg_admin() as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextmanager
def opened(url: str) -> Iterator[Corpus]:
    """Upgrades the copy to the latest migration and opens the Matches application on it."""
    before = schema.current(Settings(url))
    schema.upgrade(Settings(url))
    clock = ManualClock(datetime.fromisoformat(EXPECTED["generated"]["on"] + "T00:00:00+00:00"))
    app = Matches(env=Settings(url).event_store_env(), clock=clock)
    try:
        yield Corpus(url, before, app, clock)
    finally:
        app.close()
