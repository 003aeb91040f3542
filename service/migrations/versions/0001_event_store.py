"""Event store: eventsourcing 9.5.6's tables for the application "Matches", frozen.

Revision ID: 0001
Revises:
Create Date: 2026-11-29

The statements are the ones eventsourcing 9.5.6 runs for the application
named "Matches" (printed once from the library, copied here; never import
library DDL in a migration, or a library upgrade would rewrite history):

- PostgreSQL: `matches_events` (the log; `notification_id` is the position),
  its unique index on `notification_id`, `matches_snapshots`, and the
  composite type `stored_event_uuid` that the insert path needs even with
  table creation off. Left out on purpose: the function
  `es_insert_events_uuid`, used only with POSTGRES_ENABLE_DB_FUNCTIONS, which
  drts keeps off (its inserts let tailing readers skip events).
- SQLite: eventsourcing's fixed names `stored_events` (the rowid is the
  position) and `stored_snapshots`.

`IF NOT EXISTS` (and the guarded CREATE TYPE) let `drts db upgrade` adopt a
store that eventsourcing created before the migrations existed. The
projections' tracking tables belong to the read models (revision 0002).
Downgrading this revision would drop every event: it refuses.
"""

from __future__ import annotations

from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

AUTOVACUUM = (
    "WITH ("
    "    autovacuum_enabled = true,"
    "    autovacuum_vacuum_threshold = 100000000,"
    "    autovacuum_vacuum_scale_factor = 0.5,"
    "    autovacuum_analyze_threshold = 1000,"
    "    autovacuum_analyze_scale_factor = 0.01"
    ")"
)

POSTGRES = (
    "CREATE TABLE IF NOT EXISTS matches_events ("
    "originator_id uuid NOT NULL, "
    "originator_version bigint NOT NULL, "
    "topic text, "
    "state bytea, "
    "notification_id bigserial, "
    f"PRIMARY KEY (originator_id, originator_version)) {AUTOVACUUM}",
    "CREATE UNIQUE INDEX IF NOT EXISTS matches_events_notification_id_idx "
    "ON matches_events (notification_id ASC)",
    "CREATE TABLE IF NOT EXISTS matches_snapshots ("
    "originator_id uuid NOT NULL, "
    "originator_version bigint NOT NULL, "
    "topic text, "
    "state bytea, "
    f"PRIMARY KEY (originator_id, originator_version)) {AUTOVACUUM}",
    "DO $$ BEGIN "
    "CREATE TYPE stored_event_uuid AS "
    "(originator_id uuid, originator_version bigint, topic text, state bytea); "
    "EXCEPTION WHEN duplicate_object THEN NULL; END $$",
)

SQLITE = (
    "CREATE TABLE IF NOT EXISTS stored_events ("
    "originator_id TEXT, "
    "originator_version INTEGER, "
    "topic TEXT, "
    "state BLOB, "
    "PRIMARY KEY (originator_id, originator_version))",
    "CREATE TABLE IF NOT EXISTS stored_snapshots ("
    "originator_id TEXT, "
    "originator_version INTEGER, "
    "topic TEXT, "
    "state BLOB, "
    "PRIMARY KEY (originator_id, originator_version)) "
    "WITHOUT ROWID",
)


def upgrade() -> None:
    postgres = op.get_context().dialect.name == "postgresql"
    for statement in POSTGRES if postgres else SQLITE:
        op.execute(statement)


def downgrade() -> None:
    raise RuntimeError(
        "refusing to downgrade below revision 0001: it would drop the event "
        "store, the only source of truth (dump the database first if you "
        "really mean it, then drop the tables by hand)"
    )
