"""`drts maps`: the maps a game's matches may name (Shades, SH-2), and one map's squares."""

from __future__ import annotations

import click

from domain.errors import DrtsError
from domain.rules.registry import get_ruleset
from service.maps import catalogue, find_map


@click.command("maps")
@click.argument("name", required=False)
@click.option("--ruleset", default="shades", show_default=True, help="the game whose maps")
def maps(name: str | None, ruleset: str) -> None:
    """Lists the maps a match may name in its config ("map": NAME), or shows map NAME."""
    try:
        if name is None:
            _list(ruleset)
        else:
            _show(ruleset, name)
    except DrtsError as error:
        raise click.ClickException(str(error)) from None


def _list(ruleset: str) -> None:
    found = catalogue(ruleset)
    if not found:
        click.echo(f"{ruleset} has no maps")
        return
    for info in found:
        shown = info.summary(ruleset)
        click.echo(
            f"{shown['name']}: {shown['width']}x{shown['height']}, {shown['tombs']} tombs, "
            f"{shown['water']} water squares, 2 to {shown['max_seats']} seats"
        )
        click.echo(f"    {shown['description']}")


def _show(ruleset: str, name: str) -> None:
    rows = get_ruleset(ruleset).validate_config({"map": find_map(ruleset, name).content})["map"]
    click.echo(f"{name} ({len(rows[0])}x{len(rows)}): . ground, ~ water, T tomb")
    for row in rows:
        click.echo("    " + row)


def register(main: click.Group) -> None:
    """Adds `drts maps` to the drts command line."""
    main.add_command(maps)
