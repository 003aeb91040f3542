"""What the views share: their Blueprint class, the Matches application, the bearer token."""

from __future__ import annotations

import json
import math
import re
import threading
from datetime import datetime
from typing import Any

import flask_smorest
from flask import current_app, g, request
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

from api.capacity import Capacity
from domain.errors import InvalidTokenError
from service import limits
from service.live.hub import LiveFeed, Render
from service.matches import Matches

EXTENSION = "drts.matches"
CAPACITY = "drts.capacity"
LIVE = "drts.live"
_live_lock = threading.Lock()
BEARER = "bearer"


def matches() -> Matches:
    """Returns the process's one Matches application (made by create_app)."""
    app: Matches = current_app.extensions[EXTENSION]
    return app


def received_at() -> datetime:
    """Returns the instant the request arrived (taken first thing, by the app's
    before_request), the received time of an order it carries (issue 13)."""
    arrived: datetime = g.received_at
    return arrived


def capacity() -> Capacity:
    """Returns the process's rate limits and long-poll gate (made by create_app)."""
    limits_of_process: Capacity = current_app.extensions[CAPACITY]
    return limits_of_process


def live_feed(render: Render) -> LiveFeed:
    """Returns the process's live feed of the public streams (service/live/) over the
    app's Matches application, made on the first stream with `render`."""
    with _live_lock:
        feed: LiveFeed | None = current_app.extensions.get(LIVE)
        if feed is None or feed.matches is not matches():
            if feed is not None:
                feed.stop()
            feed = current_app.extensions[LIVE] = LiveFeed(matches(), render)
    return feed


def bearer_token() -> str | None:
    """Returns the token of `Authorization: Bearer <token>`, or None without the header.

    Raises InvalidTokenError (401) for any other kind of Authorization.
    """
    header = request.headers.get("Authorization", "").strip()
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != BEARER or not token.strip():
        raise InvalidTokenError("the Authorization header must be 'Bearer <token>'")
    return token.strip()


PARSE_DEPTH = limits.PARSE_DEPTH  # parsed to this depth, so that check_json names the field
PARSE_DIGITS = 4000  # Python converts this many digits quickly; check_json bounds the value


class StrictJSONParser(FlaskParser):
    """webargs' Flask parser held to the JSON limits of service/limits.py.

    400 malformed_json: not JSON, not UTF-8, NaN or Infinity (Python's json
    accepts them, but they are not JSON and cannot be hashed canonically), a
    number too large to be finite. 422 validation_error: nested deeper than
    MAX_JSON_DEPTH, an integer beyond +-MAX_JSON_INT, a lone surrogate escape
    (text that is not Unicode), a control character but tab and line breaks,
    each naming its top-level field (JSON nested deeper than PARSE_DEPTH is
    refused on its text, before the parser recurses, for the body as a whole).
    """

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return core.missing
        text = req.get_data(cache=True).decode("utf-8")  # webargs answers UnicodeDecodeError
        try:
            return strict_json(text)
        except limits.LimitError as error:
            flask_smorest.abort(422, messages={"json": _field_message(error)})


def strict_json(text: str) -> Any:
    """Returns the JSON value of a request body's text, held to the limits of
    StrictJSONParser. Raises json.JSONDecodeError for what is not JSON (400
    malformed_json) and limits.LimitError for what breaks a limit (422)."""
    try:
        if limits.nesting_depth(text) > PARSE_DEPTH:  # refused before json.loads recurses
            limits.check_json_text(text, "json")
        value = json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
            parse_int=_json_int,
        )
        return limits.check_json(value, "json")
    except (limits.LimitError, json.JSONDecodeError):
        raise
    except ValueError as error:  # e.g. an integer of more digits than Python converts
        raise json.JSONDecodeError(str(error), text, 0) from None


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint with the strict JSON parser and no pagination header."""

    ARGUMENTS_PARSER = StrictJSONParser()
    PAGINATION_HEADER_NAME = None


def _field_message(error: limits.LimitError) -> dict[str, list[str]]:
    """Returns webargs' message for a body's fault, under its top-level field (`_schema`
    for the body itself)."""
    top = re.match(r"json\.([^.\[]*)", error.field)
    return {top.group(1) if top else "_schema": [error.reason]}


def _json_int(digits: str) -> int:
    """Returns a JSON integer literal's value; one of more than PARSE_DIGITS digits is
    refused for the whole body (LimitError), a shorter one out of range by check_json,
    naming its field."""
    return limits.json_int(digits) if len(digits) > PARSE_DIGITS else int(digits)


def _refuse_constant(name: str) -> Any:
    raise json.JSONDecodeError(f"{name} is not JSON", name, 0)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise json.JSONDecodeError(f"{text} is too large a number", text, 0)
    return value
