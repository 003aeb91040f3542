"""A seat's page (docs/pages.md, A seat's page): its standing orders, a form sending an
order in the game's text syntax (the receipt shown and offered as a file, or the refusal
with its reason), its disputes and a form filing one. Signed in only."""

from __future__ import annotations

import secrets
from typing import Any
from uuid import UUID

from flask import Blueprint, redirect, render_template, url_for
from werkzeug.wrappers import Response

from api.context import matches, received_at
from api.pages import desk, session
from api.pages.forms import DisputeForm, OrderForm, flash_outcome, load_form, needs_token
from api.pages.views import shows_errors
from domain.errors import DrtsError, DuplicateMessageError
from service.limits import LimitError

blueprint = Blueprint("seat", __name__, url_prefix="/ui/matches/<uuid:match_id>/seat")
blueprint.before_request(session.check_form_post)
shows_errors(blueprint)
SEAT_NEEDS = "A seat's page needs the token of one of its seats (from joining the match)"
ORDER_SOURCE = "web"  # the source recorded with an order sent from this page


def seat_of_session(match_id: UUID) -> session.SignedIn | None:
    """Returns the session's seat in the match (None: not signed in as one of its seats)."""
    who = session.signed_in(match_id)
    return who if who is not None and who.seat is not None else None


@blueprint.get("")
def desk_page(match_id: UUID) -> Response | str:
    """The seat's page (the sign-in form when not signed in as a seat of the match)."""
    who = seat_of_session(match_id)
    if who is None:
        return needs_token(match_id, SEAT_NEEDS)
    return seat_page(who)


@blueprint.post("/orders")
def send_order(match_id: UUID) -> Response | tuple[str, int]:
    """Sends the order as POST /matches/{id}/orders does; shows the receipt, or the
    refusal with its reason (recorded as an OrderRejected event like the API's). The
    form's id is the order's message id: the same form sent again while its order is
    pending stores nothing and says so (200)."""
    who = seat_of_session(match_id)
    if who is None:
        return needs_token(match_id, SEAT_NEEDS)
    app, form = matches(), load_form(OrderForm)
    try:
        receipt = app.submit_order(
            match_id,
            who.token,
            form["order"],
            source=ORDER_SOURCE,
            message_id=form["form_id"],
            movement=form["movement"],
            received_at=received_at(),
        )
    except DuplicateMessageError as again:
        return seat_page(who, already=again.version), 200
    except (DrtsError, LimitError) as refusal:
        return seat_page(who, refusal=refusal, sent=form["order"]), 422
    download = desk.receipt_download(receipt)
    return seat_page(who, receipt=receipt, download=download), 201


def seat_page(who: session.SignedIn, **shown: Any) -> str:
    """Renders the seat's page with what a post showed, and a new id for its order form."""
    seat_desk = desk.seat_desk(matches(), who)
    return render_template("seat.html", desk=seat_desk, form_id=secrets.token_urlsafe(16), **shown)


@blueprint.post("/disputes")
def file_dispute(match_id: UUID) -> Response:
    """Files a dispute citing events, as POST /matches/{id}/disputes does."""
    who = seat_of_session(match_id)
    if who is None:
        return needs_token(match_id, SEAT_NEEDS)
    token = who.token

    def file() -> str:
        form = load_form(DisputeForm)
        filed = matches().file_dispute(match_id, token, form["cites"], form["text"])
        return f"Dispute {filed['dispute']} filed."

    flash_outcome(file)
    return redirect(url_for("seat.desk_page", match_id=match_id), 303)
