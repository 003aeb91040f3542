"""Re-adjudicating a stored match (`drts match audit`, GET /matches/{id}/audit): its
events read row by row, folded into the match (to know its ruleset version, referee and
status), then played again under that version by domain/audit.py.

Reading never trusts a snapshot, and a log that does not read (a row that does not
decode, an event that does not fold) raises TamperedLogError naming the event, never
an unexpected error. Who may ask is the caller's business (service/queries/reads.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.audit import readjudicate
from domain.match import Match
from domain.match.timelines import timelines
from service.errors import MatchNotFoundError, TamperedLogError
from service.queries import corrections
from service.results import AuditReport, TimelineAudit

if TYPE_CHECKING:
    from service.store.application import MatchStore


def stored_events(app: MatchStore, match_id: UUID) -> tuple[list[Any], Match]:
    """Returns the match's events from the first, and the match they fold into.

    Raises MatchNotFoundError for no events, TamperedLogError for a log that
    does not read or fold.
    """
    rows = app.recorder.select_events(match_id)
    if not rows:
        raise MatchNotFoundError(f"no match with id {str(match_id)!r}")
    events, folded = [], None
    for row in rows:
        name = row.topic.rpartition(".")[2]
        try:
            event: Any = app.mapper.to_domain_event(row)
            folded = event.mutate(folded)
        except Exception as error:  # a tampered row may not even decode
            reason = f"it cannot be read: {type(error).__name__}: {error}"
            raise TamperedLogError(match_id, row.originator_version, name, reason) from None
        events.append(event)
    if not isinstance(folded, Match):
        last, reason = rows[-1], "the events do not make a match"
        name = last.topic.rpartition(".")[2]
        raise TamperedLogError(match_id, last.originator_version, name, reason)
    return events, folded


def audit_report(match: Match, events: list[Any], timeline: int | None = None) -> AuditReport:
    """Re-adjudicates each of the match's timelines under its pinned ruleset version;
    reports on `timeline` (None: the current one), with every timeline's verdict.

    Raises RulesetVersionNotInstalledError when that version is not installed, and
    UnknownTimelineError for a timeline the match does not have.
    """
    lines = timelines(events)
    corrections.check_timeline(len(lines), timeline)
    verdicts = [readjudicate(match.rules(), line) for line in lines]
    number = timeline or len(lines)
    found = verdicts[number - 1]
    return AuditReport(
        match_id=match.id,
        ruleset=match.ruleset,
        ruleset_version=match.ruleset_version,
        movements=found.movements,
        exact=found.divergence is None,
        divergence=found.divergence,
        given_start=found.given_start,
        timeline=number,
        timelines=tuple(
            TimelineAudit(n, v.movements, v.divergence is None, v.divergence)
            for n, v in enumerate(verdicts, 1)
        ),
    )
