"""`drts match correct|corrections`: the referee re-resolves a past movement with changed
orders, and anyone lists a match's corrections (docs/referee.md, Correcting a movement;
the API's POST and GET /matches/{id}/corrections)."""

from __future__ import annotations

import click

from cli.match import echo_json, json_value, match_id_argument, referee_token_option
from cli.store import matches, reports_errors
from domain.rules.contract import JSON


@click.command("correct")
@match_id_argument
@click.argument("movement", type=click.IntRange(min=1))
@click.option(
    "--order",
    "orders",
    type=(int, str),
    multiple=True,
    metavar="SEAT ORDER",
    help="SEAT's order instead of its own (the game's text, or JSON); repeatable",
)
@click.option(
    "--withdraw", "withdrawn", type=int, multiple=True, help="a seat whose orders go; repeatable"
)
@click.option("--reason", required=True, help="why the referee corrects (recorded)")
@click.option("--dispute", type=click.IntRange(min=1), default=None, help="the dispute upheld")
@referee_token_option
@click.option("--json", "as_json", is_flag=True, help="the report as the API gives it")
@reports_errors
def correct(
    match_id: str,
    movement: int,
    orders: tuple[tuple[int, str], ...],
    withdrawn: tuple[int, ...],
    reason: str,
    dispute: int | None,
    referee_token: str,
    as_json: bool,
) -> None:
    """Resolves MOVEMENT again with the seats' orders changed (referee); the later
    movements follow from their recorded orders, each checked again. Prints what the new
    timeline refused."""
    changes: list[dict[str, JSON]] = [
        {"seat": seat, "order": _order(text)} for seat, text in orders
    ] + [{"seat": seat, "order": None} for seat in withdrawn]
    made = matches().correct(match_id, referee_token, movement, changes, reason, dispute)
    if as_json:
        echo_json(made.to_json())
        return
    first, last = made.superseded.first, made.superseded.last
    click.echo(
        f"movement {made.movement} corrected: timeline {made.timeline} (event {made.version}; "
        f"events {first}-{last} superseded); {standing(made.outcome, made.open_movement)}"
    )
    for refusal in made.refused:
        click.echo(
            f"  refused: event {refusal['version']} ({refusal['type']}, seat "
            f"{refusal['seat']}): {refusal['error']}: {refusal['reason']}"
        )
    if made.voided_rematch:
        click.echo(f"  rematch {made.voided_rematch} is void: the draw is no longer one")
    click.echo(f"head {made.head.version}:{made.head.chain}")


@click.command("corrections")
@match_id_argument
@reports_errors
def corrections(match_id: str) -> None:
    """Lists the match's corrections (JSON), oldest first, with its current timeline."""
    echo_json(matches().corrections(match_id))


def standing(outcome: JSON, open_movement: int) -> str:
    """Returns where the match stands after a correction: finished again (its result), or
    the movement now open."""
    if isinstance(outcome, dict) and outcome.get("finished"):
        return f"the match is finished again ({outcome.get('result')})"
    return f"movement {open_movement} is open"


def _order(text: str) -> JSON:
    """Returns an order given on the command line: a JSON object, or the game's text."""
    stripped = text.strip()
    if stripped.startswith("{"):
        return json_value(stripped)
    return text


def register(group: click.Group) -> None:
    """Adds the correction commands to `drts match`."""
    for command in (correct, corrections):
        group.add_command(command)
