"""`drts match export|import`: a match as one archive file, and loading one into this
store after verifying it (docs/archive.md; the API serves the same archive at
GET /matches/{id}/archive).
"""

from __future__ import annotations

import json
from typing import IO, Any

import click

from cli.match import echo_json, match_id_argument, timeline_option
from cli.store import matches, reports_errors
from service import limits


@click.command("export")
@match_id_argument
@click.option(
    "--referee-token",
    envvar="DRTS_REFEREE_TOKEN",
    default=None,
    help="an unfinished match's referee token (or the operator's): the full form, recorded",
)
@timeline_option
@reports_errors
def export(match_id: str, referee_token: str | None, timeline: int | None) -> None:
    """Prints the match's archive (docs/archive.md): `drts match export M > FILE`.

    A finished match is exported to anyone, in the public form; an unfinished one
    only with its referee token, in the full form with the sealed values (the look is
    recorded as a SecretViewed event, which the archive holds).
    """
    echo_json(matches().export_archive(match_id, referee_token, timeline))


@click.command("import")
@click.argument("archive", type=click.File("r", encoding="utf-8"))
@reports_errors
def import_(archive: IO[str]) -> None:
    """Imports a match archive FILE (`-`: standard input) after verifying it; the match is
    read-only here. A tampered archive is refused naming the event; a match already here
    is refused unless its events are the same (then nothing is done)."""
    try:
        text = archive.read()
        if limits.nesting_depth(text) > limits.PARSE_DEPTH:  # before json.loads recurses
            raise ValueError(f"it nests deeper than {limits.PARSE_DEPTH} levels")
        document = json.loads(text, parse_constant=_not_json)
    except ValueError as error:
        raise click.ClickException(f"{archive.name} is not JSON: {error}") from None
    done = matches().import_archive(document)
    head = f"head {done.head['version']}:{done.head['chain']}"
    if done.stored:
        click.echo(
            f"imported match {done.match_id} ({done.ruleset} v{done.ruleset_version}, "
            f"{done.form} form): {done.events} events, {head}; read-only here"
        )
    else:
        click.echo(
            f"match {done.match_id} is already here with the same {done.events} events "
            f"({head}): nothing imported"
        )


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def register(group: click.Group) -> None:
    """Adds export and import to `drts match`."""
    for command in (export, import_):
        group.add_command(command)
