"""The events stored after several kept matches, read in one query (issue 31).

A worker resolving a burst keeps the batch's matches loaded (`Matches.warm`) and
fast-forwards each over the events stored since (service/matchcache.py): one query a
match. On PostgreSQL this reads them for a whole group in one query instead; the rows
are then decoded and checked exactly as a single match's are (`loading.checked_rows`).
On SQLite, whose one writer makes bursts small, nothing is read ahead: each match is
fast-forwarded with its own query, as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresAggregateRecorder
from psycopg.sql import SQL, Identifier

if TYPE_CHECKING:
    from service.store import MatchStore


@dataclass(frozen=True)
class ReadAhead:
    """The rows a match had stored after `version` when they were read."""

    version: int
    rows: list[StoredEvent]


QUERY = SQL(
    "SELECT e.originator_id, e.originator_version, e.topic, e.state "
    "FROM {table} e JOIN unnest(%s::uuid[], %s::bigint[]) AS k(id, version) "
    "ON e.originator_id = k.id AND e.originator_version > k.version "
    "ORDER BY e.originator_id, e.originator_version"
)


def rows_after(
    app: MatchStore, versions: Mapping[UUID, int]
) -> dict[UUID, list[StoredEvent]] | None:
    """Returns the rows stored after each match's version, by match (empty lists
    included), in one query; None when the store cannot (not PostgreSQL)."""
    recorder = app.recorder
    if not versions or not isinstance(recorder, PostgresAggregateRecorder):
        return None
    if recorder.datastore.originator_id_type != "uuid":
        return None
    table = Identifier(recorder.datastore.schema, recorder.events_table_name)
    found: dict[UUID, list[StoredEvent]] = {match_id: [] for match_id in versions}
    with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
        cursor.execute(QUERY.format(table=table), (list(versions), list(versions.values())))
        for row in cursor.fetchall():
            found[row["originator_id"]].append(
                StoredEvent(
                    originator_id=row["originator_id"],
                    originator_version=row["originator_version"],
                    topic=row["topic"],
                    state=bytes(row["state"]),
                )
            )
    return found
