"""`drts player ...`: player identities and their ratings (issue 45).

`create NAME` prints the player's id and its key (shown only once); `show ID|NAME`
prints its name (never its address) and its ratings per ruleset version
with each rated match's effect; `reissue` gives a new key (the operator token); `address`
and `confirm-address` set and confirm its e-mail address (its key).
"""

from __future__ import annotations

import click

from cli.store import matches, reports_errors


@click.group("player")
def player() -> None:
    """Player identities: create, show, reissue a key."""


@player.command("create")
@click.argument("name")
@reports_errors
def create(name: str) -> None:
    """Creates player NAME; prints its id and its key (shown only this once; the key last)."""
    new = matches().players.create(name)
    click.echo(f"player {new.player_id} {new.name}")
    click.echo(f"key {new.key}")


@player.command("show")
@click.argument("player_ref", metavar="ID|NAME")
@reports_errors
def show(player_ref: str) -> None:
    """Shows a player: name, ratings per ruleset version with history."""
    players = matches().players
    found = players.show(player_ref)
    click.echo(f"player {found.player_id} {found.name}")
    rated = players.ratings_of(found.player_id).ratings
    if not rated:
        click.echo("ratings (no rated match yet)")
    for table, rating in rated:
        click.echo(
            f"rating {table.ruleset} v{table.version}: mu {rating.mu} sigma {rating.sigma} "
            f"ordinal {rating.ordinal} ({len(rating.history)} matches)"
        )
        for change in rating.history:
            click.echo(
                f"  match {change.match_id}: mu {change.mu_before} -> {change.mu_after}, "
                f"sigma {change.sigma_before} -> {change.sigma_after}"
            )


@player.command("reissue")
@click.argument("player_ref", metavar="ID|NAME")
@click.option("--operator-token", envvar="DRTS_OPERATOR_TOKEN", required=True)
@click.option("--reason", default=None, help="why (recorded)")
@reports_errors
def reissue(player_ref: str, operator_token: str, reason: str | None) -> None:
    """Gives the player a new key (operator token); prints it once. The old key stops."""
    key = matches().players.reissue(operator_token, player_ref, reason)
    click.echo(f"key {key}")


player_key_option = click.option(
    "--key", envvar="DRTS_PLAYER_KEY", required=True, help="the player's key (from create)"
)


@player.command("address")
@click.argument("player_ref", metavar="ID|NAME")
@click.argument("address")
@player_key_option
@reports_errors
def address(player_ref: str, address: str, key: str) -> None:
    """Sets the player's e-mail address (its key) and mails it a confirmation code."""
    kept = matches().players.set_address(player_ref, key, address)
    click.echo(f"address {kept} (unconfirmed: a confirmation code was mailed to it)")


@player.command("confirm-address")
@click.argument("player_ref", metavar="ID|NAME")
@click.argument("code")
@player_key_option
@reports_errors
def confirm_address(player_ref: str, code: str, key: str) -> None:
    """Confirms the player's e-mail address with the code mailed to it."""
    kept = matches().players.confirm_address(player_ref, key, code)
    click.echo(f"address {kept} confirmed")
