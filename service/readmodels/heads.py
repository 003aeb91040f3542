"""The match list's recorded heads, moved only along the chain (issue 42; docs/integrity.md).

The match list keeps each match's head: the version and chain of the last event it
applied. It moves the head only when the new event continues it: the next version, and
`next_chain(recorded chain, body(event)) == event.chain` (from the match id for the
first event). An event that does not is a broken log, and the match is quarantined
instead of applied, with the reason:

- `rewritten`: the next version, but its link does not follow from the recorded chain
  (the log was rewritten at or before the recorded head and its links recomputed);
- `truncated`: a version at or before the recorded head arrives again (the log was cut
  short and written again);
- `truncated` too: a version past the next one (the events between never reached the
  read model: they were deleted).

The link is recomputed for the first event of a match in each batch, the one that
continues the head read from the table (what the read model recorded before); the
events after it in the same batch are compared by version, their links being the log's
own (the chain that every load and `verify` check): one SHA-256 a match a batch, not
one an event.

Quarantined here means: the match list keeps the row as it was (the recorded head is the
evidence `verify` checks the log against) and takes no more of the match's events
(`projection_quarantine`, its error "truncated: ..." or "rewritten: ..."), and the
failures table marks the match quarantined with error BROKEN_LOG, so that the sweep
leaves it and no command writes to it (service/store/logguard.py). The heads a batch needs
are read in one query, inside the batch's transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from domain.integrity import BODY_KEYS, genesis, next_chain
from service.eventjson import checked_item
from service.readmodels.recorders import FAILURES, MAX_ERROR_CHARS, QUARANTINE, Statement, View

BROKEN_LOG = "TamperedLogError"  # the failures table's error of a broken-log quarantine
PROJECTION = "match_list"
Head = tuple[int | None, str | None]


def recorded_heads(view: View, match_ids: Iterable[UUID]) -> dict[UUID, Head | None]:
    """Returns the head the match list recorded for each match (None: no row), read in
    the view's current transaction, one query for them all."""
    ids = list(dict.fromkeys(match_ids))
    heads: dict[UUID, Head | None] = dict.fromkeys(ids)
    if not ids:
        return heads
    names = {f"m{index}": match_id for index, match_id in enumerate(ids)}
    rows = view.select(
        "SELECT match_id, head_version, head_chain FROM {match_list} "
        f"WHERE match_id IN ({', '.join(':' + name for name in names)})",
        names,
    )
    for row in rows:
        heads[row["match_id"]] = (row["head_version"], row["head_chain"])
    return heads


def break_in_chain(domain_event: Any, recorded: Head | None, linked: bool = False) -> str | None:
    """Returns why the event does not continue the recorded head ("truncated: ..." or
    "rewritten: ..."), None when it does (or nothing is recorded to compare with).
    `linked`: the head is the event taken just before in the same batch, read from the
    same log, so only its version is compared (its link is the log's own, which loading
    and verify check); a head read from the table has its link recomputed."""
    version, match_id = domain_event.originator_version, domain_event.originator_id
    if recorded is None or recorded[0] is None:
        if version != 1:
            return None  # no head recorded (a row from before heads): nothing to compare
        previous = genesis(match_id)
    else:
        head, previous = recorded[0], str(recorded[1])
        kind = type(domain_event).__name__
        if version <= head:
            return (
                f"truncated: event {version} ({kind}) arrived after the head at version {head} "
                "that the match list recorded: the log was cut short and written again"
            )
        if version > head + 1:
            return (
                f"truncated: event {version} ({kind}) arrived right after the head at version "
                f"{head} that the match list recorded: versions {head + 1} to {version - 1} "
                "were removed before the read model took them"
            )
    if linked:
        return None
    item = checked_item(domain_event, with_sealed=False)
    if next_chain(previous, {key: item[key] for key in BODY_KEYS}) == domain_event.chain:
        return None
    return (
        f"rewritten: event {version} ({type(domain_event).__name__}) does not continue the "
        f"chain the match list recorded at version {version - 1}: the log was rewritten at "
        "or before that head"
    )


def quarantine_statements(
    match_id: UUID, movement: int, position: int, event_type: str, reason: str
) -> Sequence[Statement]:
    """Returns what a broken log writes: the match list's quarantine of the match (its row
    kept), and the match's broken-log quarantine in the failures table."""
    now = datetime.now(UTC)
    return [
        (
            f"INSERT INTO {{{QUARANTINE}}} (projection, match_id, position, event_type, error, "
            "quarantined_at) VALUES (:projection, :match_id, :position, :event_type, :error, "
            ":quarantined_at) ON CONFLICT (projection, match_id) DO NOTHING",
            {
                "projection": PROJECTION,
                "match_id": match_id,
                "position": position,
                "event_type": event_type[:200],
                "error": reason[:MAX_ERROR_CHARS],
                "quarantined_at": now,
            },
        ),
        broken_log_statement(match_id, movement, reason, now),
    ]


def broken_log_statement(
    match_id: UUID, movement: int, reason: str, now: datetime | None = None
) -> Statement:
    """Returns the statement marking a match quarantined for a broken log (the failures
    table, error BROKEN_LOG; a quarantine already recorded stays as it was)."""
    at = now or datetime.now(UTC)
    return (
        f"INSERT INTO {{{FAILURES}}} AS f (match_id, movement, error, message, failures, "
        "first_seen, last_seen, quarantined_at) VALUES (:match_id, :movement, :error, "
        ":message, 1, :now, :now, :now) ON CONFLICT (match_id) DO UPDATE SET "
        "movement = excluded.movement, error = excluded.error, message = excluded.message, "
        "last_seen = excluded.last_seen, "
        "quarantined_at = COALESCE(f.quarantined_at, excluded.quarantined_at) "
        "WHERE f.error <> excluded.error OR f.quarantined_at IS NULL",
        {
            "match_id": match_id,
            "movement": movement,
            "error": BROKEN_LOG,
            "message": reason[:MAX_ERROR_CHARS],
            "now": at,
        },
    )
