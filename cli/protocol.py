"""`drts match protocol`: a seat's message in its game's bot protocol, as GET
/matches/{id}/protocol serves it (Shades: the contest's messages, SH-11)."""

from __future__ import annotations

import click

from cli.match import echo_json, match_id_argument
from cli.store import matches, reports_errors
from service.channels.protocol import Message, protocol_message


@click.command("protocol")
@match_id_argument
@click.option(
    "--token", envvar="DRTS_TOKEN", required=True, help="the seat's token (or the referee's)"
)
@click.option("--seat", type=int, help="the seat (default: the token's; the referee names one)")
@click.option(
    "--message",
    type=click.Choice([m.value for m in Message]),
    default=Message.TURN.value,
    show_default=True,
    help="turn: the open turn's state message; init: the start",
)
@reports_errors
def protocol(match_id: str, token: str, seat: int | None, message: str) -> None:
    """Prints a seat's bot protocol message, built from the match now."""
    echo_json(protocol_message(matches(), match_id, token, seat, Message(message)))


def register(match: click.Group) -> None:
    """Adds `drts match protocol` to the match commands."""
    match.add_command(protocol)
