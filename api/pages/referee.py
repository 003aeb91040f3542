"""The referee's page (docs/pages.md, The referee's page): open orders (the look recorded
as over the API), disputes with their cited events and a ruling form, corrections and
timelines, the referee's actions, the chain head; the checks (verify, audit) and the
archive a click away. Signed in with the match's referee token or the operator's."""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

from flask import Blueprint, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from api.context import matches
from api.pages import desk, session
from api.pages.forms import (
    ActionForm,
    ExtendForm,
    FormError,
    ReissueForm,
    RulingForm,
    action_arguments,
    flash_outcome,
    load_form,
    needs_token,
    refusal_text,
)
from api.pages.views import shows_errors
from domain.errors import DrtsError
from service.limits import LimitError

blueprint = Blueprint("referee", __name__, url_prefix="/ui/matches/<uuid:match_id>/referee")
blueprint.before_request(session.check_form_post)
shows_errors(blueprint)


def referee_of_session(match_id: UUID) -> session.SignedIn | None:
    """Returns the session's referee of the match (None: not signed in as its referee)."""
    who = session.signed_in(match_id)
    return who if who is not None and who.referee else None


def to_sign_in_as_referee(match_id: UUID) -> Response:
    """Leads to the sign-in form, which says this page needs the referee's token."""
    return needs_token(match_id, REFEREE_NEEDS)


REFEREE_NEEDS = (
    "The referee's page needs the referee's token of this match (from creating it) or "
    "the operator's"
)


def acting(match_id: UUID, command: Callable[[str], str]) -> Response:
    """Runs a referee's command with the session's token, flashes its outcome, and leads
    back to the referee's page (to sign in first without a referee session)."""
    who = referee_of_session(match_id)
    if who is None:
        return to_sign_in_as_referee(match_id)
    flash_outcome(lambda: command(who.token))
    return redirect(url_for("referee.desk_page", match_id=match_id), 303)


@blueprint.get("")
def desk_page(match_id: UUID) -> Response | str:
    """The referee's page; its open orders are a look, recorded (SecretViewed)."""
    who = referee_of_session(match_id)
    if who is None:
        return to_sign_in_as_referee(match_id)
    return render_template("referee.html", desk=desk.referee_desk(matches(), who))


@blueprint.get("/checks")
def checks_page(match_id: UUID) -> Response | str:
    """The chain verified and the match re-adjudicated, as /verify and /audit report."""
    who = referee_of_session(match_id)
    if who is None:
        return to_sign_in_as_referee(match_id)
    summary = matches().summary(match_id)
    found = desk.checks(matches(), who)
    return render_template("checks.html", s=summary, checks=found)


@blueprint.get("/archive")
def archive(match_id: UUID) -> Response:
    """The match's archive as a file (the full form while unfinished: a recorded look)."""
    who = referee_of_session(match_id)
    if who is None:
        return to_sign_in_as_referee(match_id)
    return Response(
        desk.archive_json(matches(), who),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="archive-{match_id}.json"'},
    )


@blueprint.post("/disputes/<int:number>/ruling")
def rule(match_id: UUID, number: int) -> Response:
    """Rules on a dispute, as POST /matches/{id}/disputes/{n}/ruling does."""

    def ruled(token: str) -> str:
        form = load_form(RulingForm)
        matches().rule_dispute(match_id, token, number, form["ruling"], form["reason"])
        return f"Dispute {number} {form['ruling']}."

    return acting(match_id, ruled)


@blueprint.post("/deadline")
def extend(match_id: UUID) -> Response:
    """Extends the open movement's deadline, as POST /matches/{id}/deadline does."""

    def extended(token: str) -> str:
        form = load_form(ExtendForm)
        deadline = matches().extend_deadline(
            match_id, token, form["seconds"], reason=form["reason"]
        )
        return f"The deadline is now {deadline.isoformat()}."

    return acting(match_id, extended)


@blueprint.post("/actions")
def act(match_id: UUID) -> Response:
    """Takes a referee action (pause, resume, forfeit or one of the game's), as POST
    /matches/{id}/actions does."""

    def acted(token: str) -> str:
        form = load_form(ActionForm)
        taken = matches().act(match_id, token, form["action"], action_arguments(), form["reason"])
        return f"{form['action'].capitalize()}: recorded as event {taken.version}."

    return acting(match_id, acted)


@blueprint.post("/tokens")
def reissue(match_id: UUID) -> Response:
    """Reissues a seat's token, as POST /matches/{id}/seats/{n}/token does. The new token
    comes as a file to download, never shown in the page; the old one stops at once."""
    who = referee_of_session(match_id)
    if who is None:
        return to_sign_in_as_referee(match_id)
    try:
        form = load_form(ReissueForm)
        new = matches().reissue_seat_token(match_id, who.token, form["seat"], form["reason"])
    except (DrtsError, LimitError, FormError) as refusal:
        flash(refusal_text(refusal), "refused")
        return redirect(url_for("referee.desk_page", match_id=match_id), 303)
    return Response(
        f"{new.token}\n",
        mimetype="text/plain",
        headers={
            "Content-Disposition": f'attachment; filename="seat-{new.seat}-token.txt"',
            "Cache-Control": "no-store",
        },
    )
