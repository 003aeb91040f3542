"""The texts of the notices drts mails on its own (docs/mail.md): a movement's result, a
reminder before a deadline, a dispute filed or ruled.

Each is composed from the stored events alone (and, for a reminder, the deadline its row
keeps), never from the clock: composed again after a crash, a notice is the same message,
byte for byte, with the same Message-ID. No notice holds a token or an order address.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.match import Match
from service.queries import views
from service.results import Head

DISPUTE_EVENTS = (Match.DisputeFiled, Match.DisputeRuled)


def result_subject(match_id: UUID, events: Sequence[Any], version: int) -> str:
    """Returns the subject of the result of the movement resolved at `version`. It names
    only the movement now open, as the orders address reads a subject: a player's reply to
    the result is aimed at that movement, never at the one just closed."""
    after = events[version] if len(events) > version else None
    if isinstance(after, Match.DeadlineSet):
        return f"drts: match {match_id} resolved, orders now for movement {after.movement}"
    return f"drts: match {match_id} resolved, the final result"


def result_text(match: Match, events: Sequence[Any], version: int) -> str:
    """Returns the result of the movement resolved at `version`: the steps in words, the
    scores, what is next, the head after the resolution, and the Public Display. `match`
    is the match as it stood after the resolution's write."""
    resolved = events[version - 1]
    assert isinstance(resolved, Match.MovementResolved)
    after = events[version] if len(events) > version else resolved
    head = Head(after.originator_version, after.chain)
    lines = [
        f"Movement {resolved.movement} of match {match.id} is resolved.",
        "",
        "Steps:",
        *(_steps(events, version) or ["  (none)"]),
        "",
        "Scores:",
        *_scores(resolved.outcome),
        "",
        _next(after),
        "",
        f"Head after the resolution: version {head.version}, chain {head.chain}",
        f"(keep it; check the log later with drts match verify --head {views.head_text(head)})",
        "",
        views.display(match, resolved.movement, head),
    ]
    return "\n".join(lines)


def reminder_subject(match_id: UUID, movement: int) -> str:
    """Returns the subject of a reminder."""
    return f"drts: reminder, movement {movement} of match {match_id} awaits your order"


def reminder_text(match_id: UUID, movement: int, seat: int, due_at: datetime) -> str:
    """Returns a reminder: the seat has not ordered yet for the movement closing at `due_at`."""
    return (
        f"Seat {seat} has not ordered yet for movement {movement} of match {match_id}.\n\n"
        f"Deadline: {due_at.isoformat()}\n\n"
        "Send your order to your seat's order address (kept private: it is not repeated\n"
        "here), or through the API with your seat token. This is the only reminder for\n"
        "this movement.\n"
    )


def dispute_subject(match_id: UUID, event: Any) -> str:
    """Returns the subject of a dispute notice."""
    verb = "filed" if isinstance(event, Match.DisputeFiled) else "ruled"
    return f"drts: dispute {event.dispute} of match {match_id} {verb}"


def dispute_text(match_id: UUID, event: Any) -> str:
    """Returns a dispute notice for the referee: the dispute filed, or its ruling."""
    if isinstance(event, Match.DisputeFiled):
        by = f"seat {event.seat}" if event.seat is not None else event.by
        cites = ", ".join(map(str, event.cites)) or "none"
        return (
            f"Dispute {event.dispute} of match {match_id} is filed by {by} during movement "
            f"{event.movement}.\n\nCites versions: {cites}\nVersion: {event.originator_version}"
            f"\n\n{event.text}\n"
        )
    correction = "" if event.correction is None else f"\nCorrection: version {event.correction}"
    return (
        f"Dispute {event.dispute} of match {match_id} is {event.ruling} by {event.by}.\n\n"
        f"Reason: {event.reason}\nVersion: {event.originator_version}{correction}\n"
    )


def _steps(events: Sequence[Any], version: int) -> list[str]:
    """Returns the steps recorded just before the MovementResolved at `version`, in words."""
    steps: list[Any] = []
    for event in reversed(events[: version - 1]):
        if not isinstance(event, Match.StepApplied):
            break
        steps.append(event)
    return [f"  {s.index}. {s.text} ({s.rule})" for s in reversed(steps)]


def _scores(outcome: dict[str, Any]) -> list[str]:
    scores = outcome.get("scores", {})
    lines = [f"  seat {seat}: {score}" for seat, score in sorted(scores.items(), key=_seat)]
    lines += [f"  team {team}: {n}" for team, n in sorted(outcome.get("team_scores", {}).items())]
    return lines or ["  (none)"]


def _seat(item: tuple[str, Any]) -> int:
    return int(item[0])


def _next(after: Any) -> str:
    if isinstance(after, Match.Finished):
        outcome = after.outcome
        winners = ", ".join(map(str, outcome.get("winners", []))) or "none"
        return f"The match is over: {outcome.get('result', 'finished')} (winners: seat {winners})."
    if isinstance(after, Match.DeadlineSet):
        when = after.deadline.isoformat()
        if after.reason == "periodic":
            return (
                f"Next: movement {after.movement}; it resolves at the first firing after "
                f"an order, firing from {when}."
            )
        return f"Next: movement {after.movement}, deadline {when}."
    return "Next: nothing yet."
