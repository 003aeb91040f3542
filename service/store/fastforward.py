"""The events stored after several kept matches, read in one query (issue 31).

A worker resolving a burst keeps the batch's matches loaded (`Matches.warm`) and
fast-forwards each over the events stored since (service/store/matchcache.py): one query a
match. On PostgreSQL this reads them for a whole group in one query instead; the rows
are then decoded and checked exactly as a single match's are (`loading.checked_rows`).
On SQLite, whose one writer makes bursts small, nothing is read ahead: each match is
fast-forwarded with its own query, as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresAggregateRecorder
from psycopg.sql import SQL, Identifier

from service.readmodels.heads import BROKEN_LOG
from service.store.loading import StoreParts
from service.store.logguard import Recorded


@dataclass(frozen=True)
class ReadAhead:
    """The rows a match had stored after `version` when they were read, and what the read
    models had recorded of it then (its head, a broken-log quarantine:
    service/store/logguard.py)."""

    version: int
    rows: list[StoredEvent]
    recorded: Recorded | None = None


QUERY = SQL(
    "SELECT k.id AS match_id, l.head_version AS recorded, f.message AS broken, "
    "(SELECT MAX(m.originator_version) FROM {table} AS m WHERE m.originator_id = k.id) "
    "AS log_end, e.originator_version, e.topic, e.state "
    "FROM unnest(%s::uuid[], %s::bigint[]) AS k(id, version) "
    "LEFT JOIN {list} AS l ON l.match_id = k.id "
    "LEFT JOIN {failures} AS f ON f.match_id = k.id AND f.error = %s "
    "AND f.quarantined_at IS NOT NULL "
    "LEFT JOIN {table} AS e ON e.originator_id = k.id AND e.originator_version > k.version "
    "ORDER BY k.id, e.originator_version"
)


def rows_after(app: StoreParts, versions: Mapping[UUID, int]) -> dict[UUID, ReadAhead] | None:
    """Returns the rows stored after each match's version, by match (empty lists
    included), with what the read models recorded of it, in one query; None when the
    store cannot (not PostgreSQL)."""
    recorder = app.recorder
    if not versions or not isinstance(recorder, PostgresAggregateRecorder):
        return None
    if recorder.datastore.originator_id_type != "uuid":
        return None
    schema = recorder.datastore.schema
    query = QUERY.format(
        table=Identifier(schema, recorder.events_table_name),
        list=Identifier(schema, "match_list"),
        failures=Identifier(schema, "match_failures"),
    )
    found: dict[UUID, list[StoredEvent]] = {match_id: [] for match_id in versions}
    recorded: dict[UUID, Recorded] = {}
    with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
        cursor.execute(query, (list(versions), list(versions.values()), BROKEN_LOG))
        for row in cursor.fetchall():
            match_id = row["match_id"]
            recorded.setdefault(match_id, Recorded(row["recorded"], row["broken"], row["log_end"]))
            if row["originator_version"] is not None:
                found[match_id].append(
                    StoredEvent(
                        originator_id=match_id,
                        originator_version=row["originator_version"],
                        topic=row["topic"],
                        state=bytes(row["state"]),
                    )
                )
    return {m: ReadAhead(versions[m], rows, recorded.get(m)) for m, rows in found.items()}
