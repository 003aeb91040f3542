"""The Matches log's write in one statement on PostgreSQL (service/store/eventwrite.py,
migration 0017, issue 46): what eventsourcing's write guarantees still holds.

Real PostgreSQL at 127.0.0.1:5432 (one database per test), real SQLite files.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from uuid import UUID, uuid4

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder

from service import schema
from service.matches import Matches
from service.settings import Settings
from service.store.eventwrite import MatchesRecorder
from tests.support.statements import counting_postgres

pytestmark = pytest.mark.usefixtures("toy_rulesets")

TOPIC = "tests.service.test_eventwrite:Written"


def events(originator: UUID, versions: range) -> list[StoredEvent]:
    return [StoredEvent(originator, v, TOPIC, f"state {v}".encode()) for v in versions]


@pytest.fixture
def pg_matches(pg_database: str) -> Iterator[Matches]:
    app = Matches(env=Settings(pg_database).event_store_env())
    yield app
    app.close()


@pytest.mark.postgres
def test_postgresql_writes_the_log_with_the_function_and_the_library_tracks(pg_matches):
    assert type(pg_matches.store.recorder) is MatchesRecorder
    assert pg_matches.store.snapshots is not None
    assert not isinstance(pg_matches.store.snapshots.recorder, MatchesRecorder)
    recorder = pg_matches.store.recorder
    originator = uuid4()
    with counting_postgres() as statements:
        sent = statements.of(lambda: recorder.insert_events(events(originator, range(1, 4))))
    sent = [s for s in sent if not s.startswith("SET idle")]  # the pool's new connections
    assert len(sent) == 1 and "drts_insert_events" in sent[0], sent
    assert [e.state for e in recorder.select_events(originator)] == [
        b"state 1",
        b"state 2",
        b"state 3",
    ]
    views = [p.view for p in pg_matches.read_models.projections.values()]
    assert views and all(isinstance(v, PostgresTrackingRecorder) for v in views)
    assert not any(isinstance(v, MatchesRecorder) for v in views)  # the projections' own


@pytest.mark.postgres
def test_a_version_stored_already_is_refused_with_the_library_exception(pg_matches):
    recorder = pg_matches.store.recorder
    originator = uuid4()
    first = recorder.insert_events(events(originator, range(1, 3)))
    with pytest.raises(IntegrityError):
        recorder.insert_events(events(originator, range(2, 5)))  # 2 is stored: none is
    assert [e.originator_version for e in recorder.select_events(originator)] == [1, 2]
    assert recorder.max_notification_id() == first[-1]
    assert recorder.has_insert_function  # a refusal is no missing function


@pytest.mark.postgres
def test_ids_are_contiguous_in_order_and_a_tailing_reader_skips_none(pg_database):
    """Two writers at once, batches of three events, and a reader tailing the log as the
    projections do (after the last id it saw): every batch gets consecutive ids in the
    order of its events, the log has no gap, and the reader sees every id in order."""
    env = Settings(pg_database).event_store_env()
    writers = [Matches(env=env), Matches(env=env)]
    reader = Matches(env=env)
    batches: list[tuple[UUID, list[int]]] = []
    seen: list[int] = []
    done = threading.Event()

    def write(app: Matches) -> None:
        for _ in range(40):
            originator = uuid4()
            ids = app.store.recorder.insert_events(events(originator, range(1, 4)))
            assert ids is not None
            batches.append((originator, list(ids)))

    def tail() -> None:
        last = 0
        while True:
            finished = done.is_set()
            notes = reader.store.recorder.select_notifications(last, 100, inclusive_of_start=False)
            seen.extend(note.id for note in notes)
            last = notes[-1].id if notes else last
            if finished and not notes:
                return

    threads = [threading.Thread(target=write, args=(app,)) for app in writers]
    follower = threading.Thread(target=tail)
    try:
        follower.start()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        done.set()
        follower.join(timeout=60)
        stored = reader.store.recorder.select_notifications(1, 1000)
    finally:
        for app in (*writers, reader):
            app.close()
    assert len(batches) == 80
    for originator, ids in batches:
        assert ids == list(range(ids[0], ids[0] + 3))
        by_id = {n.id: n for n in stored}
        assert [(by_id[i].originator_id, by_id[i].originator_version) for i in ids] == [
            (originator, 1),
            (originator, 2),
            (originator, 3),
        ]
    assert [n.id for n in stored] == list(range(1, 241))
    assert seen == list(range(1, 241))


@pytest.mark.postgres
def test_a_write_notifies_a_listening_connection(pg_matches, pg_database):
    with psycopg.connect(pg_database, autocommit=True) as listener:
        listener.execute("LISTEN matches_events")
        pg_matches.store.recorder.insert_events(events(uuid4(), range(1, 2)))
        got = list(listener.notifies(timeout=5, stop_after=1))
    assert [note.channel for note in got] == ["matches_events"]


@pytest.mark.postgres
def test_a_database_without_the_function_is_written_as_the_library_writes(pg_database):
    settings = Settings(pg_database)
    schema.downgrade(settings, "0016")
    with pytest.raises(schema.SchemaOutOfDateError, match="0016, behind"):
        Matches(env=settings.event_store_env())  # the service refuses it at start
    app = _opened_without_prepare(settings)
    try:
        recorder = app.store.recorder
        originator = uuid4()
        with counting_postgres() as statements:
            sent = statements.of(lambda: recorder.insert_events(events(originator, range(1, 3))))
        assert not recorder.has_insert_function
        assert any(s.startswith("LOCK TABLE") for s in sent) and any(
            s.startswith("NOTIFY") for s in sent
        ), sent
        with pytest.raises(IntegrityError):
            recorder.insert_events(events(originator, range(2, 3)))
        assert [e.originator_version for e in recorder.select_events(originator)] == [1, 2]
    finally:
        app.close()
    schema.upgrade(settings)
    again = Matches(env=settings.event_store_env())
    try:
        ids = again.store.recorder.insert_events(events(uuid4(), range(1, 2)))
        assert ids is not None and ids[0] > 2  # (the refused write used an id: a gap)
        assert again.store.recorder.has_insert_function
    finally:
        again.close()


def _opened_without_prepare(settings: Settings) -> Matches:
    """Opens the Matches on a database behind the latest revision (as the adopted stores of
    tests/service/test_migrations.py are): `prepare` is skipped."""
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(schema, "prepare", lambda store: None)
        return Matches(env=settings.event_store_env())


@pytest.mark.postgres
def test_a_schema_named_in_the_url_gets_the_function(empty_pg_url):
    settings = Settings(f"{empty_pg_url}?schema=league")
    schema.upgrade(settings)
    app = Matches(env=settings.event_store_env())
    try:
        app.create_match("toy")
        assert app.store.recorder.has_insert_function
    finally:
        app.close()
    with psycopg.connect(empty_pg_url) as conn:
        found = conn.execute(
            "SELECT n.nspname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
            "WHERE p.proname = 'drts_insert_events'"
        ).fetchall()
    assert found == [("league",)]


def test_sqlite_is_written_by_the_library(sqlite_template, tmp_path):
    url = f"sqlite:///{tmp_path}/drts.sqlite"
    with open(sqlite_template, "rb") as source, open(f"{tmp_path}/drts.sqlite", "wb") as copy:
        copy.write(source.read())
    app = Matches(env=Settings(url).event_store_env())
    try:
        assert type(app.store.recorder) is SQLiteApplicationRecorder
        assert app.store.recorder.insert_events(events(uuid4(), range(1, 3))) == [1, 2]
    finally:
        app.close()


@pytest.mark.postgres
def test_a_long_batch_with_large_versions_is_stored_in_its_order(pg_matches):
    """Each batch size has its own call text; versions past int4 bind as bigint."""
    recorder = pg_matches.store.recorder
    originator = uuid4()
    versions = range(2**33, 2**33 + 25)
    ids = recorder.insert_events(events(originator, versions))
    assert ids is not None and list(ids) == list(range(ids[0], ids[0] + 25))
    stored = recorder.select_events(originator)
    assert [(e.originator_version, e.state) for e in stored] == [
        (v, f"state {v}".encode()) for v in versions
    ]
    assert [n.originator_version for n in recorder.select_notifications(ids[0], 25)] == list(
        versions
    )
