"""`drts match events|verify|replay|audit|seed`: what an auditor and a referee check (as
api/audit.py and the event feed offer over HTTP): the event log with its secrecy, the
chain, a replay from the first event, a re-adjudication under the match's ruleset
version, and the seed before it is revealed.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import click

from cli.match import (
    echo_json,
    match_id_argument,
    printable,
    referee_token_option,
    timeline_option,
    viewer_token_option,
)
from cli.store import matches, reports_errors
from domain.rules.contract import JSON
from service import limits
from service.queries.eventfilter import EventFilter
from service.results import AuditReport, ReplayReport

DATA_CHARS = 150  # of an event's data in the one-line form of `drts match events`


@click.command("events")
@match_id_argument
@viewer_token_option
@click.option("--after", type=int, default=0, help="only events after this version")
@click.option(
    "--type",
    "types",
    multiple=True,
    help="only events of this type (repeat it, or separate names with commas)",
)
@click.option("--movement", type=int, default=None, help="only events of this movement")
@click.option("--seat", type=int, default=None, help="only events naming this seat")
@click.option("--json", "as_json", is_flag=True, help="the public JSON form (docs/integrity.md)")
@reports_errors
def events(
    match_id: str,
    token: str | None,
    after: int,
    types: tuple[str, ...],
    movement: int | None,
    seat: int | None,
    as_json: bool,
) -> None:
    """Prints the event log, or the events of the given types, movement and seat; open
    movements show receipt digests, not orders."""
    kept = EventFilter.of(types, movement, seat)
    items = matches().event_log(match_id, token, after, kept)
    if as_json:
        echo_json(items)
        return
    for item in items:
        click.echo(event_line(item))


def event_line(item: dict[str, Any]) -> str:
    """Returns one event as a line: version, time, type, its data as compact JSON cut at
    DATA_CHARS characters (a `…` marks the cut: `--json` prints it whole) and its sealed
    values; terminal-safe, as a dispute's text or an imported log may hold anything."""
    data = json.dumps(item["data"], ensure_ascii=False, separators=(",", ":"))
    if len(data) > DATA_CHARS:
        data = data[:DATA_CHARS] + "…"
    sealed = "" if "sealed" not in item else " sealed=" + json.dumps(item["sealed"])
    return printable(f"{item['version']:>5} {item['timestamp']} {item['type']} {data}{sealed}")


@click.command("verify")
@match_id_argument
@click.option(
    "--receipt",
    "receipt_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="a receipt a seat kept (the JSON of its order's receipt); repeatable",
)
@click.option(
    "--head",
    "heads",
    multiple=True,
    metavar="VERSION:CHAIN",
    help="a head noted from a result, display or state; repeatable",
)
@timeline_option
@reports_errors
def verify(
    match_id: str, receipt_files: tuple[str, ...], heads: tuple[str, ...], timeline: int | None
) -> None:
    """Verifies the event chain and seals, then every receipt and head given, the read
    model's heads, the finish and the snapshots; exits 1 naming what is wrong. The chain
    covers every timeline; the head printed is the current one's (or --timeline's)."""
    receipts = [(f"receipt {path}", read_receipt(path)) for path in receipt_files]
    held: list[tuple[str, JSON]] = [(f"head {text}", text) for text in heads]
    report = matches().verify_chain(match_id, receipts, held, timeline)
    for problem in report.problems:
        click.echo(f"{problem.kind}: {problem.message}", err=True)
    if report.broken is not None:
        bad = report.broken
        raise click.ClickException(f"event {bad.version} ({bad.type}) fails: {bad.reason}")
    if report.problems:
        raise click.ClickException(
            f"the chain holds ({report.events} events, head {report.version}:{report.head}) "
            f"but {len(report.problems)} check(s) of the evidence fail (above)"
        )
    checked = f", {report.evidence} receipt(s) and head(s) on the log" if report.evidence else ""
    shown = f" (timeline {report.timeline} of {report.timelines})" if report.timelines > 1 else ""
    click.echo(f"ok: {report.events} events, chain head {report.head}{shown}{checked}")


def read_receipt(path: str) -> JSON:
    """Returns the JSON of a receipt file; a file that is not JSON is a usage error."""
    try:
        with open(path, encoding="utf-8") as file:
            data: JSON = limits.parse_json(file.read(), "receipt")
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise click.BadParameter(f"{path}: not a JSON receipt ({error})") from None
    return data


@click.command("replay")
@match_id_argument
@viewer_token_option
@click.option(
    "--json", "as_json", is_flag=True, help="the whole replay with each state, as the API gives it"
)
@timeline_option
@reports_errors
def replay(match_id: str, token: str | None, as_json: bool, timeline: int | None) -> None:
    """Replays the match from its first event, movement by movement, and checks the store;
    exits 1 if the replay differs. States are shown (--json) as the token's holder may see.
    """
    report = matches().replay(match_id, token, timeline)
    if as_json:
        echo_json(replay_json(report))
        raise SystemExit(0 if report.agrees else 1)
    for frame in report.frames:
        click.echo(
            f"movement {frame.movement} (event {frame.version}): "
            f"state {frame.state_hash[:16]}, scores {frame.outcome['scores']}"
        )
        for step in frame.steps:
            click.echo(f"    [{step['rule']}] {step['text']}")
    verdict = "agrees with" if report.agrees else "DIFFERS from"
    click.echo(f"{report.events} events replayed; the replay {verdict} the stored match")
    if not report.agrees:
        raise SystemExit(1)


@click.command("audit")
@match_id_argument
@click.option(
    "--token",
    envvar="DRTS_TOKEN",
    help="the referee (or operator) token: needed until the match finishes (the look is recorded)",
)
@click.option("--json", "as_json", is_flag=True, help="the report as the API gives it")
@timeline_option
@reports_errors
def audit(match_id: str, token: str | None, as_json: bool, timeline: int | None) -> None:
    """Re-adjudicates the match under its pinned ruleset version from its config, seed and
    orders, movement by movement, every timeline of a corrected match; exits 1 naming the
    first divergence from the stored steps, state hashes and outcome."""
    report = matches().audit(match_id, token, timeline)
    if as_json:
        echo_json(report.to_json())
    else:
        click.echo("\n".join(audit_lines(report)))
    if not report.exact:
        raise SystemExit(1)


def audit_lines(report: AuditReport) -> list[str]:
    """Returns a re-adjudication in words: what was checked, then exact or the divergence."""
    lines = [
        f"match {report.match_id} under {report.ruleset} v{report.ruleset_version}: "
        f"{report.movements} resolved movement(s) re-adjudicated"
    ]
    if report.given_start:
        lines.append("the start state was given by the referee: play was checked from it")
    if len(report.timelines) > 1:
        verdicts = ", ".join(
            f"{t.timeline}: {'exact' if t.exact else 'DIVERGES'}" for t in report.timelines
        )
        lines.append(f"timeline {report.timeline} of {len(report.timelines)} ({verdicts})")
    found = report.divergence
    if found is None:
        return [*lines, "exact: every step, state hash and outcome is the stored one"]
    where = f"movement {found.movement}" + ("" if found.step is None else f", step {found.step}")
    rulings = f" (rulings: {', '.join(found.rulings)})" if found.rulings else ""
    return [
        *lines,
        f"DIVERGES at {where}: {found.what} differs{rulings}",
        f"  stored event {found.version} ({found.event})",
        f"  stored:     {json.dumps(found.stored, ensure_ascii=False)}",
        f"  recomputed: {json.dumps(found.recomputed, ensure_ascii=False)}",
    ]


@click.command("seed")
@match_id_argument
@referee_token_option
@reports_errors
def seed(match_id: str, referee_token: str) -> None:
    """Prints the match seed to the referee before it is revealed (the look is recorded)."""
    click.echo(matches().referee_seed(match_id, referee_token))


def replay_json(report: ReplayReport) -> JSON:
    """Returns a replay in the API's JSON form (docs/api.md, GET /matches/{id}/replay)."""
    return {
        "match_id": str(report.match_id),
        "events": report.events,
        "movements": [asdict(frame) for frame in report.frames],
        "state": report.state,
        "agrees": report.agrees,
        "timeline": report.timeline,
        "timelines": report.timelines,
    }


def register(group: click.Group) -> None:
    """Adds the audit commands to `drts match`."""
    for command in (events, verify, replay, audit, seed):
        group.add_command(command)
