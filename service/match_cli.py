"""`drts match ...`: play a whole match from the command line, without HTTP.

Each command opens the Matches application on the configured store
(DRTS_DATABASE_URL; an SQLite file ./drts.sqlite by default), calls one use
case and prints. Tokens can also come from the environment
(DRTS_REFEREE_TOKEN, DRTS_SEAT_TOKEN). `resolve-due` resolves whatever is due,
so a clock can be driven by hand or by cron before the workers exist.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import click

from domain.errors import DrtsError
from domain.rules.contract import JSON
from service.matches import Matches, connect
from service.results import Closing
from service.settings import SettingsError

F = TypeVar("F", bound=Callable[..., Any])

match_id_argument = click.argument("match_id")
referee_token_option = click.option(
    "--referee-token",
    envvar="DRTS_REFEREE_TOKEN",
    required=True,
    help="the token printed by create",
)
seat_token_option = click.option(
    "--token", envvar="DRTS_SEAT_TOKEN", required=True, help="the seat token printed by join"
)
movement_option = click.option(
    "--movement", type=int, default=None, help="a movement number (default: the open one)"
)


def reports_errors(command: F) -> F:
    """Turns drts errors into a one-line message and exit status 1."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except (DrtsError, SettingsError) as error:
            raise click.ClickException(f"{error.code}: {error}") from None

    return wrapper  # type: ignore[return-value]


def matches() -> Matches:
    """Returns the application for this command (closed when the command ends)."""
    context = click.get_current_context()
    app = context.meta.get("drts.matches")
    if app is None:
        app = context.meta["drts.matches"] = connect()
        context.call_on_close(app.close)
    return app


def echo_json(value: JSON) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


def json_value(text: str | None) -> JSON:
    """Returns JSON given inline or as @file."""
    if text is None:
        return None
    source = Path(text[1:]).read_text(encoding="utf-8") if text.startswith("@") else text
    try:
        return json.loads(source)
    except ValueError as error:
        raise click.BadParameter(f"not JSON: {error}") from None


def instant(text: str | None) -> datetime | None:
    """Returns an ISO 8601 instant as aware UTC (naive means UTC)."""
    if text is None:
        return None
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def echo_closing(closing: Closing | None) -> None:
    if closing is None:
        click.echo("nothing due")
        return
    for seat in closing.strikes:
        click.echo(f"movement {closing.movement}: seat {seat} struck")
    for seat in closing.eliminated:
        click.echo(f"movement {closing.movement}: seat {seat} eliminated")
    if not closing.resolved:
        click.echo(f"movement {closing.movement}: deadline extended")
    for step in closing.steps:
        click.echo(f"    [{step.rule}] {step.text}")
    if closing.resolved:
        click.echo(
            f"movement {closing.movement} resolved"
            + (", match finished" if closing.finished else "")
        )


@click.group("match")
def match() -> None:
    """Play matches from the command line: create, join, start, order, resolve, audit."""


@match.command("create")
@click.argument("ruleset")
@click.option("--config", help="config JSON, inline or @file")
@click.option("--seats", type=int, help="exact number of seats (default: the ruleset's range)")
@click.option("--seed", help="the match seed (tests only: default is a secure random seed)")
@click.option("--idempotency-key", help="a retried create with the same key finds the match")
@click.option("--deadline-seconds", type=int, help="every movement's length (default: rules)")
@reports_errors
def create(
    ruleset: str,
    config: str | None,
    seats: int | None,
    seed: str | None,
    idempotency_key: str | None,
    deadline_seconds: int | None,
) -> None:
    """Creates a match; prints its id and the referee token (shown only once)."""
    new = matches().create_match(
        ruleset, json_value(config) or {}, seats, idempotency_key, seed, deadline_seconds
    )
    click.echo(f"match {new.match_id}")
    if new.referee_token:
        click.echo(f"referee token {new.referee_token}")
    else:
        click.echo("(already created with this idempotency key; its referee token was shown then)")


@match.command("join")
@match_id_argument
@click.argument("name")
@reports_errors
def join(match_id: str, name: str) -> None:
    """Joins a match as player NAME; prints the seat and its token (shown only once)."""
    seat = matches().join(match_id, name)
    click.echo(f"seat {seat.seat} token {seat.token}")


@match.command("start")
@match_id_argument
@referee_token_option
@click.option("--state", help="a starting state (the ruleset's state JSON), inline or @file")
@click.option("--movement", type=int, default=1, help="the number of the first movement")
@reports_errors
def start(match_id: str, referee_token: str, state: str | None, movement: int) -> None:
    """Starts a match (referee); optionally from a given state and movement number."""
    app = matches()
    app.start(match_id, referee_token, json_value(state), movement)
    summary = app.summary(match_id)
    click.echo(
        f"started: movement {summary['movement']}, to move {summary['to_move']}, "
        f"deadline {summary['deadline']}"
    )


@match.command("extend")
@match_id_argument
@referee_token_option
@click.option("--seconds", type=float, default=None, help="seconds to add to the deadline")
@click.option("--until", default=None, help="the new deadline, an ISO 8601 instant")
@reports_errors
def extend(match_id: str, referee_token: str, seconds: float | None, until: str | None) -> None:
    """Moves the open movement's deadline later (referee): --seconds N or --until INSTANT."""
    deadline = matches().extend_deadline(match_id, referee_token, seconds, instant(until))
    click.echo(f"deadline {deadline.isoformat()}")


@match.command("action")
@match_id_argument
@click.argument("name")
@referee_token_option
@click.option("--args", "args", default="{}", show_default=True, help="arguments JSON, or @file")
@click.option("--reason", required=True, help="why the referee acts (recorded)")
@reports_errors
def action(match_id: str, name: str, referee_token: str, args: str, reason: str) -> None:
    """Takes the game's referee action NAME (referee): e.g. B-Chess grants macks.

    The actions of a game, their arguments and an example are listed by
    GET /rulesets/{name}. Recorded as a RefereeActed event with the reason.
    """
    arguments = json_value(args)
    if not isinstance(arguments, dict):
        raise click.BadParameter(f"--args must be a JSON object, got {args!r}")
    taken = matches().act(match_id, referee_token, name, arguments, reason)
    click.echo(
        f"referee action {taken.action} in movement {taken.movement} (event {taken.version})"
    )
    for step in taken.steps:
        click.echo(f"    [{step.rule}] {step.text}")


@match.command("order")
@match_id_argument
@click.argument("order")
@seat_token_option
@movement_option
@click.option("--source", default="cli", show_default=True, help="api, bot, email, forum, cli")
@click.option("--message-id", help="the message id of a mailed or posted order")
@reports_errors
def order(
    match_id: str, order: str, token: str, movement: int | None, source: str, message_id: str | None
) -> None:
    """Sends ORDER (the game's order text, or its JSON form) for the seat holding the token."""
    parsed = json_value(order) if order.lstrip().startswith("{") else order
    receipt = matches().submit_order(match_id, token, parsed, source, message_id, movement)
    click.echo(
        f"order of seat {receipt.seat} for movement {receipt.movement} received at "
        f"{receipt.received_at.isoformat()}; receipt digest {receipt.digest}"
    )
    if receipt.closing is not None:
        echo_closing(receipt.closing)


@match.command("show")
@match_id_argument
@reports_errors
def show(match_id: str) -> None:
    """Prints the match summary: ruleset, seats, status, open movement, deadline, outcome."""
    echo_json(matches().summary(match_id))


@match.command("state")
@match_id_argument
@movement_option
@click.option(
    "--phase",
    type=click.IntRange(min=0),
    help="with --movement: the state after this phase of its resolution (0: before it)",
)
@click.option("--step", type=int, hidden=True, help="removed: use --phase")
@click.option("--token", envvar="DRTS_TOKEN", help="a seat or referee token (more to see)")
@reports_errors
def state(
    match_id: str, movement: int | None, phase: int | None, step: int | None, token: str | None
) -> None:
    """Prints the state when a movement was open (now by default), or after a phase of a
    resolved movement's resolution, run again from the log (--movement N --phase K).

    \b
    K=0 is the state the resolution started from; K=1..n the state after each phase:
      district_war  1: the choice (DW-2) or the placement (DW-3), with the end of the match
      drts_team23   1: every operation at once (DRTS-5); 2..11: steps 0..9 of the text
                    (step 1 teams, step 6 battles and points; the item steps change
                    nothing in v1); 12: the end of the movement (DRTS-20)
    A deadline that forfeits seats adds a phase per forfeit first. The answer's
    `phases` lists the names (docs/api.md, "Phases of a resolution").
    """
    if step is not None:
        raise click.UsageError(
            "--step was removed (it showed the state the movement started from, whatever "
            "its value): use --phase K, the state after phase K of the resolution"
        )
    echo_json(matches().state(match_id, movement, phase, token))


@match.command("scores")
@match_id_argument
@movement_option
@reports_errors
def scores(match_id: str, movement: int | None) -> None:
    """Prints scores, ranking and result, now or when a movement was open."""
    echo_json(matches().scores(match_id, movement))


@match.command("events")
@match_id_argument
@click.option("--token", envvar="DRTS_TOKEN", help="a seat or referee token (more to see)")
@click.option("--after", type=int, default=0, help="only events after this version")
@click.option("--json", "as_json", is_flag=True, help="the public JSON form (docs/integrity.md)")
@reports_errors
def events(match_id: str, token: str | None, after: int, as_json: bool) -> None:
    """Prints the event log; open movements show receipt digests, not orders."""
    items = matches().event_log(match_id, token, after)
    if as_json:
        echo_json(items)
        return
    for item in items:
        data = json.dumps(item["data"], ensure_ascii=False, separators=(",", ":"))
        sealed = "" if "sealed" not in item else " sealed=" + json.dumps(item["sealed"])
        click.echo(f"{item['version']:>5} {item['timestamp']} {item['type']} {data[:150]}{sealed}")


@match.command("pending")
@match_id_argument
@seat_token_option
@reports_errors
def pending(match_id: str, token: str) -> None:
    """Prints the token holder's own orders in the open movement."""
    echo_json(matches().pending_orders(match_id, token))


@match.command("verify")
@match_id_argument
@reports_errors
def verify(match_id: str) -> None:
    """Verifies the event chain and seals; exits 1 naming the first bad event."""
    report = matches().verify_chain(match_id)
    if report.broken is None:
        click.echo(f"ok: {report.events} events, chain head {report.head}")
        return
    bad = report.broken
    raise click.ClickException(f"event {bad.version} ({bad.type}) fails: {bad.reason}")


@match.command("replay")
@match_id_argument
@reports_errors
def replay(match_id: str) -> None:
    """Replays the match from its first event, movement by movement, and checks the store."""
    report = matches().replay(match_id)
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


@match.command("resolve")
@match_id_argument
@movement_option
@click.option("--now", help="resolve as of this ISO 8601 instant (default: the clock)")
@reports_errors
def resolve(match_id: str, movement: int | None, now: str | None) -> None:
    """Resolves a movement of one match if it is due (idempotent)."""
    app = matches()
    number = movement or app.get_match(match_id).movement
    echo_closing(app.resolve(match_id, number, instant(now)))


@match.command("resolve-due")
@click.option("--now", help="resolve as of this ISO 8601 instant (default: the clock)")
@click.option(
    "--every",
    type=click.FloatRange(min=0.1),
    default=None,
    help="keep going: resolve again every this many seconds (Ctrl-C stops)",
)
@click.option(
    "--times",
    type=click.IntRange(min=1),
    default=None,
    hidden=True,
    help="with --every: stop after this many rounds (tests)",
)
@reports_errors
def resolve_due(now: str | None, every: float | None, times: int | None) -> None:
    """Resolves every movement whose deadline has passed (by hand, from cron, or --every N)."""
    rounds = 0
    while True:
        closings = matches().resolve_due(instant(now))
        for closing in closings:
            click.echo(f"match {closing.match_id}:")
            echo_closing(closing)
        click.echo(f"{len(closings)} movement(s) handled")
        rounds += 1
        if every is None or rounds == times:
            return
        time.sleep(every)


@match.command("list")
@reports_errors
def list_matches() -> None:
    """Lists the matches in the store with their status and open movement."""
    app = matches()
    for match_id in app.match_ids():
        summary = app.summary(match_id)
        click.echo(
            f"{match_id} {summary['ruleset']} {summary['status']} "
            f"movement {summary['movement']} deadline {summary['deadline']}"
        )


@match.command("seed")
@match_id_argument
@referee_token_option
@reports_errors
def seed(match_id: str, referee_token: str) -> None:
    """Prints the match seed to the referee before it is revealed (the look is recorded)."""
    click.echo(matches().referee_seed(match_id, referee_token))
