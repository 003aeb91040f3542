"""Alembic's environment for drts: the database comes from service/settings.py.

`drts db upgrade` (service/schema.py) hands this script an engine; the
`alembic` command line (alembic.ini at the top) gets one from
DRTS_DATABASE_URL, or from `-x url=...` / `sqlalchemy.url` if given.

Autogenerate compares the read-model metadata only: `include_name` keeps it
away from eventsourcing's tables (event store, tracking) and Celery's, so it
never proposes dropping them.
"""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection, Engine, create_engine, pool

from service.readmodels.tables import include_name, metadata
from service.schema import ADVISORY_LOCK, immediate_transactions, make_engine, schema_name
from service.settings import Settings, load_settings

config = context.config
if config.config_file_name is not None:
    fileConfig(config.config_file_name)


def engine_and_schema() -> tuple[Engine, str | None]:
    """Returns the engine to migrate and the PostgreSQL schema (None for the default)."""
    engine = config.attributes.get("engine")
    if engine is not None:
        return engine, config.attributes.get("schema")
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if url:
        engine = create_engine(url, poolclass=pool.NullPool)
        if engine.dialect.name == "sqlite":
            immediate_transactions(engine)
        return engine, None
    settings: Settings = load_settings()
    return make_engine(settings), schema_name(settings)


def run(connection: Connection, schema: str | None) -> None:
    """Runs the migrations in one transaction (the DDL of both databases is transactional)."""
    postgres = connection.dialect.name == "postgresql"
    if postgres and schema:
        connection.exec_driver_sql(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
        connection.exec_driver_sql(f'SET search_path TO "{schema}"')
        connection.commit()
    context.configure(
        connection=connection,
        target_metadata=metadata,
        include_name=include_name,
        render_as_batch=not postgres,
        transactional_ddl=True,
        version_table_schema=schema,
        compare_type=True,
    )
    with context.begin_transaction():
        if postgres:
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({ADVISORY_LOCK})")
        context.run_migrations()


def run_online() -> None:
    engine, schema = engine_and_schema()
    with engine.connect() as connection:
        run(connection, schema)
    if "engine" not in config.attributes:
        engine.dispose()


if context.is_offline_mode():
    raise SystemExit(
        "drts migrations run against a database: offline (--sql) mode is not supported"
    )
run_online()
