"""Alembic owns the schema, on SQLite and on PostgreSQL: upgrade from empty, the frozen
event store, autogenerate's silence, the read models' round trip, upgrade-or-refuse."""

from __future__ import annotations

import subprocess
import sys
import threading
from contextlib import ExitStack
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.utils import Environment
from sqlalchemy import Engine, inspect

from service import schema
from service.matches import Matches
from service.readmodels.tables import PROJECTION_NAMES, include_name, metadata
from service.schema import SchemaOutOfDateError
from service.settings import Settings
from tests.service.readmodel_support import play_random_mix, snapshots
from tests.support.postgres import new_pg_database, pg_url
from tests.support.tables import EVENT_STORE

pytestmark = pytest.mark.usefixtures("toy_rulesets")

READ_MODELS = {table.name for table in metadata.sorted_tables}
TRACKING = {f"{name}_tracking" for name in PROJECTION_NAMES}


def engine(url: str) -> Engine:
    return schema.make_engine(Settings(url))


def tables(url: str) -> set[str]:
    db = engine(url)
    try:
        return set(inspect(db).get_table_names())
    finally:
        db.dispose()


def rows(url: str, sql: str) -> list[tuple[Any, ...]]:
    db = engine(url)
    try:
        with db.begin() as connection:
            result = connection.exec_driver_sql(sql)
            return [tuple(row) for row in result] if result.returns_rows else []
    finally:
        db.dispose()


def library_tables(url: str) -> None:
    """Creates the event store's tables as eventsourcing itself does (table creation on)."""
    env = {**Settings(url).event_store_env(), "CREATE_TABLE": "yes"}
    factory = InfrastructureFactory.construct(Environment("Matches", env))
    factory.application_recorder()
    factory.aggregate_recorder("snapshots")
    factory.close()


def described(url: str, names: tuple[str, ...]) -> dict[str, Any]:
    """Returns the columns, keys and indexes of tables, as the database reports them."""
    db = engine(url)
    try:
        inspector = inspect(db)
        return {
            name: (
                [(c["name"], str(c["type"]), c["nullable"]) for c in inspector.get_columns(name)],
                inspector.get_pk_constraint(name)["constrained_columns"],
                sorted(
                    (i["name"], i["column_names"], i["unique"]) for i in inspector.get_indexes(name)
                ),
            )
            for name in names
        }
    finally:
        db.dispose()


def test_upgrade_from_empty_creates_the_event_store_read_models_and_tracking(empty_url):
    settings = Settings(empty_url)
    assert schema.current(settings) is None
    schema.upgrade(settings)
    assert schema.current(settings) == schema.head()
    dialect = "postgresql" if "postgres" in empty_url else "sqlite"
    assert tables(empty_url) == {*EVENT_STORE[dialect], *READ_MODELS, *TRACKING, "alembic_version"}
    for table in TRACKING:
        assert rows(empty_url, f"SELECT * FROM {table}") == [("__migration__", 1)]
    app = Matches(env=settings.event_store_env())
    try:
        new = app.create_match("toy")
        assert [item["match_id"] for item in app.list_matches().items] == [str(new.match_id)]
    finally:
        app.close()


def test_the_frozen_migration_is_what_eventsourcing_creates(empty_url, tmp_path):
    dialect = "postgresql" if "postgres" in empty_url else "sqlite"
    schema.upgrade(Settings(empty_url), schema.EVENT_STORE_REVISION)
    with ExitStack() as stack:
        reference = (
            f"sqlite:///{tmp_path}/library.sqlite"
            if dialect == "sqlite"
            else pg_url(stack.enter_context(new_pg_database("drts_e")))
        )
        library_tables(reference)
        assert described(empty_url, EVENT_STORE[dialect]) == described(
            reference, EVENT_STORE[dialect]
        )
        if dialect == "postgresql":
            types = (
                "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_type t "
                "JOIN pg_attribute a ON a.attrelid = t.typrelid "
                "WHERE t.typname = 'stored_event_uuid' ORDER BY a.attnum"
            )
            assert rows(empty_url, types) == rows(reference, types) != []


def test_autogenerate_proposes_nothing_and_never_the_event_stores_drop(empty_url):
    settings = Settings(empty_url)
    schema.upgrade(settings)
    command.check(schema.alembic_config(settings))  # `alembic check`: raises if it finds work
    db = engine(empty_url)
    try:
        with db.connect() as connection:
            filtered = MigrationContext.configure(connection, opts={"include_name": include_name})
            assert compare_metadata(filtered, metadata) == []
            unfiltered = compare_metadata(MigrationContext.configure(connection), metadata)
    finally:
        db.dispose()
    dropped = {op[1].name for op in unfiltered if isinstance(op, tuple) and op[0] == "remove_table"}
    assert (
        dropped
        == set(EVENT_STORE["postgresql" if "postgres" in empty_url else "sqlite"]) | TRACKING
    )  # what the filter keeps autogenerate from proposing


def test_the_read_models_come_back_after_a_downgrade_then_upgrade(database_url, clock):
    app = Matches(env=Settings(database_url).event_store_env(), clock=clock)
    try:
        play_random_mix(app, clock, seed=5, count=4)
        app.read_models.catch_up()
        before = snapshots(app.read_models)
        schema.downgrade(Settings(database_url), schema.EVENT_STORE_REVISION)
        assert tables(database_url).isdisjoint(READ_MODELS | TRACKING)
        schema.upgrade(Settings(database_url))
        app.read_models.catch_up()
        assert snapshots(app.read_models) == before
    finally:
        app.close()


def test_downgrading_the_event_store_itself_is_refused(database_url):
    with pytest.raises(RuntimeError, match="refusing to downgrade below revision 0001"):
        schema.downgrade(Settings(database_url), "base")
    assert schema.current(Settings(database_url)) == schema.head()


def test_a_new_sqlite_file_is_migrated_when_opened(tmp_path):
    settings = Settings(f"sqlite:///{tmp_path}/fresh/drts.sqlite")
    Matches(env=settings.event_store_env()).close()
    assert schema.current(settings) == schema.head()


@pytest.mark.postgres
def test_postgresql_not_at_the_latest_revision_is_refused_naming_drts_db_upgrade(empty_pg_url):
    settings = Settings(empty_pg_url)
    with pytest.raises(SchemaOutOfDateError, match=r"never migrated.*`drts db upgrade`"):
        Matches(env=settings.event_store_env())
    schema.upgrade(settings, schema.EVENT_STORE_REVISION)
    with pytest.raises(SchemaOutOfDateError, match=r"at revision 0001, behind.*`drts db upgrade`"):
        Matches(env=settings.event_store_env())
    assert schema.current(settings) == schema.EVENT_STORE_REVISION  # nothing was migrated
    rows(empty_pg_url, "UPDATE alembic_version SET version_num = '9999'")
    with pytest.raises(SchemaOutOfDateError, match="9999, which this version of drts does not"):
        Matches(env=settings.event_store_env())


def test_a_store_eventsourcing_made_before_the_migrations_is_adopted(empty_url, monkeypatch):
    settings = Settings(empty_url)
    library_tables(empty_url)
    with monkeypatch.context() as patched:  # the old code: no migrations, tables by the library
        patched.setattr(schema, "prepare", lambda store: None)
        old = Matches(env={**settings.event_store_env(), "CREATE_TABLE": "yes"})
        made = old.create_match("toy").match_id
        old.close()
    schema.upgrade(settings)
    app = Matches(env=settings.event_store_env())
    try:
        assert [item["match_id"] for item in app.list_matches().items] == [str(made)]
    finally:
        app.close()


def test_processes_opening_a_new_sqlite_file_together_migrate_it_once(tmp_path):
    """`drts run` starts the API and the worker at once on the embedded file."""
    url = f"sqlite:///{tmp_path}/together.sqlite"
    opener = (
        "from service.matches import Matches; from service.settings import Settings; "
        f"Matches(env=Settings({url!r}).event_store_env()).close()"
    )
    processes = [
        subprocess.Popen([sys.executable, "-c", opener], stderr=subprocess.PIPE) for _ in range(3)
    ]
    opened: list[str] = []

    def open_here() -> None:
        Matches(env=Settings(url).event_store_env()).close()
        opened.append("ok")

    threads = [threading.Thread(target=open_here) for _ in range(2)]
    for thread in threads:
        thread.start()
    for process in processes:
        assert process.wait(timeout=60) == 0, process.stderr.read() if process.stderr else ""
    for thread in threads:
        thread.join(timeout=60)
    assert opened == ["ok", "ok"] and schema.current(Settings(url)) == schema.head()


@pytest.mark.postgres
def test_a_postgresql_schema_named_in_the_url_holds_everything(empty_pg_url):
    settings = Settings(f"{empty_pg_url}?schema=league")
    schema.upgrade(settings)
    assert schema.current(settings) == schema.head()
    app = Matches(env=settings.event_store_env())
    try:
        new = app.create_match("toy")
        assert [item["match_id"] for item in app.list_matches().items] == [str(new.match_id)]
    finally:
        app.close()
    assert rows(empty_pg_url, "SELECT count(*) FROM league.match_list") == [(1,)]
    assert tables(empty_pg_url) == set()  # nothing in public
