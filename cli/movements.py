"""`drts match movement|receipt`: a resolved movement's record and what a receipt digest
proves (issue 17), as GET /matches/{id}/movements/{n} and /receipts/{digest} give them.
"""

from __future__ import annotations

import json

import click

from cli.match import echo_json, match_id_argument, timeline_option, viewer_token_option
from cli.store import matches, reports_errors
from domain.rules.contract import JSON
from service.results import MovementRecord, ReceiptCheck

as_json_option = click.option("--json", "as_json", is_flag=True, help="the API's JSON form")


@click.command("movement")
@match_id_argument
@click.argument("number", type=int)
@viewer_token_option
@as_json_option
@timeline_option
@reports_errors
def movement(
    match_id: str, number: int, token: str | None, as_json: bool, timeline: int | None
) -> None:
    """Prints resolved movement NUMBER: each seat's orders as sent and which counted, the
    refused ones with their reasons, receipt digests, strikes, steps and scores (--json:
    also the states before and after, as the token's holder may see them, and the phases);
    of an earlier timeline of a corrected match with --timeline.
    """
    record = matches().movement(match_id, number, token, timeline)
    if as_json:
        echo_json(record.to_json())
        return
    for line in movement_lines(record, timeline is not None):
        click.echo(line)


@click.command("receipt")
@match_id_argument
@click.option("--digest", required=True, help="the receipt digest to check")
@as_json_option
@reports_errors
def receipt(match_id: str, digest: str, as_json: bool) -> None:
    """Prints what a receipt digest proves: the seat, movement and event holding it, and
    the order as sent once its movement has closed (public: no token)."""
    check = matches().receipt(match_id, digest)
    if as_json:
        echo_json(check.to_json())
        return
    for line in receipt_lines(check):
        click.echo(line)


def movement_lines(record: MovementRecord, asked: bool = False) -> list[str]:
    """Returns a movement's record as text, one line a fact (naming its timeline when
    `asked` for one, or past the first)."""
    timeline = f", timeline {record.timeline}" if asked or record.timeline > 1 else ""
    lines = [
        f"movement {record.movement} of match {record.match_id}{timeline} "
        f"({record.ruleset} v{record.ruleset_version}): closed at "
        f"{record.closed_at.isoformat()} ({record.reason}), order policy {record.order_policy}",
        "orders:",
    ]
    for order in record.orders:
        replaced = f" by {order.replaced_by[:16]}" if order.replaced_by else ""
        lines.append(
            f"  seat {order.seat}: {shown(order.sent, order.order)} -> {order.fate}{replaced} "
            f"(event {order.version}, {order.source}, digest {order.digest})"
        )
    for refusal in record.refused:
        lines.append(
            f"  seat {refusal.seat}: {shown(refusal.sent, None)} refused, {refusal.error}: "
            f"{refusal.reason} (event {refusal.version}, digest {refusal.digest or 'none'})"
        )
    lines += [f"seat {s['seat']} struck ({s['strikes']})" for s in record.strikes]
    lines += [f"seat {e['seat']} eliminated ({e['reason']})" for e in record.eliminated]
    lines += [f"    [{step['rule']}] {step['text']}" for step in record.steps]
    scores = (record.outcome or {}).get("scores") if isinstance(record.outcome, dict) else None
    lines.append(f"state {record.state_hash[:16]}, scores {scores}")
    if record.phases is None:
        lines.append(f"phases not shown: {record.phases_note}")
    else:
        lines.append("phases: " + "; ".join(phase.name for phase in record.phases))
    return lines


def receipt_lines(check: ReceiptCheck) -> list[str]:
    """Returns a receipt check as text."""
    what = "a refused order" if check.kind == "refusal" else "an order"
    lines = [
        f"{check.digest} is the receipt of {what} of seat {check.seat} for movement "
        f"{check.movement} of match {check.match_id}, received at "
        f"{check.received_at.isoformat()} ({check.source}): event {check.version} "
        f"({check.type}), chain {check.chain}",
    ]
    if not check.revealed:
        lines.append("not revealed yet: the order stays secret until its movement closes")
        return lines
    lines.append(f"sent: {shown(check.sent, check.order)}; salt {check.salt}")
    if check.kind == "refusal":
        lines.append(f"refused, {check.error}: {check.reason}")
    elif check.fate is not None:
        lines.append(f"parsed: {compact(check.order)} -> {check.fate}")
    return lines


def shown(sent: JSON, parsed: JSON) -> str:
    """Returns an order as sent, quoted as JSON (whitespace visible), or the parsed order
    for one stored before orders were kept as sent."""
    return compact(parsed if sent is None else sent)


def compact(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def register(group: click.Group) -> None:
    """Adds the movement and receipt commands to `drts match`."""
    for command in (movement, receipt):
        group.add_command(command)
