"""What a seat may order now in the open movement (issue 48): the game's whole orders where
it lists them (`legal_orders`), its per-piece commands where it lists those
(`legal_commands`) with the rule that combines them, each in the game's text and JSON
forms; or an empty answer saying why the seat owes nothing now.

Where a later order combines with the standing one rather than replacing it, the answer
is over the seat's standing order of the movement (`Table.standing_orders`): DRTS Team 23
v2 merges per piece, so `combining` counts the pieces it already commands and the items
it leaves (`ordered`, `stock`); B-Chess accumulates, so `repeats` counts only the purchases
the macks still pay for after the standing ones (a piece with none left is not listed).
Where a later order replaces the earlier whole (`order_policy: "replace"`), the lists are
the position's: the seat may send anything listed instead.

Who may ask (`legal_orders_of`): a seat, for itself; the referee (or the operator), for
the seat it names. The lists follow from the state every seat sees; the only open order
in the answer is the asked seat's own standing one (`standing`, and `combining`'s
`ordered`), so the referee's look at it is recorded (service/queries/reads.py).
"""

from __future__ import annotations

from typing import Any

from domain.errors import NotYourSeatError, UnknownSeatError
from domain.integrity import normalized
from domain.match import Match
from domain.rules.contract import JSON, AnyRuleset, Dynamics, OrderPolicy
from domain.table import Table
from service.errors import SeatNeededError
from service.results import Document, Viewer

NOT_STARTED, FINISHED, ELIMINATED, NOT_ITS_TURN = (
    "not_started",
    "finished",
    "eliminated",
    "not_its_turn",
)


def seat_asked(match: Match, viewer: Viewer, seat: int | None) -> int:
    """Returns the seat whose legal orders `viewer` may see: its own (naming it or not), or,
    for the referee, the seat it names; raises NotYourSeatError for another seat's,
    SeatNeededError when the referee names none, UnknownSeatError for a seat not joined."""
    if viewer.referee:
        if seat is None:
            raise SeatNeededError(
                f"match {match.id}: the referee names the seat whose legal orders to list (?seat=N)"
            )
    elif viewer.seat is None:
        raise NotYourSeatError(f"match {match.id}: legal orders are listed to a seat's token")
    elif seat is not None and seat != viewer.seat:
        raise NotYourSeatError(
            f"seat {viewer.seat} may not see seat {seat}'s legal orders of match {match.id}: "
            "send that seat's token"
        )
    number = viewer.seat if seat is None else seat
    assert number is not None
    if not 1 <= number <= len(match.seats):
        raise UnknownSeatError(
            f"match {match.id} has no seat {number} ({len(match.seats)} seat(s) joined)"
        )
    return number


def legal_orders_of(match: Match, seat: int) -> Document:
    """Returns what `seat` may order now: `owes` and, when it owes nothing, `why` (a stable
    code) and `reason`; `orders` (whole orders, or None where the game cannot list them),
    `pieces` and `combining` (per-piece commands and their rule over the seat's standing
    order, or None); `order_policy` and `standing` (how a further order combines with the
    seat's standing order of the movement, and that order: Table.standing_order)."""
    ruleset = match.rules()
    sent = sum(1 for p in match.pending if p.seat == seat)
    policy = ruleset.info.order_policy
    answer: dict[str, Any] = {
        "match_id": str(match.id),
        "seat": seat,
        "movement": match.movement if match.started else None,
        "ruleset": match.ruleset,
        "version": match.ruleset_version,
        "lists": lists_of(ruleset),
        "orders_sent": sent,
        "order_policy": policy.value,
        "standing": _standing(match.table(), seat) if sent else _nothing(policy),
    }
    why, reason = _owes_nothing(match, seat)
    if why is not None:
        return {**answer, "owes": False, "why": why, "reason": reason, **_empty(ruleset)}
    table = match.table()
    listed = _listed(ruleset, table, seat)
    return {**answer, "owes": True, "why": None, "reason": "", **listed}


def _standing(table: Table, seat: int) -> JSON:
    return normalized(table.standing_order(seat))


def _nothing(policy: OrderPolicy) -> JSON:
    return [] if policy is OrderPolicy.ACCUMULATE else None


def lists_of(ruleset: AnyRuleset) -> list[str]:
    """Returns what a ruleset lists: "orders" (whole orders), "commands" (per piece)."""
    lists = ["orders"] if ruleset.legal_orders is not None else []
    return lists + (["commands"] if ruleset.legal_commands is not None else [])


def _owes_nothing(match: Match, seat: int) -> tuple[str | None, str]:
    """Returns (code, reason) when `seat` owes no order now, else (None, "")."""
    if not match.started:
        joined = f"{len(match.seats)} of {match.seat_limits['min']} seat(s) needed joined"
        return NOT_STARTED, f"match {match.id} has not started ({joined})"
    if match.finished or match.voided is not None:
        return FINISHED, f"match {match.id} is finished: no movement is open"
    if seat in match.eliminated:
        return ELIMINATED, f"seat {seat} is eliminated: it is no longer asked for orders"
    owing = match.table().to_move().seats
    if seat not in owing and match.rules().info.dynamics is Dynamics.SIMULTANEOUS:
        # every seat still in a simultaneous game owes orders in each movement
        return ELIMINATED, (
            f"seat {seat} is out of the game (eliminated, or left with nothing to order): "
            "it is no longer asked for orders"
        )
    if seat not in owing:
        who = ", ".join(map(str, owing)) or "none"
        return NOT_ITS_TURN, (
            f"not its turn: seat {seat} owes no order in movement {match.movement} "
            f"(seats owing: {who})"
        )
    return None, ""


def _empty(ruleset: AnyRuleset) -> dict[str, Any]:
    return {
        "orders": [] if ruleset.legal_orders is not None else None,
        "pieces": [] if ruleset.legal_commands is not None else None,
        "combining": None,
    }


def _listed(ruleset: AnyRuleset, table: Table, seat: int) -> dict[str, Any]:
    """Returns the lists: whole orders from the position (a further one replaces the
    standing one: `legal_orders` is only under `replace`), per-piece commands with their
    rule over the seat's standing orders, leaving out a piece whose repeats they used up
    (B-Chess's purchases once the macks pay for no more, BC-6)."""
    state = table.state
    orders = None
    if ruleset.legal_orders is not None:
        orders = [_forms(ruleset, order) for order in ruleset.legal_orders(state, seat)]
    if ruleset.legal_commands is None:
        return {"orders": orders, "pieces": None, "combining": None}
    rule = ruleset.combining_of(state, seat, table.standing_orders(seat))
    pieces = [
        {"piece": piece, "commands": [_command(ruleset, state, seat, c) for c in commands]}
        for piece, commands in ruleset.legal_commands(state, seat).items()
        if rule.repeats.get(str(piece), 1) > 0
    ]
    return {"orders": orders, "pieces": pieces, "combining": rule.to_json()}


def _command(ruleset: AnyRuleset, state: Any, seat: int, command: Any) -> dict[str, JSON]:
    assert ruleset.order_of_commands is not None
    forms = _forms(ruleset, ruleset.order_of_commands([command]))
    spends = {} if ruleset.command_spends is None else dict(ruleset.command_spends(command))
    note = "" if ruleset.command_note is None else ruleset.command_note(state, seat, command)
    return {**forms, "spends": spends, "note": note}


def _forms(ruleset: AnyRuleset, order: Any) -> dict[str, JSON]:
    return {"text": ruleset.format_order(order), "json": ruleset.dump_order(order)}
