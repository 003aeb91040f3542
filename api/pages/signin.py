"""Signing in and out (docs/pages.md, Signing in): a form takes a match id and a seat's or
referee's token by POST (never in a URL), and the session cookie then holds it."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Blueprint, redirect, render_template, url_for
from werkzeug.wrappers import Response

from api.context import matches
from api.pages import session
from api.pages.forms import SignInForm, load_form
from api.pages.query import declares_query
from api.pages.views import shows_errors

blueprint = Blueprint("signin", __name__)
blueprint.before_request(session.check_form_post)
shows_errors(blueprint)


class SignInArgsSchema(ma.Schema):
    """The match to sign in to, when a page sends its reader here."""

    match = ma.fields.UUID(load_default=None)


@blueprint.get("/ui/sign-in")
@declares_query(SignInArgsSchema)
def sign_in_form(query: dict[str, Any]) -> str:
    """The sign-in form: a match id and a token."""
    return render_template("signin.html", match=query["match"])


@blueprint.post("/ui/sign-in")
def sign_in() -> Response:
    """Signs in with the token of a seat or the referee (or the operator's) of a match,
    then leads to that seat's or the referee's page."""
    form = load_form(SignInForm)
    holder = matches().holder(form["match"], form["token"])  # an unknown token: 401
    session.sign_in(form["match"], form["token"], holder)
    page = "referee.desk_page" if holder.referee else "seat.desk_page"
    return redirect(url_for(page, match_id=form["match"]), 303)


@blueprint.post("/ui/sign-out")
def sign_out() -> Response:
    """Signs out: the session ends and its cookie is cleared."""
    return redirect(url_for("signin.sign_in_form", match=session.sign_out()), 303)
