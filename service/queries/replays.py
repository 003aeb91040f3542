"""Replays and verifies of a stored log: every event folded again from the first and
checked against the store, and the store's snapshots checked against that fold
(`GET /matches/{id}/replay`, `drts match verify`; docs/integrity.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.integrity import BrokenLink, first_broken_link
from domain.match import Match
from domain.match.timelines import CORRECTED, timelines
from service.errors import MatchNotFoundError
from service.eventjson import public_item
from service.integrity import evidence
from service.queries import corrections
from service.queries.views import outcome_json, state_view
from service.readmodels import queries
from service.results import (
    ChainReport,
    Discrepancy,
    Frame,
    ReplayReport,
    Viewer,
)
from service.store import loading

if TYPE_CHECKING:
    from service.store.application import MatchStore


def replay(
    app: MatchStore, latest: Match, viewer: Viewer | None = None, timeline: int | None = None
) -> ReplayReport:
    """Folds the stored events from the first (no snapshot) up to `latest`'s version and
    checks the result against `latest`, the match as the store loads it at that version:
    every event for the current timeline; for an earlier one (`timeline`), the log up to
    its last event, its frames only (domain/match/timelines.py).

    The report is that of `latest`'s version even when a later event is stored meanwhile
    (it is kept under that version: service/queries/reads.py). Each frame holds the state
    after its movement as the viewer may see it. Raises UnknownTimelineError for a
    timeline the match does not have.
    """
    match_id = latest.id
    rows = app.recorder.select_events(match_id, lte=latest.version)
    corrected = any(CORRECTED in row.topic for row in rows)  # the general path below
    if rows and not corrected and timeline in (None, 1):
        return _replayed(app, latest, rows, viewer or Viewer())
    events = loading.checked_rows(app, match_id, rows)
    lines = timelines(events)
    corrections.check_timeline(len(lines), timeline)
    number = timeline or len(lines)
    line = lines[number - 1]
    shown = {event.originator_version for event in line}
    last = line[-1].originator_version
    folded: Any = None
    frames, count = [], 0
    for domain_event in events[:last]:
        folded, count = loading.fold(match_id, [domain_event], folded), count + 1
        if (
            isinstance(domain_event, Match.MovementResolved)
            and domain_event.originator_version in shown
        ):
            frames.append(
                Frame(
                    domain_event.movement,
                    domain_event.originator_version,
                    tuple(folded.steps),
                    state_view(folded, viewer or Viewer()),
                    domain_event.state_hash,
                    outcome_json(folded.outcome),
                )
            )
    stored = latest if number == len(lines) else loading.load(app, match_id, last)
    return ReplayReport(
        match_id,
        count,
        tuple(frames),
        state_view(folded, viewer or Viewer()),
        folded == stored,
        number,
        len(lines),
    )


def _replayed(app: MatchStore, latest: Match, rows: Sequence[Any], viewer: Viewer) -> ReplayReport:
    """Returns `replay`'s report of a match with one timeline, folding its rows one by one
    as they are checked (loading.fold_checked: no list of every decoded event)."""
    match_id = latest.id
    frames: list[Frame] = []
    folded: list[Any] = [None]

    def take(event: Any) -> None:
        match: Any = loading.fold(match_id, [event], folded[0])
        folded[0] = match
        if isinstance(event, Match.MovementResolved):
            frames.append(
                Frame(
                    event.movement,
                    event.originator_version,
                    tuple(match.steps),
                    state_view(match, viewer),
                    event.state_hash,
                    outcome_json(match.outcome),
                )
            )

    loading.fold_checked(app, match_id, rows, take)
    return ReplayReport(
        match_id,
        len(rows),
        tuple(frames),
        state_view(folded[0], viewer),
        folded[0] == latest,
        1,
        1,
    )


def verify(
    app: MatchStore,
    match_id: UUID,
    receipts: Sequence[evidence.Receipt] = (),
    heads: Sequence[evidence.HeldHead] = (),
    timeline: int | None = None,
) -> ChainReport:
    """Recomputes the chain and the seals over the stored rows, naming the first bad event;
    then checks against the log every receipt and head given, the heads the match list
    read model recorded, the match's finish and every snapshot (service/integrity/evidence.py).
    The chain covers every event of every timeline; the head reported is the last event
    of `timeline` (None: the current one, whose last event is the log's)."""
    rows = app.recorder.select_events(match_id)
    if not rows:
        raise MatchNotFoundError(f"no match with id {str(match_id)!r}")
    events, unreadable = [], None
    for stored in rows:
        try:
            events.append(app.mapper.to_domain_event(stored))
        except Exception as error:  # a tampered row may not even decode
            type_name = stored.topic.rpartition(".")[2]
            unreadable = BrokenLink(
                stored.originator_version,
                type_name,
                f"cannot be read: {type(error).__name__}: {error}",
            )
            break
    items = [public_item(event, with_sealed=True) for event in events]
    broken = first_broken_link(match_id, items) or unreadable
    log = evidence.Log(items)
    problems = [
        *evidence.check_all(match_id, log, receipts, heads),
        *evidence.check_read_model(log, queries.match_head(app.read_models, match_id)),
        *evidence.check_finish(log),
        *_snapshot_problems(app, match_id, events, log),
    ]
    lines = timelines(events)
    corrections.check_timeline(len(lines), timeline)
    last = lines[(timeline or len(lines)) - 1][-1] if events else None
    return ChainReport(
        match_id,
        len(items) + (unreadable is not None),
        last.chain if last is not None and broken is None else None,
        broken,
        last.originator_version if last is not None and broken is None else 0,
        tuple(problems),
        len(receipts) + len(heads),
        timeline or len(lines),
        len(lines),
    )


def _snapshot_problems(
    app: MatchStore, match_id: UUID, events: list[Any], log: evidence.Log
) -> list[Discrepancy]:
    """Returns how each stored snapshot of the match disagrees with its events folded up
    to the snapshot's version (the whole aggregate: seats and their token hashes,
    pending orders, strikes, ...), or with the log's end."""
    if app.snapshots is None:
        return []
    snapshots = {s.originator_version: s for s in app.snapshots.recorder.select_events(match_id)}
    found: list[Discrepancy] = []
    folded: Any = None
    for event in events:
        try:
            folded = event.mutate(folded)
        except Exception:
            break  # the chain's report names the event
        stored = snapshots.pop(event.originator_version, None)
        if stored is not None:
            found += _snapshot_problem(app, stored, folded, log)
    for version in sorted(snapshots):
        source = f"the snapshot at version {version}"
        if version > log.last:
            message = (
                f"the log ends at version {log.last}, before the snapshot at version {version}"
            )
            found.append(Discrepancy(source, "truncated", version, message))
        else:
            message = f"the events do not fold up to version {version}: {source} is unchecked"
            found.append(Discrepancy(source, "snapshot", version, message))
    return found


def _snapshot_problem(
    app: MatchStore, stored: Any, folded: Match, log: evidence.Log
) -> list[Discrepancy]:
    version = stored.originator_version
    source = f"the snapshot at version {version}"
    try:
        snapshot: Any = app.mapper.to_domain_event(stored)
        differences = loading.snapshot_differences(snapshot, folded)
    except Exception as error:
        message = f"{source} cannot be read: {type(error).__name__}: {error}"
        return [Discrepancy(source, "snapshot", version, message)]
    item = log.at(version) or {}
    if snapshot.state.get("chain") != item.get("chain"):
        message = f"{source} holds another chain value than the log's event at that version"
        return [Discrepancy(source, "snapshot", version, message)]
    if differences:
        message = (
            f"{source} differs from the events folded to that version in: "
            f"{', '.join(differences)} (it is not used: the match loads from its events)"
        )
        return [Discrepancy(source, "snapshot", version, message)]
    return []
