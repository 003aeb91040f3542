"""Generated the frozen corpus, ONCE, on 2026-11-30: never run it again.

The corpus (tests/corpus/README.md) is test data that every later version
of drts must read as it is: regenerating it with later code would only test
that code against itself. This script is kept as the record of how the
corpus was made; it refuses to overwrite any corpus file (it writes into a
temporary folder and links each file into place, which never replaces one).
It still plays with later code (the plays pin the ruleset versions of the
day), but a new run makes a new set in a new folder, never this one.

    python -m tests.corpus.generate [--out DIR] [--postgres URL]

It plays the matches of tests/corpus/plays.py twice through the Matches
application, with today's code and migrations: once on a fresh embedded
SQLite store (`matches.sqlite`) and once on a fresh PostgreSQL database,
dumped with `pg_dump` (`postgres.sql`); both hold the read models caught up.
The service's secure randomness (match ids, tokens, salts, the replay's
seed) is replaced, for this script only, by a generator seeded with a fixed
string, so both stores hold the same matches, event for event, and a run is
reproducible. `expected.json` holds what each match shows (head, status,
outcome), checked to be the same on both stores, with the stored topics.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import random
import sqlite3
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import datetime
from importlib.metadata import version
from pathlib import Path
from types import ModuleType
from typing import Any
from unittest import mock

import psycopg

from service import schema
from service.channels.mail import addresses
from service.matches import Matches
from service.queries import corrections
from service.scenarios.driver import ManualClock
from service.settings import Settings
from service.usecases import intake, lobby, resolution
from tests.corpus import plays, plays_2026_12
from tests.corpus.expect_2026_12 import match_record
from tests.corpus.plays import Played
from tests.corpus.store import (
    CORPUS,
    EXPECTED_FILE,
    POSTGRES_DUMP,
    SQLITE_FILE,
    dump_postgres,
    stored_topics,
)

ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


@dataclass(frozen=True)
class CorpusSet:
    """One frozen set: its folder, its plays, their start, the seed of the service's
    randomness, the modules whose `secrets` and `uuid4` are seeded, and what each
    match's entry holds beyond the common fields."""

    folder: Path
    play_all: Callable[[Matches], list[Played]]
    start: datetime
    randomness_seed: str
    secret_modules: tuple[ModuleType, ...]
    uuid_modules: tuple[ModuleType, ...]
    record: Callable[[Matches, Played], dict[str, Any]] | None = None


SETS = {
    # the modules service/matches.py was split into by then (one generator: the same draws)
    "2026-11": CorpusSet(
        CORPUS,
        plays.play_all,
        plays.START,
        "drts frozen corpus, 2026-11-30",
        (lobby, intake, resolution),
        (lobby, resolution),
    ),
    # every module drawing secrets for a match (corrections' salts, mail's order addresses)
    "2026-12": CorpusSet(
        CORPUS / "2026-12",
        plays_2026_12.play_all,
        plays_2026_12.START,
        "drts frozen corpus, set 2026-12",
        (lobby, intake, resolution, corrections, addresses),
        (lobby, resolution),
        match_record,
    ),
}


class SeededSecrets:
    """Stands in for the `secrets` module of the Matches application's commands while
    generating, so that a run is reproducible. Never outside this script: tokens must be
    unguessable."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def token_hex(self, nbytes: int = 32) -> str:
        """Returns `nbytes` seeded bytes in hexadecimal."""
        return self.rng.randbytes(nbytes).hex()

    def token_bytes(self, nbytes: int = 32) -> bytes:
        """Returns `nbytes` seeded bytes."""
        return self.rng.randbytes(nbytes)

    def token_urlsafe(self, nbytes: int = 32) -> str:
        """Returns `nbytes` seeded bytes in unpadded URL-safe base64."""
        return base64.urlsafe_b64encode(self.rng.randbytes(nbytes)).rstrip(b"=").decode()


@contextmanager
def seeded_randomness(corpus: CorpusSet) -> Iterator[None]:
    """Makes the Matches application draw its ids, tokens and salts from a seeded generator."""
    rng = random.Random(corpus.randomness_seed)
    with ExitStack() as patches:
        for module in corpus.secret_modules:
            patches.enter_context(mock.patch.object(module, "secrets", SeededSecrets(rng)))
        for module in corpus.uuid_modules:
            patches.enter_context(
                mock.patch.object(
                    module, "uuid4", lambda: uuid.UUID(bytes=rng.randbytes(16), version=4)
                )
            )
        yield


def play_into(corpus: CorpusSet, database_url: str) -> dict[str, Any]:
    """Migrates a fresh store, plays every corpus match into it, catches the read models up,
    and returns what the store shows (expected.json's content)."""
    schema.upgrade(Settings(database_url))
    with seeded_randomness(corpus):
        clock = ManualClock(corpus.start)
        app = Matches(env=Settings(database_url).event_store_env(), clock=clock)
        try:
            played = corpus.play_all(app)
            app.read_models.catch_up()
            shown = expectations(corpus, app, played, database_url)
        finally:
            app.close()
    return shown


def expectations(
    corpus: CorpusSet, app: Matches, played: list[Played], database_url: str
) -> dict[str, Any]:
    """Returns what the store shows: per match its head, status and outcome; the stored
    topics; the schema revision."""
    return {
        "about": (
            f"The frozen corpus ({_readme(corpus)}): what every stored match must keep "
            "showing. Generated once with the code of the commit named below; never "
            "regenerate or edit it."
        ),
        "generated": {
            "on": corpus.start.date().isoformat(),
            "commit": _git_head(),
            "eventsourcing": version("eventsourcing"),
        },
        "schema_revision": schema.current(Settings(database_url)),
        "topics": stored_topics(app, database_url),
        "matches": [match_expectation(corpus, app, p) for p in played],
    }


def _readme(corpus: CorpusSet) -> str:
    return str((corpus.folder / "README.md").relative_to(CORPUS.parents[1]))


def match_expectation(corpus: CorpusSet, app: Matches, played: Played) -> dict[str, Any]:
    """Returns one match's entry: id, game, description, head, status and outcome (and, for
    an unfinished match, the tokens a test needs to play it on)."""
    summary = app.summary(played.match_id)
    chain, replay = app.verify_chain(played.match_id), app.replay(played.match_id)
    assert chain.ok and replay.agrees and chain.head == summary.chain, played.key
    entry = {
        "key": played.key,
        "match_id": str(played.match_id),
        "game": summary.ruleset,
        "ruleset_version": summary.ruleset_version,
        "description": played.description,
        "seats": summary.seats,
        "status": summary.status,
        "head": {"version": summary.version, "chain": summary.chain},
        "movement": summary.movement,
        "outcome": app.get_match(played.match_id).outcome,  # as stored
        "replay_id": summary.rematch_id,  # expected.json's names for the rematch links
        "replay_of": summary.rematch_of,
    }
    if corpus.record is not None:
        entry |= corpus.record(app, played)
    return {**entry, "tokens": played.tokens} if played.tokens else entry


def make_sqlite(corpus: CorpusSet, path: Path) -> dict[str, Any]:
    """Plays the corpus into a new SQLite file and leaves it standalone and compact."""
    shown = play_into(corpus, f"sqlite:///{path}")
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.execute("PRAGMA journal_mode=DELETE")
    connection = sqlite3.connect(path)
    connection.execute("VACUUM")
    connection.close()
    return shown


def make_postgres(corpus: CorpusSet, dump: Path, admin_url: str) -> dict[str, Any]:
    """Plays the corpus into a new PostgreSQL database, dumps it, then drops it."""
    name = f"drts_corpus_{uuid.uuid4().hex[:10]}"
    database_url = admin_url.rsplit("/", 1)[0] + f"/{name}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        shown = play_into(corpus, database_url)
        dump_postgres(database_url, dump)
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    return shown


def main(argv: list[str] | None = None) -> None:
    """Generates the corpus files into --out, refusing to overwrite any."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), default="2026-11", dest="corpus")
    parser.add_argument("--out", type=Path, help="default: the set's folder")
    parser.add_argument("--postgres", default=ADMIN_URL, help="a maintenance database URL")
    args = parser.parse_args(argv)
    corpus = SETS[args.corpus]
    args.out = args.out or corpus.folder
    names = [f.name for f in (SQLITE_FILE, POSTGRES_DUMP, EXPECTED_FILE)]
    refuse_existing(args.out, names)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=args.out, prefix=".generating-") as work:
        sqlite_path, dump_path, expected_path = (Path(work) / name for name in names)
        on_sqlite = make_sqlite(corpus, sqlite_path)
        on_postgres = make_postgres(corpus, dump_path, args.postgres)
        if on_sqlite != on_postgres:
            raise SystemExit("the two stores show different matches: the run is not reproducible")
        expected_path.write_text(json.dumps(on_sqlite, indent=2, sort_keys=True) + "\n")
        for path in (sqlite_path, dump_path, expected_path):
            publish(path, args.out / path.name)


def refuse_existing(out: Path, names: list[str]) -> None:
    """Exits, writing nothing, if `out` holds any of the corpus files `names` (or an
    SQLite journal of one): a corpus is generated once and never overwritten."""
    journals = [f"{name}{tail}" for name in names for tail in ("-wal", "-shm", "-journal")]
    existing = [str(out / name) for name in (*names, *journals) if (out / name).exists()]
    if existing:
        raise SystemExit(f"refusing to overwrite a frozen corpus: {', '.join(existing)} exist")


def publish(made: Path, target: Path) -> None:
    """Moves a generated file to its place by a hard link, which never replaces a file
    (FileExistsError if one appeared meanwhile), and prints its size and digest."""
    os.link(made, target)
    digest = hashlib.sha256(target.read_bytes()).hexdigest()
    print(f"{target.name}: {target.stat().st_size} bytes, sha256 {digest}")


def _git_head() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=CORPUS, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


if __name__ == "__main__":
    main()
