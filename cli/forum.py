"""`drts forum import|posts|outgoing` (the operator's, on the store), and the forum
commands of `drts match`: the referee's `forum-user`, a seat's `forum-code`, and a forum
integration's `forum-post` (the operator token). docs/forum.md tells how a referee runs a
forum game.

Each reply and post to make is printed as one JSON line, for a script to post back.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import click

from cli.match import printable
from cli.store import matches, reports_errors
from service.channels.forum.desk import posts_of
from service.channels.forum.outgoing import outgoing, resolved_movements
from service.channels.forum.posts import Post
from service.channels.forum.reading import read_posts
from service.results import Result

match_option = click.option("--match", "match_id", required=True, help="the match's id")


@click.group("forum")
def forum() -> None:
    """Play by forum: take posts from a file, list them, the posts to make."""


@forum.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@match_option
@reports_errors
def import_posts(file: Path, match_id: str) -> None:
    """Takes the posts of FILE (an mbox, or a JSON list of posts) as orders of the match,
    in the file's order; prints each reply, then the posts to make for the movements that
    resolved meanwhile (JSON lines)."""
    posts, app = read_posts(file), matches()
    before = _resolved(match_id)
    for post in posts:
        _echo(app.forum.receive(match_id, post, app.clock()))
    for made in outgoing(app, match_id, before):
        _echo(made)


@forum.command("posts")
@click.argument("match_id")
@reports_errors
def list_posts(match_id: str) -> None:
    """Lists the posts received for the match, refused ones too (JSON lines)."""
    for row in posts_of(matches().store, match_id):
        click.echo(printable(json.dumps(row, sort_keys=True, ensure_ascii=False, default=str)))


@forum.command("outgoing")
@click.argument("match_id")
@click.option("--after", type=int, default=0, show_default=True, help="the last movement posted")
@reports_errors
def list_outgoing(match_id: str, after: int) -> None:
    """Prints the posts to make, one per movement resolved after --after (JSON lines)."""
    for made in outgoing(matches(), match_id, after):
        _echo(made)


@click.command("forum-user")
@click.argument("match_id")
@click.argument("user")
@click.argument("seat", type=int, required=False)
@click.option("--clear", is_flag=True, help="clear the user's mapping (give no SEAT)")
@click.option(
    "--identity",
    default=None,
    help="the user's identity as the forum guarantees it (its user id, or the sender "
    "address of a mail export): only posts carrying it are the seat's",
)
@click.option("--referee-token", envvar="DRTS_REFEREE_TOKEN", required=True, help="the referee's")
@reports_errors
def forum_user(
    match_id: str,
    user: str,
    seat: int | None,
    clear: bool,
    identity: str | None,
    referee_token: str,
) -> None:
    """Maps forum USER to SEAT (referee): the user's posts are the seat's orders (only
    those carrying --identity, when given)."""
    if clear == (seat is not None):
        raise click.UsageError("give either a SEAT or --clear")
    matches().map_forum_user(match_id, referee_token, user, seat, identity)
    known = f" as {identity}" if identity and not clear else ""
    click.echo(f"forum user {user} " + ("cleared" if clear else f"is seat {seat}{known}"))


@click.command("forum-code")
@click.argument("match_id")
@click.option("--token", envvar="DRTS_SEAT_TOKEN", required=True, help="the seat's token")
@reports_errors
def forum_code(match_id: str, token: str) -> None:
    """Prints a one-time code for the token's seat: sign one post with `code: <code>`."""
    seat, code = matches().forum_code(match_id, token)
    click.echo(f"seat {seat} one-time code {code}")


@click.command("forum-post")
@click.argument("match_id")
@click.argument("body")
@click.option("--author", required=True, help="the forum user who posted it")
@click.option("--post-id", required=True, help="the forum's id of the post")
@click.option("--time", "posted_at", type=datetime.fromisoformat, default=None, help="ISO 8601")
@click.option("--identity", default=None, help="the author's identity as the forum gives it")
@click.option("--token", envvar="DRTS_OPERATOR_TOKEN", required=True, help="the operator token")
@reports_errors
def forum_post(
    match_id: str,
    body: str,
    author: str,
    post_id: str,
    posted_at: datetime | None,
    identity: str | None,
    token: str,
) -> None:
    """Takes one forum post as POST /matches/{id}/posts does (operator token); prints the
    reply (JSON)."""
    app = matches()
    post = Post(author, post_id, posted_at, body, identity=identity)
    _echo(app.take_forum_post(match_id, token, post, app.clock()))


def _resolved(match_id: str) -> int:
    """Returns the last movement of the match that has resolved (0: none yet)."""
    return max(resolved_movements(matches().get_match(match_id)), default=0)


def _echo(result: Result) -> None:
    click.echo(printable(json.dumps(result.to_json(), sort_keys=True, ensure_ascii=False)))


def register(main: click.Group, match: click.Group) -> None:
    """Adds `drts forum`, and `drts match forum-user`, `forum-code` and `forum-post`."""
    main.add_command(forum)
    for command in (forum_user, forum_code, forum_post):
        match.add_command(command)
