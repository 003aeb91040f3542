"""The referee desk's figures, as the referee's stream shows them (issue 47,
api/pages/streams.py): what a referee watching the desk needs to know has changed,
without the orders themselves.

The figures are counts and numbers the public log shows too (each OrderSubmitted names
its seat), but the stream is the referee's: its opening is recorded as one look
(SecretViewed, what LOOK), not one an event.
"""

from __future__ import annotations

from domain.errors import NotRefereeError
from domain.match import Match
from service.errors import MissingTokenError
from service.queries import views
from service.queries.disputes import status_of
from service.results import Document, Viewer

LOOK = "referee stream"  # SecretViewed.what of a referee stream's opening


def check_referee(match: Match, viewer: Viewer, token: str | None) -> None:
    """Raises MissingTokenError without a token, NotRefereeError for a seat's."""
    if token is None:
        raise MissingTokenError(f"the referee desk of match {match.id} needs its token")
    if not viewer.referee:
        raise NotRefereeError(f"match {match.id}: the referee desk needs the referee token")


def figures(match: Match) -> Document:
    """Returns the log's version, the match's status and movement, how many orders the
    open movement holds and from which seats, the numbers of the disputes awaiting a
    ruling, and the quarantine (None: none)."""
    return {
        "version": match.version,
        "status": views.summary(match).status,
        "movement": match.movement,
        "open_orders": len(match.pending),
        "seats_ordered": sorted({p.seat for p in match.pending}),
        "disputes_waiting": [d.number for d in match.disputes if status_of(d) == "open"],
        "quarantined": match.quarantined,
    }
