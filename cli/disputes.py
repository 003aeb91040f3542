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
from service import limits
from service.queries.disputes import MAX_PAGE_SIZE, PAGE_SIZE, STATUSES

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
@click.option(
    "--after",
    type=click.IntRange(0, limits.MAX_POSITION),
    default=0,
    show_default=True,
    help="only disputes numbered after this one (the last line's, to go on)",
)
@click.option(
    "--limit",
    type=click.IntRange(1, MAX_PAGE_SIZE),
    default=PAGE_SIZE,
    show_default=True,
    help="how many at most",
)
@click.option(
    "--status",
    type=click.Choice(STATUSES),
    default=None,
    help="open: only those awaiting a ruling; ruled: only those ruled",
)
@click.option(
    "--seat", type=click.IntRange(1, limits.MAX_SEATS), default=None, help="only this seat's"
)
@as_json_option
@reports_errors
def disputes(
    match_id: str, after: int, limit: int, status: str | None, seat: int | None, as_json: bool
) -> None:
    """Lists the disputes of MATCH_ID by page, as GET /matches/{id}/disputes does: --limit
    of them numbered after --after, open and ruled or of --status (public: no token). A
    last line says how to go on when more follow."""
    page = matches().dispute_page(match_id, after, limit, status, seat)
    if as_json:
        echo_json(page.to_json())
        return
    if not page.items:
        click.echo("no disputes" if after == 0 else f"no disputes after dispute {after}")
    for item in page.items:
        for line in dispute_lines(item):
            click.echo(line)
    if page.next is not None:
        click.echo(f"more: --after {page.next}")


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
