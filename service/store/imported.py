"""Which matches were imported from an archive: they are read-only (docs/archive.md).

An imported match's events are stored exactly as they were exported, so nothing in
them can say that the match was imported; the `imported_matches` table (migration
0006) does, one row per imported match with the archive's form, export time and
head. Commands refuse to change a match listed there (MatchImportedError), the
sweep's query of due movements and the rematches due leave it out
(service/readmodels/queries.py), and nothing rebuilds or resets the table.

An import marks the match before it writes its events, so that no one can see the
events of a match not yet marked; if the events cannot be written, the mark goes.
So whether a stored match is imported never changes, and a process remembers what it
found for each match it wrote to (service/store/application.py, `_check_writable`).
Statements run through a read model view, which knows both databases.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from service.readmodels.recorders import IMPORTED
from service.readmodels.runner import ReadModels

VIEW = "match_list"  # every projection's view reaches the table

_MARK = (
    f"INSERT INTO {{{IMPORTED}}} "
    "(match_id, imported_at, form, exported_at, head_version, head_chain) "
    "VALUES (:match_id, :imported_at, :form, :exported_at, :head_version, :head_chain) "
    "ON CONFLICT (match_id) DO NOTHING RETURNING match_id"
)


def mark(
    models: ReadModels,
    match_id: UUID,
    form: str,
    exported_at: datetime,
    head: tuple[int, str],
    now: datetime,
) -> bool:
    """Marks the match imported; returns False if it was marked already."""
    rows = models.view(VIEW).execute(
        _MARK,
        {
            "match_id": match_id,
            "imported_at": now,
            "form": form,
            "exported_at": exported_at,
            "head_version": head[0],
            "head_chain": head[1],
        },
    )
    return bool(rows)


def unmark(models: ReadModels, match_id: UUID) -> None:
    """Forgets that the match is imported (its events could not be written)."""
    models.view(VIEW).execute(
        f"DELETE FROM {{{IMPORTED}}} WHERE match_id = :match_id", {"match_id": match_id}
    )


def is_imported(models: ReadModels, match_id: UUID) -> bool:
    """Returns whether the match was imported from an archive (one indexed query)."""
    rows = models.view(VIEW).query(
        f"SELECT 1 AS one FROM {{{IMPORTED}}} WHERE match_id = :match_id", {"match_id": match_id}
    )
    return bool(rows)
