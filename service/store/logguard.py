"""The write's guard against a log cut short (issue 42; docs/integrity.md, What the service
checks by itself).

The match list read model records each match's head (service/readmodels/heads.py), and
an honest log never ends before it: the read model only takes events that were stored.
So a command refuses to write to a match whose log ends before that recorded head (the
last events were deleted: a new order would take their place and play the match again),
and to one the read models quarantined for a broken log, and quarantines the match: the
sweep leaves it, /health lists it, and `verify` names the truncation.

The check costs no query of its own: the read a command already makes of the match's
newest rows (those after its kept version, or after its snapshot) is one statement that
also returns the recorded head and any broken-log quarantine (LEFT JOINs on the match
list and the failures table, by primary key). On PostgreSQL a burst's read-ahead does
the same for a group of matches in its one query (service/store/fastforward.py). Only the
in-memory store (unit tests) asks the read model in a second query.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresAggregateRecorder
from eventsourcing.sqlite import SQLiteAggregateRecorder
from psycopg.sql import SQL, Identifier

from domain.match import Match
from service.errors import TruncatedLogError
from service.readmodels.heads import BROKEN_LOG, broken_log_statement
from service.store.loading import StoreParts

logger = logging.getLogger(__name__)

SQLITE_QUERY = (
    "SELECT l.head_version AS recorded, f.message AS broken, (SELECT MAX(m.originator_version) "
    "FROM stored_events AS m WHERE m.originator_id = k.id) AS log_end, e.originator_id, "
    "e.originator_version, e.topic, e.state FROM (SELECT ? AS id) AS k "
    "LEFT JOIN match_list AS l ON l.match_id = k.id "
    "LEFT JOIN match_failures AS f ON f.match_id = k.id AND f.error = ? "
    "AND f.quarantined_at IS NOT NULL "
    "LEFT JOIN stored_events AS e ON e.originator_id = k.id AND e.originator_version > ? "
    "ORDER BY e.originator_version"
)
POSTGRES_QUERY = SQL(
    "SELECT l.head_version AS recorded, f.message AS broken, (SELECT MAX(m.originator_version) "
    "FROM {events} AS m WHERE m.originator_id = k.id) AS log_end, e.originator_id, "
    "e.originator_version, e.topic, e.state FROM (SELECT %s::uuid AS id) AS k "
    "LEFT JOIN {list} AS l ON l.match_id = k.id "
    "LEFT JOIN {failures} AS f ON f.match_id = k.id AND f.error = %s "
    "AND f.quarantined_at IS NOT NULL "
    "LEFT JOIN {events} AS e ON e.originator_id = k.id AND e.originator_version > %s "
    "ORDER BY e.originator_version"
)


@dataclass
class Recorded:
    """What the store and the read models hold of a match, read with its rows: the head
    the match list recorded (None: none), a broken-log quarantine's reason (None: none),
    and the last version stored (None: not read, the in-memory store)."""

    head: int | None = None
    broken: str | None = None
    log_end: int | None = None


class LogGuard:
    """Reads a command's rows of one match with what the read models recorded of it, and
    refuses a write to a log that ends before the recorded head (module docstring)."""

    def __init__(self, app: StoreParts, match_id: UUID) -> None:
        self.app, self.match_id = app, match_id
        self.recorded: Recorded | None = None

    def select(
        self,
        match_id: UUID,
        gt: int | None = None,
        lte: int | None = None,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        """Returns the match's rows after `gt` as the recorder's `select_events` does, and
        keeps what the read models recorded of it (one statement where the store can)."""
        recorder = self.app.recorder
        if lte is not None or limit is not None or match_id != self.match_id:
            return recorder.select_events(match_id, gt=gt, lte=lte, limit=limit)
        if isinstance(recorder, PostgresAggregateRecorder):
            return self._postgres(recorder, gt or 0)
        if isinstance(recorder, SQLiteAggregateRecorder):
            return self._sqlite(recorder, gt or 0)
        rows = recorder.select_events(match_id, gt=gt)
        self.recorded = _read_model_record(self.app, match_id)  # in memory: a second query
        return rows

    def check(self, match: Match) -> None:
        """Raises TruncatedLogError, and quarantines the match, when its log ends before the
        head the match list recorded or the read models quarantined it for a broken log."""
        recorded = self.recorded
        if recorded is None:
            return
        if recorded.broken is not None:
            raise TruncatedLogError(match.id, match.version, recorded.head, recorded.broken)
        end = match.version if recorded.log_end is None else recorded.log_end
        if recorded.head is not None and end < recorded.head:
            reason = (
                f"truncated: the log ends at version {end}, before the head at "
                f"version {recorded.head} that the match list read model recorded"
            )
        elif end < match.version:
            reason = (
                f"truncated: the log ends at version {end}, before version {match.version}, "
                "which this process read and kept"
            )
        else:
            return
        quarantine_broken_log(self.app, match.id, match.movement, reason)
        raise TruncatedLogError(match.id, end, recorded.head or match.version, reason)

    def _sqlite(self, recorder: SQLiteAggregateRecorder, gt: int) -> list[StoredEvent]:
        # one statement in autocommit, as on PostgreSQL below: no BEGIN and ROLLBACK
        with recorder.datastore.get_connection(commit=False) as conn, conn.cursor() as cursor:
            cursor.execute(SQLITE_QUERY, (self.match_id.hex, BROKEN_LOG, gt))
            return self._rows(cursor.fetchall(), recorder.convert_originator_id)

    def _postgres(self, recorder: PostgresAggregateRecorder, gt: int) -> list[StoredEvent]:
        # one statement on the pool's autocommit connection (a statement is its own
        # snapshot): no BEGIN, no ROLLBACK, and so no DEALLOCATE ALL of the prepared
        # statements that psycopg sends after a rollback (issue 46: statements an order)
        with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
            query = _postgres_query(recorder, conn)
            cursor.execute(query, (self.match_id, BROKEN_LOG, gt), prepare=True)
            return self._rows(cursor.fetchall(), lambda value: value)

    def _rows(self, rows: Sequence[Any], originator: Any) -> list[StoredEvent]:
        first = dict(rows[0]) if rows else {}
        self.recorded = Recorded(first.get("recorded"), first.get("broken"), first.get("log_end"))
        return [
            StoredEvent(
                originator_id=originator(row["originator_id"]),
                originator_version=row["originator_version"],
                topic=row["topic"],
                state=bytes(row["state"]),
            )
            for row in rows
            if row["originator_version"] is not None
        ]


_QUERIES: dict[tuple[str, str], str] = {}  # POSTGRES_QUERY's text, by schema and log table


def _postgres_query(recorder: PostgresAggregateRecorder, conn: Any) -> str:
    """Returns POSTGRES_QUERY's text for the recorder's schema and log table, composed
    once a process, not at every command."""
    key = (recorder.datastore.schema, recorder.events_table_name)
    text = _QUERIES.get(key)
    if text is None:
        schema = recorder.datastore.schema
        composed = POSTGRES_QUERY.format(
            list=Identifier(schema, "match_list"),
            failures=Identifier(schema, "match_failures"),
            events=Identifier(schema, recorder.events_table_name),
        )
        text = _QUERIES[key] = composed.as_string(conn)
    return text


def quarantine_broken_log(app: StoreParts, match_id: UUID, movement: int, reason: str) -> None:
    """Quarantines a match for a broken log (no event can be written to it: the failures
    table says it), and logs why."""
    logger.error("match %s is quarantined: %s", match_id, reason)
    sql, params = broken_log_statement(match_id, movement, reason)
    app.read_models.view("deadlines").execute(sql, params)


def _read_model_record(app: StoreParts, match_id: UUID) -> Recorded:
    rows = app.read_models.view("match_list").query(
        "SELECT l.head_version AS recorded, f.message AS broken FROM {match_list} AS l "
        "LEFT JOIN {match_failures} AS f ON f.match_id = l.match_id AND f.error = :error "
        "AND f.quarantined_at IS NOT NULL WHERE l.match_id = :match_id",
        {"match_id": match_id, "error": BROKEN_LOG},
    )
    return Recorded(rows[0]["recorded"], rows[0]["broken"]) if rows else Recorded()
