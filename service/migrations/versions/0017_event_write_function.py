"""Event write function: the Matches log's write in one statement (PostgreSQL only).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-02

`drts_insert_events(ids, versions, topics, states, lock_timeout_seconds)` does in one
call what eventsourcing 9.5.6's PostgresApplicationRecorder sends as six statements
(BEGIN, SET LOCAL lock_timeout, LOCK TABLE, NOTIFY, INSERT, COMMIT: issue 46), in the
same order and with the same effect, and returns the new rows' notification ids in the
order of the arrays. Called in autocommit, the call is its own transaction: the table's
EXCLUSIVE lock is held until it commits, so notification ids commit in the order they
are issued (the tailing readers skip nothing, unlike the library's own
`es_insert_events_uuid`, which takes no lock: /work/shared/notes/stack.md 1.9), and the
NOTIFY is delivered with the commit. A duplicate (originator_id, originator_version)
raises unique_violation as the INSERT did (service/store/eventwrite.py calls it).

The table is named with the schema the migration runs in (`?schema=` in the URL), so
the function does not depend on the caller's search_path. SQLite gets nothing.
Downgrading drops the function; the recorder then writes as the library does.
"""

from __future__ import annotations

from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

FUNCTION = """
CREATE OR REPLACE FUNCTION {schema}.drts_insert_events(
    ids uuid[], versions bigint[], topics text[], states bytea[], lock_timeout_seconds integer
) RETURNS bigint[]
LANGUAGE plpgsql AS $body$
DECLARE
    notification_ids bigint[];
BEGIN
    PERFORM set_config('lock_timeout', lock_timeout_seconds || 's', true);
    LOCK TABLE {schema}.matches_events IN EXCLUSIVE MODE;
    NOTIFY matches_events;
    WITH inserted AS (
        INSERT INTO {schema}.matches_events (originator_id, originator_version, topic, state)
        SELECT e.originator_id, e.originator_version, e.topic, e.state
        FROM unnest(ids, versions, topics, states) WITH ORDINALITY
            AS e(originator_id, originator_version, topic, state, position)
        ORDER BY e.position
        RETURNING notification_id
    )
    SELECT array_agg(notification_id ORDER BY notification_id) INTO notification_ids
    FROM inserted;
    RETURN notification_ids;
END
$body$
"""

SIGNATURE = "drts_insert_events(uuid[], bigint[], text[], bytea[], integer)"


def upgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    op.execute(FUNCTION.format(schema=_schema()))


def downgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    op.execute(f"DROP FUNCTION IF EXISTS {_schema()}.{SIGNATURE}")


def _schema() -> str:
    """Returns the schema the migration runs in, quoted (service/migrations/env.py sets
    the search_path to the URL's `?schema=`; `public` otherwise)."""
    return str(op.get_bind().exec_driver_sql("SELECT quote_ident(current_schema())").scalar())
