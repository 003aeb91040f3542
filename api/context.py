"""What the views share: their Blueprint class, the Matches application, the bearer token."""

from __future__ import annotations

import json
from typing import Any

import flask_smorest
from flask import current_app, request
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

from domain.errors import InvalidTokenError
from service.matches import Matches

EXTENSION = "drts.matches"
BEARER = "bearer"


def matches() -> Matches:
    """Returns the process's one Matches application (made by create_app)."""
    app: Matches = current_app.extensions[EXTENSION]
    return app


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


class StrictJSONParser(FlaskParser):
    """webargs' Flask parser, refusing NaN and Infinity in JSON bodies (400 malformed_json):
    Python's json accepts them, but they are not JSON and cannot be hashed canonically."""

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return core.missing
        text = req.get_data(cache=True).decode("utf-8")  # webargs answers UnicodeDecodeError
        return json.loads(text, parse_constant=_refuse_constant)


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint with the strict JSON parser and no pagination header."""

    ARGUMENTS_PARSER = StrictJSONParser()
    PAGINATION_HEADER_NAME = None


def _refuse_constant(name: str) -> Any:
    raise json.JSONDecodeError(f"{name} is not JSON", name, 0)
