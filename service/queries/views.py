"""Reads of a match: summary, state at any movement, scores, the event log (with its
secrecy), replay and chain verification. Nothing here runs the rules' resolution:
states come from folding the stored events (the phases of a resolution, which run
it again, are in service/queries/phases.py).

Secrecy of the event log (docs/integrity.md): an event's `sealed` field (the
seed; an order and its salt; a refused order with its reason and salt) is shown
only once revealed — the seed when the match finishes, an order or a refusal when
the movement it was aimed at closes (at once for one aimed at a closed movement, and
for every order of a game whose orders are public, `RulesetInfo.public_orders`) —
except to the seat that
sent the order and to the referee (or the operator), whose look at
unrevealed secrets is recorded as a SecretViewed event.
"""

from __future__ import annotations

import json
import textwrap
from functools import partial
from typing import TYPE_CHECKING, Any

import orjson

from domain.errors import RulesetVersionNotInstalledError
from domain.integrity import iso, jsonable, normalized
from domain.match import Match, MovementLog, parsed
from domain.rules.contract import JSON, asks_rematch
from service.errors import MovementNotFoundError
from service.eventjson import public_item
from service.queries.eventfilter import EVERY_EVENT, EventFilter
from service.results import (
    Head,
    LiveReading,
    MatchSummary,
    Viewer,
)
from service.store import loading

if TYPE_CHECKING:
    from service.store.application import MatchStore


def summary(match: Match) -> MatchSummary:
    """Returns the public summary of a match: ruleset, seats, status, clock, outcome."""
    to_move: list[int] = []
    if match.is_open():
        to_move = list(match.rules().to_move(match.rules().load_state(match.state)).seats)
    status = "finished" if match.finished else "started" if match.started else "open"
    status = "void" if match.voided is not None else status
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
        paused=pause_json(match.paused),
        timeline=match.timeline,
        disputes=dispute_counts(match),
    )


def pause_json(paused: dict[str, Any] | None) -> JSON:
    """Returns a match's pause as the service shows it (None when its clock runs)."""
    if paused is None:
        return None
    deadline = paused["deadline"]
    return {
        "at": iso(paused["at"]),
        "deadline": None if deadline is None else iso(deadline),
        "reason": paused["reason"],
        "by": paused["by"],
    }


def dispute_counts(match: Match) -> dict[str, int]:
    """Returns how many of the match's disputes are open and how many ruled."""
    open_ = sum(1 for dispute in match.disputes if dispute.is_open)
    return {"open": open_, "ruled": len(match.disputes) - open_}


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
    app: MatchStore,
    match: Match,
    viewer: Viewer,
    after: int = 0,
    limit: int | None = None,
    kept: EventFilter = EVERY_EVENT,
) -> tuple[list[dict[str, JSON]], bool]:
    """Returns the match's events after version `after` that the filter keeps (at most
    `limit`), sealed values shown as allowed, and whether the referee saw some not yet
    revealed (a look the caller records)."""
    items: list[dict[str, JSON]] = []
    peeked = False
    for domain_event in _listed_events(app, match, after, limit if kept.everything else None):
        if limit is not None and len(items) >= limit:
            break
        public = is_revealed(match, domain_event)
        own = viewer.seat is not None and getattr(domain_event, "seat", None) == viewer.seat
        item = public_item(domain_event, public or own or viewer.referee)
        if not kept.keeps(item):
            continue
        items.append(item)
        peeked |= viewer.referee and not public and bool(getattr(domain_event, "sealed", None))
    return items, peeked


def _listed_events(app: MatchStore, match: Match, after: int, limit: int | None) -> list[Any]:
    """Returns the stored events after version `after`, checked from the link at `after`
    (service/store/loading.py: a tampered row is a TamperedLogError, never a 500)."""
    if not after:
        return loading.checked_events(app, match.id, limit=limit)
    rows = app.recorder.select_events(match.id, gt=after - 1, lte=after)
    if not rows:
        return []
    anchor = (after, loading.decoded(app, rows[0]).chain, match.seed_commitment)
    return loading.checked_events(app, match.id, anchor, limit=limit)


def write_head(app: MatchStore, past: Match) -> Head:
    """Returns the log's head after the write that gave a past match's position: its own
    head, or the next event's when that is the next movement's deadline or the finish,
    which the same write stored (docs/integrity.md, Heads and receipts)."""
    anchor = (past.version, past.chain, past.seed_commitment)
    following = loading.checked_events(app, past.id, anchor, upto=past.version + 1)
    for event in following:
        opens = isinstance(event, Match.DeadlineSet) and event.movement == past.movement
        if opens or isinstance(event, Match.Finished):
            return Head(event.originator_version, event.chain)
    return Head(past.version, past.chain)


def live_reading(match: Match, line: Match, head: Head) -> LiveReading:
    """Returns what the match page shows of `match` (issue 47): its summary, and the
    summary, spectator's state, movement and Public Display of `line`, the timeline shown
    (the match itself, or an earlier timeline's end); `head` is the write's that gave
    `line` its position, as `display` names it."""
    now = summary(match)
    shown, state = now if line is match else summary(line), state_view(line, Viewer())
    return LiveReading(now, shown, state, line.movement, display(line, None, head))


def position_version(match: Match) -> int:
    """Returns the version that gave the match its current position: the resolution (or
    start) that opened its last movement; its latest version before the start."""
    return match.movements[-1].opened if match.movements else match.version


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


def display(match: Match, after: int | None = None, head: Head | None = None) -> str:
    """Returns the Public Display of a (past) match: who plays what, where the match stands,
    the log's head after the write that gave the position (`head`, once started), then the
    ruleset's picture of the position (`after`: the movement just resolved)."""
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
    if head is not None and match.started:
        lines += ["Log head (version:chain, for drts match verify --head):", head_text(head)]
    text = "\n".join(lines) + "\n"
    if match.state is None:
        return text
    ruleset = match.rules()
    return text + "\n" + ruleset.public_display(ruleset.load_state(match.state))


def head_text(head: Head) -> str:
    """Returns a head as the CLI spells it: VERSION:CHAIN."""
    return f"{head.version}:{head.chain}"


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
    """Returns the state of a (past) match as the viewer may see it (None before the start),
    a value of its own: the stored state, copied, to the referee and where the game's view
    is the whole state (`view_is_state`: no loading and dumping, issue 46)."""
    if past.state is None:
        return None
    if viewer.referee:
        return detached(past.state)
    ruleset = past.rules()
    if ruleset.view_is_state:
        return detached(past.state)
    state = parsed.STATES.get(past.state, ruleset, partial(ruleset.load_state, past.state))
    return ruleset.view(state, viewer.seat)


def detached(state: JSON) -> JSON:
    """Returns a copy of a stored state JSON that shares nothing with it. The match's own
    state must never reach a caller: a caller changing it would change the match this
    process keeps (its chain and state hash would no longer agree) and every read of it.

    Through orjson, a third of the standard library's round trip (issue 46: B-Chess's
    replay copies its Field at every Turn); through the standard library where orjson
    refuses the state (a float decoded from the store, an integer beyond 64 bits), so
    that the copy is the standard library's round trip either way. A state holds no NaN or
    infinity (the chain's canonical JSON refuses them: no event records one), which
    orjson would write as null."""
    try:
        return orjson.loads(orjson.dumps(state, option=_COPY))
    except orjson.JSONEncodeError:
        return json.loads(json.dumps(state))


# what the standard library's encoder refuses, orjson must refuse too (it would write them)
_COPY = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


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
            "sent": p.sent,  # None for an order stored before orders were kept as sent
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


def is_revealed(match: Match, domain_event: Any) -> bool:
    """Returns whether an event's sealed part is public now: the seed once the match has
    finished, an order or a refusal once the movement it was aimed at has closed."""
    if isinstance(domain_event, Match.Created):
        return match.finished
    if isinstance(domain_event, Match.OrderSubmitted | Match.OrderRejected):
        public = orders_are_public(match)
        return public or match.finished or _has_closed(match, domain_event.movement)
    return True


def orders_are_public(match: Match) -> bool:
    """Returns whether the match's orders are public as soon as they are received (a forum
    game's, `RulesetInfo.public_orders`: B-Chess) rather than sealed until their movement
    closes."""
    try:
        return match.rules().info.public_orders
    except RulesetVersionNotInstalledError:  # its orders stay sealed until it can be read
        return False


def _has_closed(match: Match, movement: int) -> bool:
    """Returns whether `movement` has closed (one the match has gone past, or never
    reached before a later start, counts as closed)."""
    entry = match.movement_log(movement)
    return movement < match.movement or (entry is not None and entry.closed is not None)
