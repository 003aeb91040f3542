"""The signed-in pages' forms, declared like the API's bodies (api/schemas/), with the
same bounds (service/limits.py), loaded from the posted form's text values.

`load_form(Schema)` returns the loaded fields or raises FormError (422 `validation_error`
on the pages, naming each field and why). The CSRF field is checked before a view runs
(api/pages/session.py) and is not part of any form here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from uuid import UUID

import marshmallow as ma
from flask import flash, request
from werkzeug.wrappers import Response

from api.pages import session
from api.pages.session import CSRF_FIELD
from domain.errors import DrtsError
from domain.match.disputes import RULINGS
from service import limits
from service.limits import LimitError

REASON = ma.validate.Length(1, 1000)
ARGUMENT_PREFIX = "arg."  # a game action's argument field: arg.<name>


class FormError(Exception):
    """Raised when a posted form has a field the page cannot use (422 on the page)."""

    code = "validation_error"
    status = 422

    def __init__(self, messages: Any) -> None:
        fields = messages if isinstance(messages, dict) else {"form": messages}
        super().__init__(
            "the form is invalid: "
            + "; ".join(f"{name}: {' '.join(map(str, why))}" for name, why in fields.items())
        )


class Cites(ma.fields.Field[list[int]]):
    """Event versions written as a list of numbers: "7, 9" or "7 9"."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> list[int]:
        words = [w for w in re.split(r"[\s,]+", str(value)) if w]
        if not words or not all(w.isdigit() and len(w) <= 10 for w in words):
            raise ma.ValidationError("give event versions as numbers, e.g. 7, 9")
        if len(words) > limits.MAX_CITES:
            raise ma.ValidationError(f"at most {limits.MAX_CITES} events")
        return [int(w) for w in words]


class SignInForm(ma.Schema):
    match = ma.fields.UUID(required=True)
    token = ma.fields.String(required=True, validate=ma.validate.Length(1, 200))


class TournamentSeatForm(ma.Schema):
    player = ma.fields.String(required=True, validate=ma.validate.Length(1, limits.MAX_NAME_CHARS))
    key = ma.fields.String(required=True, validate=ma.validate.Length(1, 200))


class OrderForm(ma.Schema):
    order = ma.fields.String(
        required=True, validate=ma.validate.Length(1, limits.LONGEST_ORDER_CHARS)
    )
    movement = ma.fields.Integer(
        load_default=None, validate=ma.validate.Range(1, limits.MAX_MOVEMENT)
    )
    # drawn when the page is shown, recorded as the order's message id: the same form sent
    # twice (a double click, a reload) stores one order (api/pages/seat.py)
    form_id = ma.fields.String(
        load_default=None, validate=ma.validate.Regexp(r"\A[A-Za-z0-9_-]{16,64}\Z")
    )


class DisputeForm(ma.Schema):
    cites = Cites(required=True)
    text = ma.fields.String(required=True, validate=ma.validate.Length(1, limits.MAX_DISPUTE_CHARS))


class RulingForm(ma.Schema):
    ruling = ma.fields.String(required=True, validate=ma.validate.OneOf(RULINGS))
    reason = ma.fields.String(
        required=True, validate=ma.validate.Length(1, limits.MAX_DISPUTE_CHARS)
    )


class ExtendForm(ma.Schema):
    seconds = ma.fields.Integer(required=True, validate=ma.validate.Range(1, limits.MAX_SECONDS))
    reason = ma.fields.String(load_default=None, validate=REASON)


class ActionForm(ma.Schema):
    """A referee action; its arguments come as `arg.<name>` fields (`action_arguments`)."""

    action = ma.fields.String(required=True, validate=ma.validate.Length(1, 64))
    reason = ma.fields.String(required=True, validate=REASON)


class ReissueForm(ma.Schema):
    seat = ma.fields.Integer(required=True, validate=ma.validate.Range(1, 10_000))
    reason = ma.fields.String(load_default=None, validate=REASON)


def load_form(schema_class: type[ma.Schema]) -> dict[str, Any]:
    """Returns the posted form loaded by the schema (an empty field counts as not given);
    raises FormError."""
    fields = {
        k: v
        for k, v in request.form.items()
        if v.strip() != "" and k != CSRF_FIELD and not k.startswith(ARGUMENT_PREFIX)
    }
    try:
        loaded: dict[str, Any] = schema_class().load(fields)
    except ma.ValidationError as error:
        raise FormError(error.messages) from None
    return loaded


def action_arguments() -> dict[str, Any]:
    """Returns a referee action's arguments from its `arg.<name>` fields: a whole number
    where the text is one, else the text (the game's own `parse` judges them)."""
    found: dict[str, Any] = {}
    for key, value in request.form.items():
        if key.startswith(ARGUMENT_PREFIX) and value.strip():
            text = value.strip()
            found[key.removeprefix(ARGUMENT_PREFIX)] = (
                int(text) if re.fullmatch(r"-?\d{1,12}", text) else text
            )
    return found


def flash_outcome(run: Callable[[], str]) -> None:
    """Runs a form's command and flashes what it did, or why it was refused (its code
    and reason), for the page the post leads back to."""
    try:
        flash(run(), "done")
    except (DrtsError, LimitError, FormError) as refusal:
        flash(refusal_text(refusal), "refused")


def refusal_text(refusal: Exception) -> str:
    """Returns what a page says of a refused command: its stable code and its reason."""
    return f"Refused ({getattr(refusal, 'code', 'error')}): {refusal}"


def needs_token(match_id: UUID, needs: str) -> Response:
    """Leads to the sign-in form for the match, which then says what the page needs
    (`needs`, a sentence) and whose token the session holds instead, if any."""
    who = session.signed_in(match_id)
    if who is not None:
        held = "the referee" if who.referee else f"seat {who.seat}"
        needs = f"{needs}: you are signed in as {held} of this match"
    flash(f"{needs}.", "refused")
    return session.to_sign_in(match_id)
