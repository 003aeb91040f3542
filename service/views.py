"""Reads of a match: summary, state at any movement, scores, the event log (with its
secrecy), replay and chain verification. Nothing here runs the rules' resolution:
states come from folding the stored events (the phases of a resolution, which run
it again, are in service/phases.py).

Secrecy of the event log (docs/integrity.md): an event's `sealed` field (the
seed; an order and its salt; a refused order with its reason and salt) is shown
only once revealed — the seed when the match finishes, an order or a refusal when
the movement it was aimed at closes (at once for one aimed at a closed movement) —
except to the seat that
sent the order and to the referee (or the operator), whose look at
unrevealed secrets is recorded as a SecretViewed event.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.integrity import BrokenLink, first_broken_link, iso, jsonable, normalized
from domain.match import Match, MovementLog, event_data
from domain.rules.contract import JSON, asks_rematch
from service.errors import MatchNotFoundError, MovementNotFoundError
from service.results import ChainReport, Frame, MatchSummary, ReplayReport, Viewer

if TYPE_CHECKING:
    from service.store import MatchStore


def public_item(domain_event: Any, with_sealed: bool) -> dict[str, JSON]:
    """Returns an event in its public JSON form (docs/integrity.md)."""
    item: dict[str, JSON] = {
        "type": type(domain_event).__name__,
        "version": domain_event.originator_version,
        "timestamp": iso(domain_event.timestamp),
        "data": jsonable(event_data(domain_event)),
        "chain": getattr(domain_event, "chain", None),
    }
    sealed = getattr(domain_event, "sealed", None)
    if with_sealed and sealed:
        item["sealed"] = jsonable(sealed)
    return item


def summary(match: Match) -> MatchSummary:
    """Returns the public summary of a match: ruleset, seats, status, clock, outcome."""
    to_move: list[int] = []
    if match.is_open():
        to_move = list(match.rules().to_move(match.rules().load_state(match.state)).seats)
    status = "finished" if match.finished else "started" if match.started else "open"
    return MatchSummary(
        match_id=str(match.id),
        ruleset=match.ruleset,
        ruleset_version=match.ruleset_version,
        config=match.config,
        seats=[{"seat": s.number, "name": s.name} for s in match.seats],
        seat_limits=match.seat_limits,
        status=status,
        movement=match.movement,
        deadline=None if match.deadline is None else iso(match.deadline),
        to_move=to_move,
        strikes=match.strikes,
        eliminated=match.eliminated,
        outcome=outcome_json(match.outcome),
        seed_commitment=match.seed_commitment,
        version=match.version,
        chain=match.chain,
        rematch_id=match.rematch_id,
        rematch_of=match.rematch_of,
        quarantined=quarantine_json(match.quarantined),
    )


def quarantine_json(quarantined: dict[str, Any] | None) -> JSON:
    """Returns a match's quarantine as the service shows it (None when not quarantined):
    the movement, error, message, failures and the time (`at`, ISO 8601)."""
    if quarantined is None:
        return None
    return jsonable(quarantined)


def outcome_json(outcome: JSON) -> JSON:
    """Returns an outcome as the service shows it (None before the start): as stored, plus
    `rematch`, the stored key "replay" under its name (the stored key stays, deprecated)."""
    if outcome is None:
        return None
    return {**outcome, "rematch": asks_rematch(outcome)}


def event_log(
    app: MatchStore, match: Match, viewer: Viewer, after: int = 0, limit: int | None = None
) -> tuple[list[dict[str, JSON]], bool]:
    """Returns the match's events after version `after`, sealed values shown as allowed, and
    whether the referee saw some not yet revealed (a look the caller records)."""
    items, peeked = [], False
    for domain_event in app.events.get(match.id, gt=after or None, limit=limit):
        public = _is_revealed(match, domain_event)
        own = viewer.seat is not None and getattr(domain_event, "seat", None) == viewer.seat
        items.append(public_item(domain_event, public or own or viewer.referee))
        peeked |= viewer.referee and not public and bool(getattr(domain_event, "sealed", None))
    return items, peeked


def version_at(match: Match, movement: int | None) -> int:
    """Returns the version at which `movement` was open (now for None)."""
    return match.version if movement is None else movement_entry(match, movement).opened


def movement_entry(match: Match, movement: int) -> MovementLog:
    """Returns the versions of a movement's events (opened, closed, resolved, steps);
    raises MovementNotFoundError for a movement the match has not reached."""
    entry = match.movement_log(movement)
    if entry is None:
        raise MovementNotFoundError(
            f"match {match.id} has no movement {movement} "
            f"(movements so far: 1..{match.movement or 0})"
        )
    return entry


def version_after(match: Match, movement: int | None) -> int:
    """Returns the version at which `movement` was resolved (the latest for None).

    Raises MovementNotFoundError for a movement that is not resolved (yet).
    """
    if movement is None:
        return match.version
    entry = match.movement_log(movement)
    resolved = None if entry is None else entry.resolved
    if resolved is None:
        done = [log.number for log in match.movements if log.resolved is not None]
        so_far = f"{min(done)}..{max(done)}" if done else "none"
        raise MovementNotFoundError(
            f"movement {movement} of match {match.id} is not resolved (resolved so far: {so_far})"
        )
    return resolved


DISPLAY_WIDTH = 72  # columns of a mail or forum line


def display(match: Match, after: int | None = None) -> str:
    """Returns the Public Display of a (past) match: who plays what, where the match stands,
    then the ruleset's picture of the position (`after`: the movement just resolved)."""
    info = match.rules().info
    seats = ", ".join(f"{s.number} {s.name}" for s in match.seats) or "none joined yet"
    lines = [
        f"{info.title} ({info.name} v{info.version}), match {match.id}",
        *textwrap.wrap(f"Seats: {seats}.", DISPLAY_WIDTH),
        *_standing_lines(match, after),
    ]
    if match.strikes:
        struck = ", ".join(f"seat {s} {n}" for s, n in sorted(match.strikes.items()))
        lines.append(f"Strikes: {struck}.")
    if match.eliminated:
        lines.append(f"Out of the match: seat {', '.join(map(str, match.eliminated))}.")
    head = "\n".join(lines) + "\n"
    if match.state is None:
        return head
    ruleset = match.rules()
    return head + "\n" + ruleset.public_display(ruleset.load_state(match.state))


def _standing_lines(match: Match, after: int | None) -> list[str]:
    return [
        wrapped
        for line in _standing(match, after).splitlines()
        for wrapped in textwrap.wrap(line, DISPLAY_WIDTH)
    ]


def _standing(match: Match, after: int | None) -> str:
    if not match.started:
        low, high = match.seat_limits["min"], match.seat_limits["max"]
        wanted = str(low) if low == high else f"{low} to {high}"
        return f"Not started: {len(match.seats)} seat(s) joined of {wanted}."
    if after is not None:
        return f"Position after movement {after}."
    if match.finished:
        outcome = match.outcome or {}
        reason = f": {outcome['reason']}" if outcome.get("reason") else ""
        return f"Finished ({outcome.get('result', 'over')}){reason}."
    seats = match.rules().to_move(match.rules().load_state(match.state)).seats
    owing = ", ".join(map(str, seats)) or "none"
    deadline = "" if match.deadline is None else f"\nDeadline: {iso(match.deadline)}."
    return f"Movement {match.movement} is open; seats to order: {owing}.{deadline}"


def state_view(past: Match, viewer: Viewer) -> JSON:
    """Returns the state of a (past) match as the viewer may see it (None before the start)."""
    if viewer.referee or past.state is None:
        return past.state
    ruleset = past.rules()
    return ruleset.view(ruleset.load_state(past.state), viewer.seat)


def pending_orders(match: Match, seat: int | None) -> list[dict[str, JSON]]:
    """Returns a seat's own orders in the open movement (every seat's for None), with content."""
    return [
        {
            "seat": p.seat,
            "movement": match.movement,
            "order": p.order,
            "digest": p.digest,
            "received_at": iso(p.received_at),
            "source": p.source,
            "message_id": p.message_id,
        }
        for p in match.pending
        if seat is None or p.seat == seat
    ]


def standing_orders(match: Match, seat: int | None) -> dict[str, JSON]:
    """Returns the standing order of a seat (of every seat with orders, for None) in the open
    movement, by seat number, as `Table.standing_order` combines its orders."""
    seats = sorted({p.seat for p in match.pending if seat is None or p.seat == seat})
    if not seats:
        return {}
    table = match.table()
    return {str(s): normalized(table.standing_order(s)) for s in seats}


def replay(app: MatchStore, match_id: UUID, viewer: Viewer | None = None) -> ReplayReport:
    """Folds every stored event from the first (no snapshot) and checks it against the store.

    Each frame holds the state after its movement as the viewer may see it.
    """
    folded: Any = None
    frames, count = [], 0
    stored_events: list[Any] = list(app.events.get(match_id))
    for domain_event in stored_events:
        folded, count = domain_event.mutate(folded), count + 1
        if isinstance(domain_event, Match.MovementResolved):
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
    stored = app.get_match(match_id)
    return ReplayReport(
        match_id, count, tuple(frames), state_view(folded, viewer or Viewer()), folded == stored
    )


def verify(app: MatchStore, match_id: UUID) -> ChainReport:
    """Recomputes the chain and the seals over the stored rows; names the first bad event."""
    items: list[dict[str, JSON]] = []
    unreadable = None
    rows = app.recorder.select_events(match_id)
    if not rows:
        raise MatchNotFoundError(f"no match with id {str(match_id)!r}")
    for stored in rows:
        try:
            items.append(public_item(app.mapper.to_domain_event(stored), with_sealed=True))
        except Exception as error:  # a tampered row may not even decode
            type_name = stored.topic.rpartition(".")[2]
            unreadable = BrokenLink(
                stored.originator_version,
                type_name,
                f"cannot be read: {type(error).__name__}: {error}",
            )
            break
    broken = first_broken_link(match_id, items) or unreadable
    head = items[-1]["chain"] if items and broken is None else None
    return ChainReport(match_id, len(items) + (unreadable is not None), head, broken)


def _is_revealed(match: Match, domain_event: Any) -> bool:
    if isinstance(domain_event, Match.Created):
        return match.finished
    if isinstance(domain_event, Match.OrderSubmitted | Match.OrderRejected):
        return match.finished or _has_closed(match, domain_event.movement)
    return True


def _has_closed(match: Match, movement: int) -> bool:
    """Returns whether `movement` has closed (one the match has gone past, or never
    reached before a later start, counts as closed)."""
    entry = match.movement_log(movement)
    return movement < match.movement or (entry is not None and entry.closed is not None)
