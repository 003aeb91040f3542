"""The pages: the match list, the standings, a match watched live, its replay scrubber
and a game's docs page; `/` leads to `/ui/`.

Server-rendered from the Matches application (no HTTP to itself): what the JSON API
serves, as public readers see it (no token is ever taken). A little JavaScript
(static/live.js) makes the match page follow the match's public stream (server-sent
events, api/stream.py) and fetch only its live part when something changed, and the
replay answer the arrow keys and say when a new movement resolved; without it every page
still reads, and says to reload.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Blueprint, abort, current_app, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from api.capacity import RateLimitedError
from api.context import matches
from api.errors import STATUS_BY_ERROR, http_error_payload
from api.pages import gamedocs, model
from api.pages.forms import FormError
from api.pages.query import PageQueryError, ReplayArgsSchema, TimelineArgsSchema, declares_query
from api.pages.session import CrossSiteRequestError, csrf_token, signed_in_as
from api.schemas.matches import ListMatchesArgsSchema
from api.schemas.standings import StandingsArgsSchema
from api.strictness import UnknownParameterError
from domain.errors import DrtsError
from domain.rules.registry import REGISTRY
from service.limits import LimitError
from service.tournaments import Tournaments
from service.tournaments.pages import TournamentPages, TournamentRow

blueprint = Blueprint(
    "pages",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/ui/static",
)
STATUSES = ("open", "started", "finished")


@blueprint.get("/")
def root() -> Response:
    """Leads to the match list."""
    return redirect(url_for("pages.match_list"))


@blueprint.get("/ui/")
@declares_query(ListMatchesArgsSchema)
def match_list(query: dict[str, Any]) -> str:
    """The match list, filtered by game (`ruleset`) and `status`, by page (`cursor`)."""
    page = matches().list_matches(**query)
    return render_template(
        "list.html", page=page, query=query, games=sorted(REGISTRY), statuses=STATUSES
    )


@blueprint.get("/ui/standings")
@declares_query(StandingsArgsSchema)
def standings(query: dict[str, Any]) -> str:
    """The standings over finished matches, by game and page."""
    page = matches().standings(**query)
    return render_template("standings.html", page=page, query=query, games=sorted(REGISTRY))


@blueprint.get("/ui/matches/<uuid:match_id>")
@declares_query(TimelineArgsSchema)
def match_page(query: dict[str, Any], match_id: UUID) -> str:
    """A match now: board, seats, scores, deadline; followed live by static/live.js. With
    `timeline`, an earlier timeline of a corrected match as it ended."""
    view = model.live_view(matches(), match_id, query["timeline"])
    return render_template("match.html", view=view, tournament=tournament_of(match_id))


@blueprint.get("/ui/matches/<uuid:match_id>/live")
@declares_query(TimelineArgsSchema)
def live_part(query: dict[str, Any], match_id: UUID) -> str:
    """The match page's live part alone (board, seats, scores, deadline, Public Display):
    what static/live.js fetches when the match's stream brings a change, instead of the
    whole page."""
    view = model.live_view(matches(), match_id, query["timeline"])
    return render_template("_live.html", view=view)


@blueprint.get("/ui/matches/<uuid:match_id>/replay")
@declares_query(ReplayArgsSchema)
def replay(query: dict[str, Any], match_id: UUID) -> str:
    """The replay at a movement and phase (the first resolved movement's start by default),
    of the current timeline or an earlier one of a corrected match (`timeline`)."""
    view = model.replay_view(
        matches(), match_id, query["movement"], query["phase"], query["timeline"]
    )
    return render_template("replay.html", view=view, tournament=tournament_of(match_id))


def tournament_of(match_id: UUID) -> TournamentRow | None:
    """Returns the tournament the match plays a table of (None: none), for its link."""
    return TournamentPages(Tournaments(matches())).tournament_of(match_id)


@blueprint.get("/ui/games/<ruleset>")
def game_docs(ruleset: str) -> str:
    """A game's docs page, each ruling id an anchor the replay's steps link to."""
    path = gamedocs.docs_path(ruleset)
    if path is None:
        abort(404, f"no docs page for a game named {ruleset!r}")
    html = gamedocs.page_html(path.read_text(encoding="utf-8"))
    return render_template("game.html", ruleset=ruleset, html=html)


@blueprint.app_template_filter("rulings")
def rulings_filter(text: str, ruleset: str) -> Any:
    """Jinja: `{{ step.text | rulings(ruleset) }}` links the ruling ids of a text."""
    return gamedocs.link_rulings(text, url_for("pages.game_docs", ruleset=ruleset))


@blueprint.app_context_processor
def session_context() -> dict[str, Any]:
    """Jinja: `csrf_token()` for a form, and who is signed in (None: nobody)."""
    return {"csrf_token": csrf_token, "signed_in_as": signed_in_as()}


def error_page(error: Exception) -> ResponseReturnValue:
    """The pages' own error page: the API's status and code, said in a sentence (a 429
    keeps its Retry-After). A reader of the pages never gets the API's JSON."""
    if isinstance(error, HTTPException):
        payload, status = http_error_payload(error)
        code, message = payload["code"], payload["message"]
    else:
        status = getattr(error, "status", None) or next(
            (s for cls, s in STATUS_BY_ERROR if isinstance(error, cls)), 422
        )
        code, message = getattr(error, "code", "error"), str(error)
    headers = {"Retry-After": str(error.retry_after)} if isinstance(error, RateLimitedError) else {}
    page = render_template("error.html", status=status, code=code, message=message)
    return page, status, headers


def bug_page(error: Exception) -> ResponseReturnValue:
    """A 500 for an error no table maps, a bug: logged with its traceback, and said on the
    error page without the error's text (as the API's internal_error)."""
    current_app.logger.exception("unhandled error in a page", exc_info=error)
    return render_template("error.html", status=500, code="internal_error", message=BUG), 500


BUG = "internal error: the page could not be made (the bug is logged)"
PAGE_ERRORS = (
    DrtsError,
    LimitError,
    PageQueryError,
    FormError,
    CrossSiteRequestError,
    UnknownParameterError,
    RateLimitedError,
    HTTPException,
)


def shows_errors(pages: Blueprint) -> None:
    """Gives a blueprint of pages the error page for every error a page may meet, a bug
    (any other exception) included."""
    for error in PAGE_ERRORS:
        pages.register_error_handler(error, error_page)
    pages.register_error_handler(Exception, bug_page)


def is_page_path(path: str) -> bool:
    """Returns whether a request path is the pages' (under /ui/, or the root leading
    there): its errors, a URL no page has included, answer the error page."""
    return path == "/" or path == "/ui" or path.startswith("/ui/")


shows_errors(blueprint)
