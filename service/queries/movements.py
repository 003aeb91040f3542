"""Past movements and receipts, read from the log (issue 17): what the referee and an
auditor check after a movement resolved, and what a receipt digest proves.

A resolved movement's orders are revealed by its MovementClosed, so every one is shown
to everyone, as sent and parsed, with which counted; the refusals aimed at it are
revealed too (docs/integrity.md). States are shown as the viewer may see them (the
game's `view`; the referee sees the full state), as the replay shows them. Phases are
run again with the match seed (service/queries/phases.py), so they are shown once the match has
finished, or to the referee (the caller records that look).

A receipt check says only what is public: the seat, movement, time, source and the
event holding the digest; the order as sent and parsed, and the salt, once revealed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from domain.integrity import normalized
from domain.match import Match
from domain.match.timelines import timelines
from domain.rules.contract import JSON, OrderPolicy, Ruleset
from service.errors import (
    InvalidDigestError,
    MovementNotResolvedError,
    PhasesDivergedError,
    UnknownReceiptError,
)
from service.queries import phases, views
from service.results import (
    Document,
    MovementOrder,
    MovementRecord,
    PhaseView,
    ReceiptCheck,
    RefusedOrder,
    Viewer,
)

if TYPE_CHECKING:
    from service.store.application import MatchStore

DIGEST = re.compile(r"[0-9a-f]{64}")
SEED_SECRET = (
    "the phases are run again with the match seed, which stays secret until the match "
    "finishes; the referee may see them earlier (the look is recorded)"
)


def movement_record(
    app: MatchStore,
    match: Match,
    movement: int,
    viewer: Viewer,
    seed_revealed: bool | None = None,
) -> MovementRecord:
    """Returns resolved movement `movement` of the match as the viewer may see it; phases
    only when the seed is revealed (`seed_revealed`: the match has finished, by default
    the given match's finish) or the viewer is the referee. `match` may be an earlier
    timeline's (the match as it left it): the record is then that timeline's.

    Raises MovementNotFoundError for a movement the match has not reached, and
    MovementNotResolvedError for one that has not resolved (the open one: its orders
    are still secret).
    """
    entry = views.movement_entry(match, movement)
    if entry.closed is None or entry.resolved is None:
        raise MovementNotResolvedError(
            f"movement {movement} of match {match.id} is not resolved (yet): its record, "
            "and its orders, are shown once it has closed"
        )
    events = list(app.events.get(match.id))
    closed = events[entry.closed - 1]
    resolved = events[entry.resolved - 1]
    assert isinstance(closed, Match.MovementClosed)
    assert isinstance(resolved, Match.MovementResolved)
    ruleset = match.rules()
    current = timelines(events)[match.timeline - 1]  # a corrected match: its timeline's
    aimed = [e for e in current if getattr(e, "movement", None) == movement]
    before = app.get_match(match.id, entry.closed - 1).state
    revealed = match.finished if seed_revealed is None else seed_revealed
    shown_phases, note = _phases(app, match, movement, viewer, ruleset, revealed)
    return MovementRecord(
        match_id=match.id,
        movement=movement,
        ruleset=match.ruleset,
        ruleset_version=match.ruleset_version,
        order_policy=str(ruleset.info.order_policy),
        reason=closed.reason,
        closed_at=closed.intended_at or closed.timestamp,
        opened_version=entry.opened,
        closed_version=entry.closed,
        resolved_version=entry.resolved,
        orders=movement_orders(closed.orders, aimed, ruleset.info.order_policy),
        refused=tuple(_refused(e) for e in aimed if isinstance(e, Match.OrderRejected)),
        strikes=_documents(aimed, Match.SeatStruck, "seat", "strikes"),
        eliminated=_documents(aimed, Match.SeatEliminated, "seat", "reason"),
        steps=_documents(aimed, Match.StepApplied, "index", "rule", "text", "data"),
        state_before=shown_state(ruleset, before, viewer),
        state_after=shown_state(ruleset, resolved.state, viewer),
        state_hash=resolved.state_hash,
        outcome=views.outcome_json(resolved.outcome),
        phases=shown_phases,
        phases_note=note,
        timeline=match.timeline,
    )


def movement_orders(
    entries: Sequence[dict[str, Any]], aimed: Iterable[Any], policy: OrderPolicy
) -> tuple[MovementOrder, ...]:
    """Returns a movement's revealed orders (MovementClosed's entries, in arrival order)
    with their OrderSubmitted event's details and what the order policy did with each."""
    submitted = {e.digest: e for e in aimed if isinstance(e, Match.OrderSubmitted)}
    fates = order_fates(entries, policy)
    orders = []
    for entry, (fate, replaced_by) in zip(entries, fates, strict=True):
        event = submitted.get(entry["digest"])
        orders.append(
            MovementOrder(
                seat=entry["seat"],
                version=None if event is None else event.originator_version,
                received_at=None if event is None else event.received_at,
                source=None if event is None else event.source,
                message_id=None if event is None else event.message_id,
                digest=entry["digest"],
                salt=entry["salt"],
                order=entry["order"],
                sent=entry.get("sent"),
                used=entry.get("used", True),
                fate=fate,
                replaced_by=replaced_by,
            )
        )
    return tuple(orders)


def order_fates(
    entries: Sequence[dict[str, Any]], policy: OrderPolicy
) -> list[tuple[str, str | None]]:
    """Returns, for each revealed order, what the order policy did with it and the digest
    of the order that replaced it: under `replace` an unused order was `replaced` by the
    seat's next one; under `merge` a seat's several orders were `merged` into its
    standing order; an order the resolution did not take for another reason is `unused`
    (a forfeit ended the match first); any other order `counted` (every one under
    `accumulate`)."""
    fates: list[tuple[str, str | None]] = []
    for i, entry in enumerate(entries):
        later = [e for e in entries[i + 1 :] if e["seat"] == entry["seat"]]
        several = bool(later) or any(e["seat"] == entry["seat"] for e in entries[:i])
        if not entry.get("used", True):
            # replaced only if the seat's last order was taken (a forfeit takes none)
            replaced = policy is OrderPolicy.REPLACE and bool(later) and later[-1].get("used", True)
            fates.append(("replaced", later[0]["digest"]) if replaced else ("unused", None))
        elif policy is OrderPolicy.MERGE and several:
            fates.append(("merged", None))
        else:
            fates.append(("counted", None))
    return fates


def shown_state(ruleset: Ruleset[Any, Any], state: JSON, viewer: Viewer) -> JSON:
    """Returns a dumped state as the viewer may see it, a value of its own: whole to the
    referee and where the game's view is the whole state, else the game's view for the
    viewer's seat (the public view for anyone)."""
    if state is None:
        return None
    if viewer.referee or ruleset.view_is_state:
        return views.detached(state)
    return normalized(ruleset.view(ruleset.load_state(state), viewer.seat))


def phase_shown(ruleset: Ruleset[Any, Any], state: Any, viewer: Viewer) -> JSON:
    """Returns a phase's state as the viewer may see it, from the state itself (as /state
    shows a phase): a phase between two steps may hold what no whole state may, such as
    a meeting the battle just broke and a later step resets (DRTS-17), so it is never
    loaded again as a state JSON."""
    shown = ruleset.dump_state(state) if viewer.referee else ruleset.view(state, viewer.seat)
    return normalized(shown)


def receipt_check(app: MatchStore, match: Match, digest: str) -> ReceiptCheck:
    """Returns what a receipt digest proves in the match: the accepted or refused order
    holding it, with what is public now (docs/integrity.md).

    Raises InvalidDigestError for text that is no digest, UnknownReceiptError for a
    digest no order of the match holds.
    """
    wanted = digest.strip().lower()
    if not DIGEST.fullmatch(wanted):
        raise InvalidDigestError(
            f"{digest[:80]!r} is not a receipt digest: 64 hexadecimal digits (SHA-256)"
        )
    events = list(app.events.get(match.id))
    holder = next(
        (
            e
            for e in events
            if isinstance(e, Match.OrderSubmitted | Match.OrderRejected) and e.digest == wanted
        ),
        None,
    )
    if holder is None:
        raise UnknownReceiptError(
            f"no order of match {match.id} has the receipt digest {wanted} "
            "(neither an accepted nor a refused one)"
        )
    revealed = views.is_revealed(match, holder)
    sealed = (holder.sealed or {}) if revealed else {}
    if isinstance(holder, Match.OrderRejected):
        return _check(match, holder, revealed, "refusal", sealed.get("order"), None, sealed)
    used, fate = _counted(match, events, holder)
    check = _check(
        match, holder, revealed, "order", sealed.get("sent"), sealed.get("order"), sealed
    )
    return replace(check, used=used, fate=fate)


# -- private --------------------------------------------------------------------------------


def _phases(
    app: MatchStore,
    match: Match,
    movement: int,
    viewer: Viewer,
    ruleset: Ruleset[Any, Any],
    seed_revealed: bool,
) -> tuple[tuple[PhaseView, ...] | None, str | None]:
    if not (seed_revealed or viewer.referee):
        return None, SEED_SECRET
    try:
        run = phases.traced(app, match, movement)
    except PhasesDivergedError as error:
        return None, str(error)
    return (
        tuple(
            PhaseView(
                phase.name,
                phase_shown(ruleset, phase.state, viewer),
                [step.to_json() for step in phase.steps],
            )
            for phase in run.phases
        ),
        None,
    )


def _documents(events: Iterable[Any], kind: type[Any], *fields: str) -> list[Document]:
    """Returns the events of one kind as documents of the named fields and their version."""
    return [
        {**{name: getattr(e, name) for name in fields}, "version": e.originator_version}
        for e in events
        if isinstance(e, kind)
    ]


def _refused(event: Any) -> RefusedOrder:
    sealed = event.sealed or {}
    return RefusedOrder(
        seat=event.seat,
        version=event.originator_version,
        received_at=event.received_at,
        source=event.source,
        message_id=event.message_id,
        digest=event.digest,
        salt=sealed.get("salt"),
        sent=sealed.get("order"),
        error=event.error,
        reason=sealed.get("reason", event.reason),
    )


def _counted(match: Match, events: list[Any], submitted: Any) -> tuple[bool | None, str | None]:
    """Returns whether an accepted order counted, and its fate, once its movement closed."""
    entry = match.movement_log(submitted.movement)
    if entry is None or entry.closed is None:
        return None, None
    orders = events[entry.closed - 1].orders
    fates = order_fates(orders, match.rules().info.order_policy)
    for order, (fate, _) in zip(orders, fates, strict=True):
        if order["digest"] == submitted.digest:
            return bool(order.get("used", True)), fate
    return None, None


def _check(
    match: Match,
    holder: Any,
    revealed: bool,
    kind: str,
    sent: JSON,
    order: JSON,
    sealed: dict[str, Any],
) -> ReceiptCheck:
    refusal = kind == "refusal"
    return ReceiptCheck(
        match_id=match.id,
        digest=holder.digest,
        kind=kind,
        seat=holder.seat,
        movement=holder.movement,
        received_at=holder.received_at,
        source=holder.source,
        message_id=holder.message_id,
        version=holder.originator_version,
        type=type(holder).__name__,
        chain=holder.chain,
        revealed=revealed,
        order=order,
        sent=sent,
        salt=sealed.get("salt"),
        error=holder.error if refusal else None,
        reason=sealed.get("reason") if refusal else None,
        used=None,
        fate=None,
    )
