"""A tournament player's way to its seat (issue 45: "seat tokens reach players through
the API and pages"): a form takes the player's name (or id) and key by POST, never in
a URL; the tournament gives the seat of the player's latest match a new token
(`Tournaments.seat_token`, the seat's old token stops) and the session holds it, as
signing in with a seat's token does, then the seat's page opens."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for
from werkzeug.wrappers import Response

from api.context import matches
from api.pages import session
from api.pages.forms import TournamentSeatForm, load_form
from api.pages.views import shows_errors
from service.tournaments import Tournaments

blueprint = Blueprint("tournament_seat", __name__, url_prefix="/ui/tournaments/<tournament>")
blueprint.before_request(session.check_form_post)
shows_errors(blueprint)


@blueprint.get("/seat")
def seat_form(tournament: str) -> str:
    """The form: the player's name or id and its key."""
    found = Tournaments(matches()).get(tournament)  # an unknown tournament: 404
    return render_template("tournament_seat.html", tournament=found)


@blueprint.post("/seat")
def take_seat(tournament: str) -> Response:
    """Signs the player in to its seat in its latest match of the tournament."""
    form = load_form(TournamentSeatForm)
    got = Tournaments(matches()).seat_token(tournament, form["player"], form["key"])
    holder = matches().holder(got["match_id"], got["token"])
    session.sign_in(got["match_id"], got["token"], holder)
    return redirect(url_for("seat.desk_page", match_id=got["match_id"]), 303)
