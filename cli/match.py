"""`drts match ...`: play a whole match from the command line, without HTTP.

Everything a token holder can do over HTTP is here too: the referee (or the
operator) starts, extends a deadline, reissues a lost seat token and reads
open orders; a seat orders and sees its own. The audit commands (events,
verify, replay, seed) are in cli/audit.py; a past movement and receipt checks in
cli/movements.py. Each command opens the Matches
application on the configured store (DRTS_DATABASE_URL; an SQLite file
./drts.sqlite by default), calls one use case and prints. Tokens can also come from the environment
(DRTS_REFEREE_TOKEN, DRTS_SEAT_TOKEN). `resolve-due` resolves whatever is due,
so a clock can be driven by hand or by cron before the workers exist.
"""

from __future__ import annotations

import json
import time
import unicodedata
from datetime import UTC, datetime
from pathlib import Path

import click

from cli.store import matches, reports_errors
from domain.rules.contract import JSON
from service import limits
from service.results import Closing

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
viewer_token_option = click.option(
    "--token", envvar="DRTS_TOKEN", help="a seat or referee token (more to see)"
)
movement_option = click.option(
    "--movement", type=int, default=None, help="a movement number (default: the open one)"
)
timeline_option = click.option(
    "--timeline",
    type=click.IntRange(min=1),
    default=None,
    help="an earlier timeline of a corrected match (1: the original); default the current",
)


def echo_json(value: JSON) -> None:
    """Prints VALUE as indented JSON, its strings terminal-safe (see `printable`)."""
    click.echo(printable(json.dumps(value, indent=2, ensure_ascii=False), keep="\n"))


def printable(text: str, keep: str = "") -> str:
    """Returns TEXT with every control or format character (C0, DEL, C1, bidi overrides)
    written as a `\\uXXXX` escape, but those in KEEP: a text someone else wrote (a
    dispute, a player's name) can then never drive the reader's terminal (an ESC sequence)
    or reorder what it shows."""
    plain = text
    for char in keep:
        plain = plain.replace(char, "")
    if plain.isprintable():  # no Cc or Cf character at all: nothing to escape (the usual)
        return text
    return "".join(
        char if char in keep or unicodedata.category(char) not in ("Cc", "Cf") else _escaped(char)
        for char in text
    )


def _escaped(char: str) -> str:
    """Returns CHAR as JSON writes an escape: `\\uXXXX`, a surrogate pair beyond U+FFFF
    (a tag character), so that escaped JSON still decodes to the same text."""
    units = char.encode("utf-16-be")
    return "".join(f"\\u{int.from_bytes(units[i : i + 2]):04x}" for i in range(0, len(units), 2))


def json_value(text: str | None) -> JSON:
    """Returns JSON given inline or as @file."""
    if text is None:
        return None
    source = Path(text[1:]).read_text(encoding="utf-8") if text.startswith("@") else text
    try:
        return limits.parse_json(source, "json")
    except limits.LimitError as error:
        raise click.BadParameter(f"refused: {error}") from None
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
@click.option("--preset", help="a preset of the ruleset (drts rulesets); --config on top")
@click.option("--ruleset-version", type=int, help="an installed version (default: the latest)")
@click.option("--rated", is_flag=True, help="its result counts for its players' ratings")
@reports_errors
def create(
    ruleset: str,
    config: str | None,
    seats: int | None,
    seed: str | None,
    idempotency_key: str | None,
    deadline_seconds: int | None,
    preset: str | None,
    ruleset_version: int | None,
    rated: bool,
) -> None:
    """Creates a match; prints its id and the referee token (shown only once)."""
    new = matches().create_match(
        ruleset,
        json_value(config) or {},
        seats,
        idempotency_key,
        seed,
        deadline_seconds,
        preset=preset,
        version=ruleset_version,
        rated=rated,
    )
    click.echo(f"match {new.match_id}")
    if new.referee_token:
        click.echo(f"referee token {new.referee_token}")
    else:
        click.echo("(already created with this idempotency key; its referee token was shown then)")


@match.command("join")
@match_id_argument
@click.argument("name")
@click.option("--result-address", help="where answers to orders by mail go (mailed a code first)")
@click.option("--player", "player_ref", help="the player (id or name) the seat is (issue 45)")
@click.option("--player-key", envvar="DRTS_PLAYER_KEY", help="the player's key")
@reports_errors
def join(
    match_id: str,
    name: str,
    result_address: str | None,
    player_ref: str | None,
    player_key: str | None,
) -> None:
    """Joins a match as player NAME; prints the seat's order address and its token (shown
    only once; the token last). With --player, the seat names that player (its key)."""
    seat = matches().join(match_id, name, result_address, player_ref, player_key)
    click.echo(f"order address {seat.order_address}")
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
        f"started: movement {summary.movement}, to move {summary.to_move}, "
        f"deadline {summary.deadline}"
    )


@match.command("extend")
@match_id_argument
@referee_token_option
@click.option("--seconds", type=float, default=None, help="seconds to add to the deadline")
@click.option("--until", default=None, help="the new deadline, an ISO 8601 instant")
@click.option(
    "--movement", type=int, default=None, help="the open movement's number (refused if not it)"
)
@click.option("--reason", default=None, help="why the referee extends it (recorded)")
@reports_errors
def extend(
    match_id: str,
    referee_token: str,
    seconds: float | None,
    until: str | None,
    movement: int | None,
    reason: str | None,
) -> None:
    """Moves the open movement's deadline later (referee): --seconds N or --until INSTANT."""
    deadline = matches().extend_deadline(
        match_id, referee_token, seconds, instant(until), movement, reason
    )
    click.echo(f"deadline {deadline.isoformat()}")


@match.command("retry")
@match_id_argument
@referee_token_option
@reports_errors
def retry(match_id: str, referee_token: str) -> None:
    """Lifts the quarantine of a match whose resolution kept failing (referee or operator);
    the sweep then tries its movement again."""
    movement = matches().retry(match_id, referee_token)
    click.echo(f"quarantine lifted: movement {movement} will be tried again")


@match.command("reissue")
@match_id_argument
@click.argument("seat", type=int)
@referee_token_option
@click.option("--reason", default=None, help="why the referee reissues it (recorded)")
@reports_errors
def reissue(match_id: str, seat: int, referee_token: str, reason: str | None) -> None:
    """Gives SEAT a new token (referee); prints it (shown only once); the old one stops."""
    new = matches().reissue_seat_token(match_id, referee_token, seat, reason)
    click.echo(f"order address {new.order_address}")
    click.echo(f"seat {new.seat} token {new.token}")


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
    _take_action(match_id, referee_token, name, arguments, reason)


def _take_action(match_id: str, referee_token: str, name: str, args: JSON, reason: str) -> None:
    """Takes a referee action and prints what it recorded and its steps."""
    assert isinstance(args, dict)
    taken = matches().act(match_id, referee_token, name, args, reason)
    click.echo(
        f"referee action {taken.action} in movement {taken.movement} (event {taken.version})"
    )
    for step in taken.steps:
        click.echo(f"    [{step.rule}] {step.text}")


@match.command("forfeit")
@match_id_argument
@click.argument("seat", type=int)
@referee_token_option
@click.option("--reason", required=True, help="why the referee forfeits the seat (recorded)")
@reports_errors
def forfeit(match_id: str, seat: int, referee_token: str, reason: str) -> None:
    """Forfeits SEAT (referee): the game's forfeit applies; the match may end, or the
    movement close if every seat still owing has ordered (as `action forfeit`)."""
    _take_action(match_id, referee_token, "forfeit", {"seat": seat}, reason)


@match.command("pause")
@match_id_argument
@referee_token_option
@click.option("--reason", required=True, help="why the referee stops the clock (recorded)")
@reports_errors
def pause(match_id: str, referee_token: str, reason: str) -> None:
    """Stops the match's clock (referee): no deadline passes until resume; orders are
    still taken."""
    _take_action(match_id, referee_token, "pause", {}, reason)


@match.command("resume")
@match_id_argument
@referee_token_option
@click.option("--reason", required=True, help="why the referee starts the clock (recorded)")
@reports_errors
def resume(match_id: str, referee_token: str, reason: str) -> None:
    """Starts the match's clock again (referee): the deadline moves later by the pause."""
    _take_action(match_id, referee_token, "resume", {}, reason)


@match.command("order")
@match_id_argument
@click.argument("order")
@seat_token_option
@movement_option
@click.option("--source", default="cli", show_default=True, help="api, bot, email, forum, cli")
@click.option("--message-id", help="the message id of a mailed or posted order")
@click.option(
    "--receipt-file",
    type=click.Path(dir_okay=False, writable=True),
    help="also save the receipt as JSON (what POST /orders answers), for drts match verify "
    "--receipt",
)
@reports_errors
def order(
    match_id: str,
    order: str,
    token: str,
    movement: int | None,
    source: str,
    message_id: str | None,
    receipt_file: str | None,
) -> None:
    """Sends ORDER (the game's order text, or its JSON form) for the seat holding the token;
    prints the receipt (with the log's head after the write: keep it, docs/integrity.md),
    and each part of the message refused while the others stand."""
    received_at = datetime.now(UTC)  # the order's received time: the command's start
    parsed = json_value(order) if order.lstrip().startswith("{") else order
    receipt = matches().submit_order(
        match_id, token, parsed, source, message_id, movement, received_at=received_at
    )
    click.echo(
        f"order of seat {receipt.seat} for movement {receipt.movement} received at "
        f"{receipt.received_at.isoformat()}; receipt digest {receipt.digest}"
    )
    if receipt.head is not None:
        click.echo(
            f"stored as event {receipt.version}; log head {receipt.head.version}:"
            f"{receipt.head.chain} (drts match verify --head)"
        )
    if receipt_file:
        with open(receipt_file, "w", encoding="utf-8") as file:
            json.dump(receipt.to_json(), file, indent=2, ensure_ascii=False)
            file.write("\n")
    for part in receipt.refused:  # a part of the message refused; the others stand
        click.echo(f"    refused {part.part!r}: {part.reason}")
    if receipt.closing is not None:
        echo_closing(receipt.closing)


@match.command("show")
@match_id_argument
@reports_errors
def show(match_id: str) -> None:
    """Prints the match summary: ruleset, seats, status, open movement, deadline, outcome."""
    echo_json(matches().summary(match_id).to_json())


@match.command("state")
@match_id_argument
@movement_option
@click.option(
    "--phase",
    type=click.IntRange(min=0),
    help="with --movement: the state after this phase of its resolution (0: before it)",
)
@click.option("--step", type=int, hidden=True, help="removed: use --phase")
@viewer_token_option
@click.option("--seat", type=int, help="this seat's view (its own token or the referee's)")
@timeline_option
@reports_errors
def state(
    match_id: str,
    movement: int | None,
    phase: int | None,
    step: int | None,
    token: str | None,
    seat: int | None,
    timeline: int | None,
) -> None:
    """Prints the state when a movement was open (now by default), or after a phase of a
    resolved movement's resolution, run again from the log (--movement N --phase K); of an
    earlier timeline of a corrected match with --timeline (now: where it ended).

    \b
    K=0 is the state the resolution started from; K=1..n the state after each phase:
      district_war  1: the choice (DW-2) or the placement (DW-3), with the end of the match
      drts_team23   1: every operation at once (DRTS-5); 2..11: steps 0..9 of the text
                    (step 1 teams, step 6 battles and points; the item steps change
                    nothing in v1); 12: the end of the movement (DRTS-20)
      shades        1: moves (SH-1, SH-4); 2: collisions; 3: attack; 4: razing (SH-5);
                    5: spawning; 6: conversion; 7: births (SH-8); 8: elimination
                    (SH-6, SH-7); 9: the end of the turn (SH-9)
    A deadline that forfeits seats adds a phase per forfeit first. The answer's
    `phases` lists the names (docs/api.md, "Phases of a resolution").
    """
    if step is not None:
        raise click.UsageError(
            "--step was removed (it showed the state the movement started from, whatever "
            "its value): use --phase K, the state after phase K of the resolution"
        )
    echo_json(matches().state(match_id, movement, phase, token, seat, timeline).to_json())


@match.command("display")
@match_id_argument
@click.option(
    "--movement", type=int, default=None, help="the position after this movement (default: now)"
)
@timeline_option
@reports_errors
def display(match_id: str, movement: int | None, timeline: int | None) -> None:
    """Prints the Public Display: the position as plain text, for mail and forum posts (of
    an earlier timeline of a corrected match with --timeline)."""
    click.echo(matches().display(match_id, movement, timeline), nl=False)


@match.command("scores")
@match_id_argument
@movement_option
@timeline_option
@reports_errors
def scores(match_id: str, movement: int | None, timeline: int | None) -> None:
    """Prints scores, ranking and result, now or when a movement was open (of an earlier
    timeline of a corrected match with --timeline)."""
    echo_json(matches().scores(match_id, movement, timeline).to_json())


@match.command("scoreboard")
@match_id_argument
@click.option("--json", "as_json", is_flag=True, help="as GET /matches/{id}/scoreboard gives it")
@reports_errors
def scoreboard(match_id: str, as_json: bool) -> None:
    """Prints each seat's score after every resolved movement (and each team's, where the
    game has teams) with the movement's ranking, as a table (from the read models)."""
    board = matches().scoreboard(match_id)
    if as_json:
        echo_json(board.to_json())
        return
    click.echo(f"match {board.match_id} ({board.ruleset}, {board.status})")
    if board.left_out:
        click.echo("left out of the scoreboards read model: rebuild it (docs/operations.md)")
    for line in scoreboard_table(board.seats, board.movements):
        click.echo(line)


def scoreboard_table(seats: list[dict[str, JSON]], movements: list[dict[str, JSON]]) -> list[str]:
    """Returns the scoreboard's lines: a header, then a row per movement (scores of each
    seat, then of each team, then the ranking), columns aligned."""
    teams = sorted({str(t["team"]) for m in movements for t in m["teams"]})
    header = ["movement", *(f"{s['seat']} {s['name']}" for s in seats), *teams, "ranking"]
    rows = [header] + [scoreboard_row(m, seats, teams) for m in movements]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
    return lines if movements else [*lines, "(no movement resolved yet)"]


def scoreboard_row(
    movement: dict[str, JSON], seats: list[dict[str, JSON]], teams: list[str]
) -> list[str]:
    """Returns one movement's cells: its number, each seat's and team's score, the ranking."""
    by_seat = {s["seat"]: s for s in movement["seats"]}
    by_team = {t["team"]: t["score"] for t in movement["teams"]}
    ranked = sorted(by_seat.values(), key=lambda s: (s["rank"], s["seat"]))
    return [
        str(movement["movement"]),
        *(str(by_seat[s["seat"]]["score"]) if s["seat"] in by_seat else "-" for s in seats),
        *(str(by_team.get(team, "-")) for team in teams),
        " ".join(str(s["seat"]) for s in ranked),
    ]


@match.command("pending")
@match_id_argument
@click.option(
    "--token",
    envvar="DRTS_SEAT_TOKEN",
    default=None,
    help="a seat token (its own orders) or the referee's (every seat's; the look is "
    "recorded); none needed where the game's orders are public (B-Chess)",
)
@reports_errors
def pending(match_id: str, token: str | None) -> None:
    """Prints the open movement's orders: a seat's own, or every seat's to the referee; every
    seat's to anyone in a game whose orders are public (B-Chess)."""
    echo_json(matches().pending_orders(match_id, token))


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
    """Resolves every movement whose deadline has passed (by hand, from cron, or --every N),
    then creates any rematch a drawn match lacks (as the sweep does after a crash)."""
    rounds = 0
    while True:
        closings = matches().resolve_due(instant(now))
        for closing in closings:
            click.echo(f"match {closing.match_id}:")
            echo_closing(closing)
        click.echo(f"{len(closings)} movement(s) handled")
        for rematch_id in matches().create_missing_rematches():
            click.echo(f"rematch {rematch_id} created for a drawn match that lacked it")
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
            f"{match_id} {summary.ruleset} {summary.status} "
            f"movement {summary.movement} deadline {summary.deadline}"
        )
