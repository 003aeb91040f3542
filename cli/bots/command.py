"""`drts bots run`: Shades matches of bot programs, played through the service on its store.

The progress display (rich) shows the turn, the seats alive and their scores
while a match runs, on a terminal; elsewhere (a pipe, a test, `--plain`) the
command prints plain lines. At the end it prints the scores, the match id,
how to replay and audit the match, and where each seat's log is; a series
(`--matches N`) ends with a table of wins and mean scores per program.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.live import Live
from rich.table import Table

from cli.bots.confine import probe
from cli.bots.process import Limits
from cli.bots.runner import MatchPlan, MatchResult, Program, play_match
from cli.bots.series import play_series, series_plans, tally
from cli.store import matches, reports_errors


@click.group("bots")
def bots() -> None:
    """Bot programs playing Shades over the contest's protocol (docs/games/shades.md)."""


@bots.command("run")
@click.argument("programs", nargs=-1, required=True)
@click.option(
    "--map",
    "maps",
    multiple=True,
    required=True,
    help="a map name (repeat: a series takes them in turn)",
)
@click.option(
    "--seed", type=int, help="the match's seed (a series counts up from it); random if unset"
)
@click.option(
    "--turn-timeout",
    type=click.IntRange(1, 3600),
    default=5,
    show_default=True,
    help="seconds a turn lasts (SH-10)",
)
@click.option(
    "--preset",
    type=click.Choice(["contest"]),
    help=(
        "the contest server's options (razing one, normalised scoring, the sequential "
        "elimination bonus, a contested human to the first shade found)"
    ),
)
@click.option("--config", "config_text", help="more config as JSON, e.g. '{\"turns\": 50}'")
@click.option(
    "--matches",
    "count",
    type=click.IntRange(1, 10000),
    default=1,
    show_default=True,
    help="a series of N matches, seats rotated",
)
@click.option(
    "--cpu-seconds",
    type=click.IntRange(1),
    default=Limits.cpu_seconds,
    show_default=True,
    help="CPU time per bot over a match",
)
@click.option(
    "--memory-mb",
    type=click.IntRange(16),
    default=Limits.memory_bytes >> 20,
    show_default=True,
    help="address space per bot",
)
@click.option(
    "--open-files",
    type=click.IntRange(8),
    default=Limits.open_files,
    show_default=True,
    help="open files per bot",
)
@click.option(
    "--max-processes",
    type=click.IntRange(1),
    default=Limits.max_processes,
    show_default=True,
    help="processes per bot, itself included (threads too, where a cgroup holds the cap)",
)
@click.option(
    "--cgroups/--no-cgroups",
    default=True,
    show_default=True,
    help="a cgroup per seat where the machine allows it; off: the subreaper alone",
)
@click.option(
    "--log-bytes",
    type=click.IntRange(0),
    default=Limits.log_bytes,
    show_default=True,
    help="stderr kept per seat",
)
@click.option(
    "--log-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("bot-logs"),
    show_default=True,
    help="where the seats' logs go",
)
@click.option(
    "--plain",
    is_flag=True,
    help="plain lines instead of the live display (the default off a terminal)",
)
@reports_errors
def run(
    programs: tuple[str, ...],
    maps: tuple[str, ...],
    seed: int | None,
    turn_timeout: int,
    preset: str | None,
    config_text: str | None,
    count: int,
    cpu_seconds: int,
    memory_mb: int,
    open_files: int,
    max_processes: int,
    cgroups: bool,
    log_bytes: int,
    log_dir: Path,
    plain: bool,
) -> None:
    """Plays Shades matches of PROGRAMS (one seat each, in order; a program with arguments
    is one quoted argument: 'python3 examples/bots/greedy_bot.py')."""
    if not 2 <= len(programs) <= 8:
        raise click.UsageError(f"Shades seats 2 to 8 programs, got {len(programs)}")
    try:
        config = json.loads(config_text) if config_text else {}
    except ValueError as error:
        raise click.UsageError(f"--config is not JSON: {error}") from None
    if not isinstance(config, dict):
        raise click.UsageError("--config must be a JSON object")
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise click.UsageError(f"--log-dir {log_dir}: {error.strerror or error}") from None
    limits = Limits(
        cpu_seconds,
        memory_mb << 20,
        open_files,
        Limits.reply_bytes,
        log_bytes,
        max_processes,
        cgroups,
    )
    click.echo(probe(cgroups).describe(max_processes), err=True)
    plan = MatchPlan(
        tuple(Program(p) for p in programs),
        maps[0],
        None,
        turn_timeout,
        preset,
        config,
        limits,
        log_dir,
    )
    plans = series_plans(plan, maps, count, seed)
    app, live = matches(), not plain and sys.stdout.isatty()
    results = play_series(plans, lambda p: _play_one(app, p, live))
    if count > 1:
        _print_tally(plan.programs, results)


def _play_one(app: Any, plan: MatchPlan, live: bool) -> MatchResult:
    if not live:
        result = play_match(app, plan, PlainWatcher(plan))
    else:
        console = Console()
        watcher = LiveWatcher(plan)
        with Live(watcher.table(), console=console, auto_refresh=False) as display:
            watcher.display = display
            result = play_match(app, plan, watcher)
    _print_result(result)
    return result


def _print_result(result: MatchResult) -> None:
    outcome: Any = result.outcome
    click.echo(f"match {result.match_id}: {outcome.get('reason', '')} after {result.turns} turns")
    for seat in result.seats:
        line = f"  seat {seat.seat} {seat.program.command}: score {result.score(seat.seat):g}"
        if seat.out is not None:
            line += f" (bot out in turn {seat.out_turn}: {seat.out})"
        click.echo(line)
    click.echo(f"  referee token {result.referee_token}")
    click.echo(f"  replay: drts match replay {result.match_id}")
    click.echo(f"  audit: drts match verify {result.match_id}; drts match events {result.match_id}")
    click.echo(f"  logs: {result.seats[0].log.parent}/{result.match_id}-seat*.log")


def _print_tally(programs: Sequence[Program], results: Sequence[MatchResult]) -> None:
    click.echo(f"{len(results)} matches:")
    click.echo(f"  {'program':40} {'matches':>7} {'wins':>5} {'draws':>5} {'mean score':>10}")
    for record in tally(programs, results):
        click.echo(
            f"  {record.program.name[:40]:40} {record.matches:>7} {record.wins:>5} "
            f"{record.draws:>5} {record.mean_score:>10.2f}"
        )


class PlainWatcher:
    """Prints a line every 50 turns and one for each bot put out."""

    def __init__(self, plan: MatchPlan) -> None:
        self.plan = plan

    def turn(self, turn: int, alive: Sequence[int], scores: Mapping[str, Any]) -> None:
        """Prints the turn, the seats alive and their scores, every 50 turns."""
        if turn % 50 == 0:
            shown = ", ".join(f"{seat}: {scores.get(str(seat), 0)}" for seat in alive)
            click.echo(f"turn {turn}: seats alive {shown}")

    def out(self, seat: int, reason: str) -> None:
        """Prints why a seat's bot was put out."""
        click.echo(f"seat {seat}'s bot is out: {reason}")


class LiveWatcher:
    """A rich table, redrawn each turn: each seat's program, whether it is alive, its score."""

    def __init__(self, plan: MatchPlan) -> None:
        self.plan = plan
        self.display: Live | None = None
        self.turn_number = 0
        self.alive: list[int] = []
        self.scores: dict[str, Any] = {}
        self.outs: dict[int, str] = {}

    def table(self) -> Table:
        """Returns the table as it stands."""
        table = Table(title=f"Shades on {self.plan.map}, turn {self.turn_number}")
        for column in ("seat", "program", "alive", "score"):
            table.add_column(column)
        for seat, program in enumerate(self.plan.programs, 1):
            alive = "yes" if seat in self.alive else "no"
            if seat in self.outs:
                alive = f"out: {self.outs[seat]}"
            table.add_row(str(seat), program.command, alive, str(self.scores.get(str(seat), "")))
        return table

    def turn(self, turn: int, alive: Sequence[int], scores: Mapping[str, Any]) -> None:
        """Redraws the table for a new turn."""
        self.turn_number, self.alive, self.scores = turn, list(alive), dict(scores)
        self._redraw()

    def out(self, seat: int, reason: str) -> None:
        """Redraws the table with a bot put out."""
        self.outs[seat] = reason
        self._redraw()

    def _redraw(self) -> None:
        if self.display is not None:
            self.display.update(self.table(), refresh=True)


def register(main: click.Group) -> None:
    """Adds `drts bots` to the main group."""
    main.add_command(bots)
