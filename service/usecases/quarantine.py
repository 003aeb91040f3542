"""Counting a match's failed resolutions, and the list of quarantined matches
(DESIGN.md, Isolation: a match that keeps failing is quarantined while the rest go on).

A failed resolution records no event (the command that failed saved nothing),
so the failures are counted in the `match_failures` table (migration 0004):
one row per match, holding the last failure (movement, the exception's name
and text) and how many times in a row the match failed that way. Failures are
"the same" when the movement and the exception's name agree (its text may
vary: it may quote an address or a time). A resolution that succeeds deletes
the row. Once the count reaches the setting DRTS_QUARANTINE_AFTER, the
service records `Match.Quarantined` (the record that counts) and marks the
row (`quarantined_at`): the sweep's query of due movements leaves marked
matches out, and `quarantined()` lists them in one query (for /health). The
referee's retry (`Match.QuarantineLifted`) deletes the row.

Statements run through a read model view (service/readmodels/recorders.py),
which knows both databases; the table belongs to no projection.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from service.readmodels.recorders import FAILURES, MAX_ERROR_CHARS, error_text
from service.readmodels.runner import ReadModels
from service.results import QuarantinedMatch

VIEW = "deadlines"  # every projection's view reaches the table; this one is the sweep's

_COUNT = (
    f"INSERT INTO {{{FAILURES}}} AS f "
    "(match_id, movement, error, message, failures, first_seen, last_seen) "
    "VALUES (:match_id, :movement, :error, :message, 1, :now, :now) "
    "ON CONFLICT (match_id) DO UPDATE SET "
    "failures = CASE WHEN f.movement = excluded.movement AND f.error = excluded.error "
    "THEN f.failures + 1 ELSE 1 END, "
    "first_seen = CASE WHEN f.movement = excluded.movement AND f.error = excluded.error "
    "THEN f.first_seen ELSE excluded.first_seen END, "
    "movement = excluded.movement, error = excluded.error, message = excluded.message, "
    "last_seen = excluded.last_seen "
    "RETURNING failures"
)


def count_failure(
    models: ReadModels, match_id: UUID, movement: int, error: Exception, now: datetime
) -> int:
    """Counts a failed resolution of the match's `movement`; returns how many times in a
    row it has now failed the same way (1 after a different failure or a success)."""
    rows = models.view(VIEW).execute(
        _COUNT,
        {
            "match_id": match_id,
            "movement": movement,
            "error": type(error).__name__[:200],
            "message": error_text(error)[:MAX_ERROR_CHARS],
            "now": now,
        },
    )
    return int(rows[0]["failures"])


def mark_quarantined(models: ReadModels, match_id: UUID, now: datetime) -> None:
    """Marks the match quarantined (its Quarantined event is recorded): the sweep leaves it."""
    models.view(VIEW).execute(
        f"UPDATE {{{FAILURES}}} SET quarantined_at = :now WHERE match_id = :match_id",
        {"match_id": match_id, "now": now},
    )


def forget(models: ReadModels, match_id: UUID) -> None:
    """Forgets the match's failures and its mark (it resolved, or its quarantine was lifted).

    One statement in autocommit (issue 46: every resolution sends it). It is sent even when
    this process knows of no failure row: a row another process wrote (a worker's failed
    try, resolved here) must still go, and only the database knows of it."""
    models.view(VIEW).execute_alone(
        f"DELETE FROM {{{FAILURES}}} WHERE match_id = :match_id", {"match_id": match_id}
    )


def quarantined(models: ReadModels) -> list[QuarantinedMatch]:
    """Returns the quarantined matches, the earliest quarantined first (one query)."""
    rows = models.view(VIEW).query(
        "SELECT match_id, movement, error, message, failures, first_seen, last_seen, "
        f"quarantined_at FROM {{{FAILURES}}} WHERE quarantined_at IS NOT NULL "
        "ORDER BY quarantined_at, match_id"
    )
    return [QuarantinedMatch(**row) for row in rows]
