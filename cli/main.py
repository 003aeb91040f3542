"""The `drts` command line: rulesets, scenarios, a demonstration match, perft, and the groups
of the other modules (matches, the database, the service's processes).

Each command parses its arguments, calls one service function and prints. The
CLI is an edge like api/ and workers/: it imports service/ and domain/ only
(docs/architecture.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from cli.archive import register as register_archive_commands
from cli.audit import register as register_audit_commands
from cli.bots.command import register as register_bot_commands
from cli.corrections import register as register_correction_commands
from cli.db import register as register_db_commands
from cli.disputes import register as register_dispute_commands
from cli.forum import register as register_forum_commands
from cli.legal import register as register_legal_command
from cli.mail import register as register_mail_commands
from cli.maps import register as register_map_commands
from cli.match import match
from cli.movements import register as register_movement_commands
from cli.perft import perft
from cli.player import player
from cli.protocol import register as register_protocol_command
from cli.run import api, beat, run, worker
from cli.status import status
from cli.tournament import tournament
from domain.errors import DrtsError
from domain.rules.contract import ConfigKind
from domain.rules.registry import get_ruleset, ruleset_names, ruleset_versions
from service.scenarios.demo import play_demo
from service.scenarios.driver import matches_driver
from service.scenarios.runner import ScenarioError, run_scenario


@click.group()
def main() -> None:
    """drts: a match service for discrete strategy games."""


@main.command("rulesets")
def list_rulesets() -> None:
    """Lists the registered rulesets: versions, seats, typed config options and presets."""
    for name in ruleset_names():
        info = get_ruleset(name).info
        seats = (
            f"{info.min_seats}"
            if info.min_seats == info.max_seats
            else (f"{info.min_seats}-{info.max_seats}")
        )
        versions = ", ".join(f"v{v}" for v in ruleset_versions(name))
        click.echo(f"{name} v{info.version}: {info.title} ({seats} seats, {info.dynamics})")
        click.echo(f"    versions installed: {versions} (new matches get v{info.version})")
        for option in info.config_fields:
            click.echo(f"    {option.name} = {option.default!r}: {option.allowed()}")
            if option.kind is not ConfigKind.DATA:
                click.echo(f"        {option.description}")
        for preset in info.presets:
            click.echo(f"    preset {preset.name}: {preset.description}")
            click.echo(f"        {json.dumps(preset.values, sort_keys=True)}")


@main.group()
def scenario() -> None:
    """Scenario files (docs/scenarios.md)."""


@scenario.command("run")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def scenario_run(files: tuple[Path, ...]) -> None:
    """Plays scenario FILES, prints a diff for each mismatch; exits 1 if any fails."""
    failed = 0
    for path in files:
        try:
            report = run_scenario(path, matches_driver())
        except ScenarioError as error:
            click.echo(f"ERROR {error}")
            failed += 1
            continue
        click.echo(f"{'ok  ' if report.passed else 'FAIL'} {path}: {report.description}")
        for line in report.mismatches:
            click.echo(f"       {line}")
        failed += not report.passed
    click.echo(f"{len(files) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


@main.command("demo")
@click.option("--ruleset", default="district_war", show_default=True)
@click.option("--seed", default="demo", show_default=True, help="the match seed")
def demo(ruleset: str, seed: str) -> None:
    """Plays a demonstration match with random legal orders and prints every step."""
    try:
        for line in play_demo(get_ruleset(ruleset), seed):
            click.echo(line)
    except DrtsError as error:
        raise click.ClickException(str(error)) from None


register_audit_commands(match)
register_archive_commands(match)
register_correction_commands(match)
register_protocol_command(match)
register_legal_command(match)
register_movement_commands(match)
register_dispute_commands(match)
main.add_command(match)
main.add_command(perft)
main.add_command(api)
main.add_command(run)
main.add_command(worker)
main.add_command(beat)
main.add_command(status)
main.add_command(player)
main.add_command(tournament)
register_db_commands(main)
register_map_commands(main)
register_mail_commands(main, match)
register_forum_commands(main, match)
register_bot_commands(main)

if __name__ == "__main__":
    main()
