"""Due offers: the due movements a draining worker leaves for any draining worker to take.

Why (issue 46, bench/deadlines.md): the broker gives a countdown task to whichever worker
asks first, so in a burst of deadlines one worker may hold four fifths of the tasks that
fall due together, and the other, its own share resolved, sat idle while the first
resolved the rest batch after batch. Now a worker draining its held tasks
(service/workpolicy.py) resolves its first batch itself and offers the rest here, and
every worker draining at that moment takes offers, each offer once: on PostgreSQL `FOR
UPDATE SKIP LOCKED` lets two takers pass each other; SQLite has one writer at a time. A
worker takes its own offers first, HELD_BATCH at a time (it warmed their matches ahead of
the burst), then the others', BATCH_SIZE at a time (it loads those cold, so a small
batch leaves no worker idle while another ends a long one).

An offer is a hint, never the truth about what is due (DESIGN.md, Time: the deadlines
are): a movement resolved meanwhile is found closed and left as it is, and one taken by a
worker that crashed before resolving it is resolved by the sweep, as a held one would be.
A row lives from its offer to its taking; nothing else reads the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from service.readmodels.recorders import PostgresView
from service.readmodels.runner import ReadModels
from service.results import DueMovement
from service.usecases.batches import Due

VIEW = "deadlines"  # every projection's view reaches the shared tables
OFFER = (
    "INSERT INTO {due_offers} (match_id, movement, deadline, offered_at, offered_by) "
    "VALUES (:match_id, :movement, :deadline, :at, :by) "
    "ON CONFLICT (match_id, movement) DO NOTHING"
)
OWN = "WHERE offered_by = :by "  # a worker's own offers: the matches it warmed
TAKE_POSTGRES = (
    "DELETE FROM {{due_offers}} WHERE (match_id, movement) IN ("
    "SELECT match_id, movement FROM {{due_offers}} {where}ORDER BY deadline, match_id "
    "LIMIT :limit FOR UPDATE SKIP LOCKED) RETURNING match_id, movement, deadline"
)
TAKE_SQLITE = (
    "DELETE FROM {{due_offers}} WHERE rowid IN ("
    "SELECT rowid FROM {{due_offers}} {where}ORDER BY deadline, match_id LIMIT :limit) "
    "RETURNING match_id, movement, deadline"
)


def offer(models: ReadModels, dues: Sequence[Due], at: datetime, by: str) -> None:
    """Offers the due movements, as worker `by`, to every draining worker (one offered
    twice stays one)."""
    rows = [
        {"match_id": d.match_id, "movement": d.movement, "deadline": d.deadline, "at": at, "by": by}
        for d in dues
    ]
    if rows:
        models.view(VIEW).execute_many(OFFER, rows)


def take(models: ReadModels, limit: int, offered_by: str | None = None) -> list[DueMovement]:
    """Takes up to `limit` offers (only worker `offered_by`'s when given), earliest
    deadline first, none that another worker took or is taking; returns their movements,
    which are this worker's to resolve."""
    view = models.view(VIEW)
    form = TAKE_POSTGRES if isinstance(view, PostgresView) else TAKE_SQLITE
    sql = form.format(where=OWN if offered_by is not None else "")
    own = {"by": offered_by} if offered_by is not None else {}
    rows = view.execute(sql, {"limit": limit, **own})
    taken = [DueMovement(row["match_id"], row["movement"], row["deadline"]) for row in rows]
    return sorted(taken, key=earliest_first)  # RETURNING keeps no order


def earliest_first(due: DueMovement) -> tuple[bool, datetime, str]:
    """Orders due movements by deadline (an unknown one last), then match id."""
    return due.deadline is None, due.deadline or datetime.min.replace(tzinfo=UTC), str(due.match_id)
