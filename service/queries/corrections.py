"""Corrections as the service runs them (issue 19; domain/match/corrections.py has the
rules): the current timeline read from the log, the match as it stood before the
corrected close, the changed orders with fresh salts; then a rematch the correction
voids is marked void, and a rematch a new draw asks for is created."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from domain.errors import InvalidActionError
from domain.match import Match
from domain.match.corrections import Correction, OrderChange
from domain.match.timelines import restart_version, timelines
from service import limits
from service.errors import UnknownTimelineError
from service.store import loading

if TYPE_CHECKING:
    from service.store.application import MatchStore


def order_changes(changes: Sequence[Mapping[str, Any]]) -> list[OrderChange]:
    """Returns the changed orders of a request (`{"seat", "order", "received_at"?}`; an
    order None withdraws the seat's), each with a fresh salt; raises InvalidActionError
    or a LimitError naming what is wrong."""
    found = []
    for change in changes:
        seat, order = change.get("seat"), change.get("order")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise InvalidActionError(f"a changed order names its seat (a number), got {seat!r}")
        if order is not None:
            limits.check_order(order, max_chars=limits.LONGEST_ORDER_CHARS)
        received = change.get("received_at")
        if received is not None and not isinstance(received, datetime):
            raise InvalidActionError(f"received_at must be an instant, got {received!r}")
        found.append(OrderChange(seat, order, secrets.token_hex(16), received))
    return found


def run(
    app: MatchStore,
    match: Match,
    token_hash: str,
    movement: int,
    changes: Sequence[OrderChange],
    reason: str,
    by: str,
    at: datetime,
    dispute: int | None = None,
) -> Correction:
    """Corrects `movement` of the loaded `match` (records on it; the caller saves)."""
    match.check_referee(token_hash)
    limits.check_movement(movement)
    current = timelines(loading.checked_events(app, match.id))[-1]
    version = restart_version(current, movement)
    past = loading.load(app, match.id, version)
    inputs = [event for event in current if event.originator_version > version]
    return match.correct(token_hash, past, inputs, changes, reason, by, at, dispute)


def timeline_of(events: Sequence[Any], timeline: int | None) -> list[Any]:
    """Returns the events of timeline `timeline` (None: the current one); raises
    UnknownTimelineError for one the match does not have."""
    lines = timelines(events)
    check_timeline(len(lines), timeline)
    return lines[-1 if timeline is None else timeline - 1]


def timeline_end(app: MatchStore, match: Match, timeline: int | None) -> int | None:
    """Returns the version of the last event of an earlier timeline of the match (what the
    correction that ended it superseded up to), None for the current one (or None asked);
    raises UnknownTimelineError for one the match does not have. The match folded up to
    that version is the match as that timeline left it (domain/match/timelines.py)."""
    check_timeline(match.timeline, timeline)
    if timeline is None or timeline == match.timeline:
        return None
    kept = app.past.timeline_ends.get((match.id, timeline))
    if kept is None:
        ends = [
            e.superseded_to
            for e in loading.checked_events(app, match.id)
            if isinstance(e, Match.Corrected)
        ]
        kept = int(ends[timeline - 1])
        app.past.timeline_ends.put((match.id, timeline), kept)  # superseded: it stays
    return kept


def check_timeline(count: int, timeline: int | None) -> None:
    """Raises UnknownTimelineError unless `timeline` is None or one of the match's
    `count` timelines."""
    if timeline is not None and not 1 <= timeline <= count:
        raise UnknownTimelineError(
            f"the match has {count} timeline(s); there is no timeline {timeline}"
        )
