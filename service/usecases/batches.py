"""Resolving a batch of due movements together (issue 31: a burst of deadlines drains fast).

A worker that finds many movements due at once (a burst: many matches started
together) resolves them as one batch rather than one task each: the batch
settles once (the settling time past its latest deadline, instead of a load per
match to learn the deadline), loading its matches while it waits, learns which of
its matches are imported in one query, resolves its matches in memory (on
PostgreSQL the kept ones fast-forwarded from one read of a group's newer events,
service/store/fastforward.py) and saves them together, JOINT_SAVE of them in one
transaction (one commit and one table lock for them), and forgets the failure
counts of its successes in one statement. One match never holds back the others
(DESIGN.md's Isolation): a match whose resolution raises is left out of the
joint save and resolved again on its own, in its own transaction, where it is
counted, and quarantined once it keeps failing; if the joint save fails (another
writer got to one of its matches first), each match is resolved on its own.
Exactly once holds as for single resolutions: the event store takes one
resolution of a movement (optimistic concurrency), a second attempt finds the
movement closed and records nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol
from uuid import UUID

from service.readmodels.recorders import FAILURES, IMPORTED
from service.readmodels.runner import ReadModels

VIEW = "deadlines"  # every projection's view reaches both tables
JOINT_SAVE = 50  # a batch's matches saved in one transaction at most


class Due(Protocol):
    """A movement to resolve: a DueMovement, or what a worker knows of a countdown task."""

    @property
    def match_id(self) -> UUID: ...

    @property
    def movement(self) -> int: ...

    @property
    def deadline(self) -> datetime | None: ...


def latest_deadline(batch: Sequence[Due]) -> datetime | None:
    """Returns the latest known deadline of the batch (None when none is known)."""
    deadlines = [due.deadline for due in batch if due.deadline is not None]
    return max(deadlines) if deadlines else None


def first_of_each_match(batch: Sequence[Due]) -> dict[int, Due]:
    """Returns the batch's members by index, each match's first only (a movement queued
    twice, by a task and by the sweep, is resolved once; the later copy finds it closed)."""
    seen: set[UUID] = set()
    firsts = {}
    for index, due in enumerate(batch):
        if due.match_id not in seen:
            seen.add(due.match_id)
            firsts[index] = due
    return firsts


def in_joint_saves(members: dict[int, Due]) -> list[dict[int, Due]]:
    """Returns the members (by index) in groups of at most JOINT_SAVE, in order: each
    group is resolved in memory and saved in one transaction."""
    items = list(members.items())
    return [dict(items[first : first + JOINT_SAVE]) for first in range(0, len(items), JOINT_SAVE)]


def imported_among(models: ReadModels, match_ids: Sequence[UUID]) -> set[UUID]:
    """Returns which of the matches are imported (read-only), in one query."""
    if not match_ids:
        return set()
    names, params = _placeholders(match_ids)
    rows = models.view(VIEW).query(
        f"SELECT match_id FROM {{{IMPORTED}}} WHERE match_id IN ({names})", params
    )
    return {row["match_id"] for row in rows}


def forget_failures(models: ReadModels, match_ids: Sequence[UUID]) -> None:
    """Forgets the failure counts of the matches (they resolved), in one statement
    (service/usecases/quarantine.py's `forget`, for a batch)."""
    if not match_ids:
        return
    names, params = _placeholders(match_ids)
    models.view(VIEW).execute(f"DELETE FROM {{{FAILURES}}} WHERE match_id IN ({names})", params)


def _placeholders(match_ids: Sequence[UUID]) -> tuple[str, dict[str, UUID]]:
    """Returns `:m0, :m1, ...` and their values: an IN list both databases take."""
    params = {f"m{i}": match_id for i, match_id in enumerate(match_ids)}
    return ", ".join(f":{name}" for name in params), params
