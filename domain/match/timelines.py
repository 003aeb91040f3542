"""Timelines: what a correction leaves in a match's log (issue 19, docs/referee.md).

A correction never deletes or rewrites an event. It records `Corrected`, naming the
versions it supersedes (from the first event of the corrected movement's close to
the event before it) and the new timeline's number, and carrying `restart`: the
match's timeline-bound attributes as they stood just before that close. Folding
`Corrected` restores them, so the events of the superseded range stop counting
and the events after it (the new timeline) apply as usual.

Timeline 1 is the log before the first correction; timeline k+1 is timeline k's
events before the range the k-th correction supersedes, that `Corrected`, and the
events after it (up to the next correction). Disputes, looks at secrets and
quarantines belong to the match, not to a timeline: a restart never touches them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from domain.errors import MovementClosedError
from domain.integrity import iso
from domain.match.values import MovementLog, PendingOrder, Seat
from domain.rules.contract import JSON

if TYPE_CHECKING:
    from domain.match.base import MatchBase

CORRECTED = "Corrected"
# the events of a close: a close's batch starts with the first of them
CLOSE_EVENTS = ("SeatStruck", "SeatEliminated", "MovementClosed")


def timelines(events: Sequence[Any]) -> list[list[Any]]:
    """Returns the match's timelines (1, 2, ...), each the list of its events in order
    (module docstring); the last is the current one."""
    lines: list[list[Any]] = [[]]
    for event in events:
        if type(event).__name__ == CORRECTED:
            kept = [e for e in lines[-1] if e.originator_version < event.superseded_from]
            lines.append([*kept, event])
        else:
            lines[-1].append(event)
    return lines


def restart_version(current: Sequence[Any], movement: int) -> int:
    """Returns the version after which the current timeline's close of `movement` began:
    the event before its resolution's batch (strikes and forfeits given at that close,
    then MovementClosed). Raises MovementClosedError if `movement` has not resolved."""
    for index, event in enumerate(current):
        if type(event).__name__ == "MovementClosed" and event.movement == movement:
            start = index
            while start > 0 and _same_close(current[start - 1], event):
                start -= 1
            return int(current[start - 1].originator_version)
    raise MovementClosedError(
        f"movement {movement} has not been resolved: only a resolved movement can be "
        "corrected (the open one still takes orders)"
    )


def _same_close(event: Any, closed: Any) -> bool:
    """Returns whether `event` is a strike or forfeit recorded by the same close."""
    return (
        type(event).__name__ in CLOSE_EVENTS[:2]
        and event.movement == closed.movement
        and event.timestamp == closed.timestamp
    )


def restart_of(match: MatchBase) -> dict[str, JSON]:
    """Returns a match's timeline-bound attributes as JSON (what `Corrected` carries)."""
    return {
        "movement": match.movement,
        "state": match.state,
        "outcome": match.outcome,
        "started": match.started,
        "finished": match.finished,
        "deadline": _instant(match.deadline),
        "closed_at": _instant(match.closed_at),
        "clock_floor": _instant(match.clock_floor),
        "paused": None
        if match.paused is None
        else {
            **match.paused,
            "at": iso(match.paused["at"]),
            "deadline": _instant(match.paused["deadline"]),
        },
        "strikes": dict(match.strikes),
        "eliminated": list(match.eliminated),
        "seats": [{"seat": s.number, "name": s.name} for s in match.seats],
        "pending": [_pending_json(p) for p in match.pending],
        "movements": [_log_json(log) for log in match.movements],
    }


def restore(match: MatchBase, restart: dict[str, Any], withdrawn: Sequence[int]) -> None:
    """Sets a match's timeline-bound attributes from `restart` (`Corrected.apply`); the
    pending orders of the seats in `withdrawn` go (the correction replaces or withdraws
    them). Seats keep their current tokens and the players they name."""
    tokens = {seat.number: seat.token_hash for seat in match.seats}
    players = {seat.number: seat.player_id for seat in match.seats}  # issue 45: kept too
    match.movement, match.state, match.outcome = (
        restart["movement"],
        restart["state"],
        restart["outcome"],
    )
    match.started, match.finished = restart["started"], restart["finished"]
    match.deadline = _parsed(restart["deadline"])
    match.closed_at = _parsed(restart["closed_at"])
    match.clock_floor = _parsed(restart["clock_floor"])
    paused = restart["paused"]
    match.paused = (
        None
        if paused is None
        else {
            **paused,
            "at": _parsed(paused["at"]),
            "deadline": _parsed(paused["deadline"]),
        }
    )
    match.strikes = dict(restart["strikes"])
    match.eliminated = list(restart["eliminated"])
    match.seats = [
        Seat(s["seat"], s["name"], tokens[s["seat"]], players.get(s["seat"]))
        for s in restart["seats"]
    ]
    match.pending = [_pending(p) for p in restart["pending"] if p["seat"] not in set(withdrawn)]
    match.movements = [_log(log) for log in restart["movements"]]
    match.steps = []


def _pause_json(paused: dict[str, Any] | None) -> JSON:
    if paused is None:
        return None
    return {**paused, "at": iso(paused["at"]), "deadline": _instant(paused["deadline"])}


def _pending_json(order: PendingOrder) -> dict[str, JSON]:
    return {
        "seat": order.seat,
        "order": order.order,
        "salt": order.salt,
        "digest": order.digest,
        "received_at": iso(order.received_at),
        "source": order.source,
        "message_id": order.message_id,
        "version": order.version,
        "sent": order.sent,
    }


def _pending(data: dict[str, Any]) -> PendingOrder:
    return PendingOrder(**{**data, "received_at": _parsed(data["received_at"])})


def _log_json(log: MovementLog) -> dict[str, JSON]:
    return {
        "number": log.number,
        "opened": log.opened,
        "closed": log.closed,
        "resolved": log.resolved,
        "steps": list(log.steps),
    }


def _log(data: dict[str, Any]) -> MovementLog:
    return MovementLog(**{**data, "steps": tuple(data["steps"])})


def _instant(moment: datetime | None) -> str | None:
    return None if moment is None else iso(moment)


def _parsed(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)
