"""The tournament and player pages (issue 45, docs/pages.md): the list of tournaments, a
tournament (its rounds, tables, linked matches, byes, forfeits, standing with its
tie-breaks, the bracket of an elimination, the seed's commitment and, once revealed, the
seed), and a player (its tournaments, games and ratings).

Server-rendered from service/tournaments/pages.py and profile.py, as a spectator sees
them; no script. Every error answers the pages' error page (404 for a tournament or
player that does not exist), as every page under /ui/ does.
"""

from __future__ import annotations

from flask import Blueprint, render_template

from api.context import matches
from api.pages.views import shows_errors
from service.tournaments import Tournaments
from service.tournaments.pages import TournamentPages
from service.tournaments.profile import player_page

blueprint = Blueprint("tournament_pages", __name__, url_prefix="/ui")
shows_errors(blueprint)

FORMATS = {
    "round_robin": "Round robin",
    "swiss": "Swiss",
    "elimination": "Single elimination",
    "tables": "Tables",
}
TIE_BREAKS = {
    "points": "Points",
    "buchholz": "Buchholz",
    "sonneborn_berger": "Sonneborn-Berger",
    "head_to_head": "Head-to-head",
    "total_score": "Total score",
    "draw": "Draw",
}


def reader() -> TournamentPages:
    """Returns the pages' reader of tournaments on the process's Matches application."""
    return TournamentPages(Tournaments(matches()))


@blueprint.get("/tournaments")
def tournament_list() -> str:
    """Every tournament, the newest first: format, game, status, players, rounds."""
    return render_template("tournaments.html", rows=reader().rows(), formats=FORMATS)


@blueprint.get("/tournaments/<tournament>")
def tournament_page(tournament: str) -> str:
    """A tournament: its facts, players, standing, bracket (elimination) and rounds."""
    view = reader().view(tournament)
    names = {entrant.player_id: entrant.name for entrant in view.players}
    return render_template(
        "tournament.html", view=view, names=names, formats=FORMATS, tie_break_names=TIE_BREAKS
    )


@blueprint.get("/players/<player>")
def player(player: str) -> str:
    """A player (by id or name): its tournaments, games and ratings with their history."""
    page = player_page(reader(), player)
    return render_template("player.html", page=page)
