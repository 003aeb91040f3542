"""Every endpoint refuses query parameters it does not know: 400 `unknown_parameter`.

A typo in a parameter (`?movment=3`) would otherwise be ignored silently and answer
something else than what was asked. The rule is made once for the whole app, not per
view: before any view runs, the request's query parameters are held to those its
view declares with flask-smorest's `@blp.arguments(Schema, location="query")` (the
schema's load fields, by their data keys). A view that declares none, including
flask's own (/openapi.json, /docs, static assets), accepts none. Views added later
are covered the same way without doing anything.

A schema may name parameters that were removed (`REMOVED_PARAMETERS`): they pass
here so that the schema refuses them itself, saying what to ask instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import marshmallow as ma
from flask import Flask, current_app, request

QUERY_LOCATIONS = ("query", "querystring")  # webargs' two names for it


class UnknownParameterError(Exception):
    """Raised for a request with query parameters its endpoint does not accept."""

    code = "unknown_parameter"

    def __init__(self, unknown: list[str], accepted: list[str]) -> None:
        names = ", ".join(repr(name) for name in unknown)
        offer = ", ".join(accepted) if accepted else "no query parameters"
        super().__init__(
            f"unknown query parameter{'s' if len(unknown) > 1 else ''} {names}: "
            f"this endpoint accepts {offer}"
        )
        self.details = {"unknown": unknown, "accepted": accepted}


def refuse_unknown_parameters(app: Flask) -> None:
    """Makes the app answer 400 unknown_parameter for any query parameter the matched
    view does not declare (a request that matches no route gets its 404 or 405)."""

    @app.before_request
    def hold_to_declared_parameters() -> None:
        if request.url_rule is None or not request.args:
            return
        view = current_app.view_functions.get(request.endpoint or "")
        accepted = accepted_parameters(handler_of(view, request.method))
        unknown = sorted(set(request.args) - accepted)
        if unknown:
            raise UnknownParameterError(unknown, sorted(accepted - removed(view, request.method)))


def handler_of(view: Callable[..., Any] | None, method: str) -> Callable[..., Any] | None:
    """Returns the function that answers `method` for a view (a MethodView's method)."""
    view_class = getattr(view, "view_class", None)
    if view_class is None:
        return view
    name = "get" if method == "HEAD" else method.lower()
    handler: Callable[..., Any] | None = getattr(view_class, name, None)
    return handler


def accepted_parameters(handler: Callable[..., Any] | None) -> frozenset[str]:
    """Returns the query parameters a view function declares, removed ones included."""
    names: set[str] = set()
    for schema in query_schemas(handler):
        names |= {field.data_key or name for name, field in schema.load_fields.items()}
        names |= set(getattr(schema, "REMOVED_PARAMETERS", ()))
    return frozenset(names)


def removed(view: Callable[..., Any] | None, method: str) -> frozenset[str]:
    """Returns the removed parameters the view's query schemas name (not offered)."""
    schemas = query_schemas(handler_of(view, method))
    return frozenset(name for s in schemas for name in getattr(s, "REMOVED_PARAMETERS", ()))


def query_schemas(handler: Callable[..., Any] | None) -> Iterable[ma.Schema]:
    """Returns the query-string schemas flask-smorest recorded on a view function."""
    apidoc = getattr(handler, "_apidoc", {}) or {}
    for parameter in apidoc.get("arguments", {}).get("parameters", []):
        if isinstance(parameter, dict) and parameter.get("in") in QUERY_LOCATIONS:
            schema = parameter["schema"]
            yield schema() if isinstance(schema, type) else schema
