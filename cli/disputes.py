"""`drts match dispute file|rule|show|waiting` and `drts match disputes`: disputes as the API's
/matches/{id}/disputes has them (issue 18, docs/referee.md). A seat (its token) or the
referee files one citing event versions (`drts match events` lists them); the referee
dismisses or upholds it with a reason; anyone lists them.
"""

from __future__ import annotations

import click

from cli.match import echo_json, match_id_argument, printable, referee_token_option
from cli.store import matches, reports_errors
from domain.rules.contract import JSON

as_json_option = click.option("--json", "as_json", is_flag=True, help="the API's JSON form")
filer_token_option = click.option(
    "--token",
    envvar="DRTS_TOKEN",
    required=True,
    help="a seat token (join), or the referee's (create) or the operator's",
)


@click.group("dispute")
def dispute() -> None:
    """File a dispute, rule on one, show one; list the matches awaiting a ruling."""


@dispute.command("file")
@match_id_argument
@click.option(
    "--cite",
    "cites",
    type=int,
    multiple=True,
    required=True,
    help="an event version the dispute is about (repeat it for more)",
)
@click.option("--text", required=True, help="what is disputed, and why (public)")
@filer_token_option
@as_json_option
@reports_errors
def file_dispute(
    match_id: str, cites: tuple[int, ...], text: str, token: str, as_json: bool
) -> None:
    """Files a dispute on MATCH_ID citing event versions; prints its number. A seat may not
    cite another seat's order while its movement is open."""
    filed = matches().file_dispute(match_id, token, list(cites), text)
    if as_json:
        echo_json(filed)
        return
    click.echo(f"dispute {filed['dispute']} filed (event {filed['version']}): awaits a ruling")


@dispute.command("rule")
@match_id_argument
@click.argument("number", type=int)
@click.option("--dismiss", "ruling", flag_value="dismissed", help="dismiss the dispute")
@click.option("--uphold", "ruling", flag_value="upheld", help="uphold it (its reason is a note)")
@click.option("--reason", required=True, help="why (public)")
@referee_token_option
@as_json_option
@reports_errors
def rule(
    match_id: str, number: int, ruling: str | None, reason: str, referee_token: str, as_json: bool
) -> None:
    """Rules on dispute NUMBER of MATCH_ID (referee): --dismiss or --uphold, with a reason.
    A dispute is ruled on once."""
    if ruling is None:
        raise click.UsageError("give --dismiss or --uphold")
    ruled = matches().rule_dispute(match_id, referee_token, number, ruling, reason)
    if as_json:
        echo_json(ruled)
        return
    click.echo(f"dispute {number} {ruled['ruling']} (event {ruled['ruled_version']})")


@dispute.command("show")
@match_id_argument
@click.argument("number", type=int)
@reports_errors
def show(match_id: str, number: int) -> None:
    """Prints dispute NUMBER of MATCH_ID with the events it cites, as anyone may see them
    (JSON, as GET /matches/{id}/disputes/{n} gives it)."""
    echo_json(matches().dispute(match_id, number))


@dispute.command("waiting")
@reports_errors
def waiting() -> None:
    """Lists the matches with disputes awaiting a ruling, oldest first, with how many (the
    match list's, as GET /matches?disputes=open gives it)."""
    app, cursor = matches(), None
    while True:
        page = app.list_matches(disputes="open", limit=200, cursor=cursor)
        for item in page.items:
            counts = item["disputes"]
            assert isinstance(counts, dict)
            click.echo(
                f"{item['match_id']} {item['ruleset']} {item['status']}: "
                f"{counts['open']} open, {counts['ruled']} ruled"
            )
        if page.next is None:
            return
        cursor = page.next


@click.command("disputes")
@match_id_argument
@as_json_option
@reports_errors
def disputes(match_id: str, as_json: bool) -> None:
    """Lists the disputes of MATCH_ID, open and ruled (public: no token)."""
    items = matches().disputes(match_id)
    if as_json:
        echo_json({"items": items})
        return
    if not items:
        click.echo("no disputes")
    for item in items:
        for line in dispute_lines(item):
            click.echo(line)


def dispute_lines(item: dict[str, JSON]) -> list[str]:
    """Returns a dispute as text: who filed it, in which movement, what it cites and says,
    and its ruling."""
    who = f"seat {item['seat']}" if item["by"] == "seat" else item["by"]
    cited = item["cites"]
    cites = ", ".join(str(version) for version in cited) if isinstance(cited, list) else ""
    status = "open" if item["ruling"] is None else f"{item['ruling']} by {item['ruled_by']}"
    lines = [
        f"dispute {item['dispute']} ({status}): {who}, movement {item['movement']}, cites {cites}",
        f"    {printable(str(item['text']))}",
    ]
    if item["reason"] is not None:
        lines.append(f"    ruling: {printable(str(item['reason']))}")
    return lines


def register(group: click.Group) -> None:
    """Adds the dispute commands to `drts match`."""
    group.add_command(dispute)
    group.add_command(disputes)
