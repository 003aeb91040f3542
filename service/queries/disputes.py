"""Disputes as the service shows them (issue 18, docs/referee.md): what a filer may cite,
and a dispute's public JSON form with the events it cites (the counts the referee is told
of are in the match's summary: service/queries/views.py `dispute_counts`).

Everything here is public: a dispute's text is, and the events it cites are shown in the
form anyone may see (service/queries/views.py `is_revealed`), never with sealed values that
are not revealed yet, whoever filed it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.integrity import iso
from domain.match import Dispute, Match
from domain.match.disputes import Uncitable
from domain.rules.contract import JSON
from service.eventjson import public_item
from service.queries import views
from service.store import loading

if TYPE_CHECKING:
    from service.store.application import MatchStore

Document = dict[str, JSON]
STATUSES = ("open", "ruled")  # a dispute's `status`: awaiting a ruling, or ruled on
PAGE_SIZE = 50  # the disputes on a page of the list unless asked for fewer or more
MAX_PAGE_SIZE = 200  # the most on one page, as on the match list


def uncitable(app: MatchStore, match: Match) -> Uncitable:
    """Returns what the match's `file_dispute` asks: why a seat may not cite an event
    version (None: it may). The referee may cite any; a seat any but another seat's order
    or refusal while it is sealed (the event feed's rule: its movement has not closed, in a
    game whose orders are not public)."""

    def why(version: int, seat: int | None) -> str | None:
        if seat is None:
            return None
        event = event_at(app, match, version)
        sealed = isinstance(event, Match.OrderSubmitted | Match.OrderRejected)
        if not sealed or event.seat == seat or views.is_revealed(match, event):
            return None
        return (
            f"it is seat {event.seat}'s {type(event).__name__} in movement {event.movement}, "
            "sealed until that movement closes"
        )

    return why


def event_at(app: MatchStore, match: Match, version: int) -> Any:
    """Returns the match's stored event at `version` (1..match.version)."""
    rows = app.recorder.select_events(match.id, gt=version - 1, lte=version)
    return loading.decoded(app, rows[0])


def dispute_json(dispute: Dispute) -> Document:
    """Returns a dispute's public JSON form (docs/api.md, Disputes)."""
    return {
        "dispute": dispute.number,
        "status": status_of(dispute),
        "by": dispute.by,
        "seat": dispute.seat,
        "movement": dispute.movement,
        "cites": list(dispute.cites),
        "text": dispute.text,
        "version": dispute.version,
        "filed_at": iso(dispute.filed_at),
        "ruling": dispute.ruling,
        "reason": dispute.reason,
        "ruled_by": dispute.ruled_by,
        "ruled_version": dispute.ruled_version,
        "ruled_at": None if dispute.ruled_at is None else iso(dispute.ruled_at),
        "correction": dispute.correction,
    }


def status_of(dispute: Dispute) -> str:
    """Returns "open" while the dispute awaits a ruling, then "ruled"."""
    return STATUSES[0] if dispute.is_open else STATUSES[1]


def dispute_with_events(app: MatchStore, match: Match, dispute: Dispute) -> Document:
    """Returns a dispute's public form with `events`: each cited event as anyone may see
    it (sealed values only once revealed)."""
    cited = [event_at(app, match, version) for version in dispute.cites]
    events: list[JSON] = [public_item(event, views.is_revealed(match, event)) for event in cited]
    return {**dispute_json(dispute), "events": events}
