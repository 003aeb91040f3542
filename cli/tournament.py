"""`drts tournament ...`: running a tournament by hand (issue 45, docs/tournaments.md).

`create` prints the tournament's id and the organiser's token (shown only once);
`register` enters a player by its key; `withdraw` takes the player's key or the
organiser's token; `pair` takes every step due (results, matches, the round's pairing,
the finish), idempotent like the worker's `advance_tournament`; `pause` and `resume`
take the organiser's token; `standings` prints the standing; `verify` audits the
tournament and exits 1 naming the first divergence; `export` writes its archive (its
events and its finished matches' archives) for the standalone verifier. `--json`
prints the API's form.
"""

from __future__ import annotations

import json

import click

from cli.match import echo_json
from cli.store import matches, reports_errors
from service.tournaments import Tournaments

organiser_option = click.option(
    "--token", envvar="DRTS_ORGANISER_TOKEN", required=True, help="the organiser's token"
)
as_json_option = click.option("--json", "as_json", is_flag=True, help="the API's JSON form")


@click.group("tournament")
def tournament() -> None:
    """Tournaments: create, register, pair, standings, verify, export."""


@tournament.command("create")
@click.argument("name")
@click.option("--format", "format_", required=True, help="round_robin, swiss, elimination, tables")
@click.option("--ruleset", required=True)
@click.option("--version", type=int, default=None, help="the ruleset's version (latest)")
@click.option("--config", default="{}", help="the matches' config as JSON")
@click.option("--preset", default=None)
@click.option("--rounds", type=int, default=None, help="the rounds (the format's)")
@click.option("--tie-breaks", default=None, help="comma-separated order (the format's)")
@click.option("--unrated", is_flag=True, help="the matches do not count for ratings")
@click.option("--options", default="{}", help="the format's options as JSON")
@reports_errors
def create(
    name: str,
    format_: str,
    ruleset: str,
    version: int | None,
    config: str,
    preset: str | None,
    rounds: int | None,
    tie_breaks: str | None,
    unrated: bool,
    options: str,
) -> None:
    """Creates a tournament; prints its id and the organiser's token (shown once, last)."""
    try:
        config_value, options_value = json.loads(config), json.loads(options)
    except json.JSONDecodeError as error:
        raise click.BadParameter(f"not JSON: {error}") from None
    new = Tournaments(matches()).create(
        name,
        format_,
        ruleset,
        config_value,
        preset,
        version,
        rounds,
        None if tie_breaks is None else tie_breaks.split(","),
        not unrated,
        options_value,
    )
    click.echo(f"tournament {new.tournament_id}")
    click.echo(f"token {new.organiser_token}")


@tournament.command("register")
@click.argument("tournament_id")
@click.argument("player_ref", metavar="ID|NAME")
@click.option("--key", envvar="DRTS_PLAYER_KEY", required=True, help="the player's key")
@reports_errors
def register(tournament_id: str, player_ref: str, key: str) -> None:
    """Registers a player, proven by its key."""
    ident = Tournaments(matches()).register(tournament_id, player_ref, key)
    click.echo(f"registered {ident}")


@tournament.command("seat")
@click.argument("tournament_id")
@click.argument("player_ref", metavar="ID|NAME")
@click.option("--key", envvar="DRTS_PLAYER_KEY", required=True, help="the player's key")
@reports_errors
def seat(tournament_id: str, player_ref: str, key: str) -> None:
    """Gives the player a new token for its seat in its latest match of the tournament
    (the seat's old token stops): prints the match, the seat and the token."""
    got = Tournaments(matches()).seat_token(tournament_id, player_ref, key)
    click.echo(f"match {got['match_id']}")
    click.echo(f"seat {got['seat']}")
    click.echo(f"token {got['token']}")


@tournament.command("withdraw")
@click.argument("tournament_id")
@click.argument("player_ref", metavar="ID|NAME")
@click.option(
    "--token", envvar="DRTS_TOKEN", required=True, help="the player's key or the organiser's token"
)
@click.option("--reason", default="")
@reports_errors
def withdraw(tournament_id: str, player_ref: str, token: str, reason: str) -> None:
    """Withdraws a player from the rounds still to pair."""
    ident = Tournaments(matches()).withdraw(tournament_id, player_ref, token, reason)
    click.echo(f"withdrawn {ident}")


@tournament.command("pair")
@click.argument("tournament_id")
@click.option(
    "--token",
    envvar="DRTS_ORGANISER_TOKEN",
    default=None,
    help="the organiser's token: checked, as `POST /tournaments/{id}/pair` does (without "
    "it, whoever holds the store takes the step, as the workers do)",
)
@reports_errors
def pair(tournament_id: str, token: str | None) -> None:
    """Takes every step due (as the worker does): results, matches, the next round."""
    found = Tournaments(matches())
    steps = found.pair(tournament_id, token) if token else found.pair_next_round(tournament_id)
    click.echo("\n".join(steps) if steps else "nothing due")


@tournament.command("pause")
@click.argument("tournament_id")
@organiser_option
@click.option("--reason", default="")
@reports_errors
def pause(tournament_id: str, token: str, reason: str) -> None:
    """Pauses the pairing of rounds."""
    Tournaments(matches()).pause(tournament_id, token, reason)
    click.echo("paused")


@tournament.command("resume")
@click.argument("tournament_id")
@organiser_option
@reports_errors
def resume(tournament_id: str, token: str) -> None:
    """Resumes a paused tournament."""
    Tournaments(matches()).resume(tournament_id, token)
    click.echo("resumed")


@tournament.command("standings")
@click.argument("tournament_id")
@as_json_option
@reports_errors
def standings(tournament_id: str, as_json: bool) -> None:
    """Prints the standing: rank, player, points and tie-breaks."""
    rows = [entry.to_json() for entry in Tournaments(matches()).standings(tournament_id)]
    if as_json:
        echo_json({"standings": rows})
        return
    for row in rows:
        breaks = " ".join(f"{k}={v}" for k, v in row["tie_breaks"].items() if k != "points")
        gone = " (withdrawn)" if row["withdrawn"] else ""
        click.echo(f"{row['rank']}. {row['player_id']} {row['points']} points {breaks}{gone}")


@tournament.command("verify")
@click.argument("tournament_id")
@as_json_option
@reports_errors
def verify(tournament_id: str, as_json: bool) -> None:
    """Audits the tournament: its chain, every pairing (once the seed is revealed), each
    result against its match; exits 1 naming the first divergence."""
    report = Tournaments(matches()).verify(tournament_id)
    if as_json:
        echo_json(report.to_json())
    else:
        click.echo(
            f"tournament {tournament_id}: {report.rounds} round(s) re-derived, "
            f"{report.results} result(s) checked"
        )
        for note in report.notes:
            click.echo(note)
        click.echo("sound" if report.ok else f"DIVERGES: {report.divergence}")
    if not report.ok:
        raise SystemExit(1)


@tournament.command("export")
@click.argument("tournament_id")
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@reports_errors
def export(tournament_id: str, file: str | None) -> None:
    """Writes the tournament's archive (docs/tournaments.md, Exporting a tournament) to
    FILE, or prints it (no FILE, or `-`): its events and each finished linked match's
    public archive, for the standalone verifier. Anyone may export; nothing is recorded."""
    document = Tournaments(matches()).export_archive(tournament_id)
    if file in (None, "-"):
        echo_json(document)
        return
    with open(str(file), "w", encoding="utf-8") as out:
        json.dump(document, out, indent=2, ensure_ascii=False)
        out.write("\n")
    click.echo(
        f"tournament {document['tournament_id']}: {len(document['events'])} events, "
        f"{len(document['matches'])} match archive(s), {len(document['unfinished'])} "
        f"unfinished match(es) left out, written to {file}"
    )
