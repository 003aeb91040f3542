"""`drts match legal-orders`: what a seat may order now, as GET /matches/{id}/legal-orders
serves it (service/queries/legal.py, docs/api.md)."""

from __future__ import annotations

import click

from cli.match import echo_json, match_id_argument
from cli.store import matches, reports_errors


@click.command("legal-orders")
@match_id_argument
@click.option(
    "--token", envvar="DRTS_TOKEN", required=True, help="the seat's token (or the referee's)"
)
@click.option("--seat", type=int, help="the seat (default: the token's; the referee names one)")
@reports_errors
def legal_orders(match_id: str, token: str, seat: int | None) -> None:
    """Prints what a seat may order now: the game's whole orders, or each piece's commands
    and the rule combining them; for a seat owing nothing, why."""
    echo_json(matches().legal_orders(match_id, token, seat))


def register(match: click.Group) -> None:
    """Adds `drts match legal-orders` to the match commands."""
    match.add_command(legal_orders)
