"""The query strings of the pages, declared like the API's (api/strictness.py).

`declares_query(Schema)` loads the view's query string with a marshmallow schema and
passes it as the view's first argument (an empty value, as a form's "any" choice
sends, counts as not given). It records the schema where flask-smorest's
`@blp.arguments(Schema, location="query")` does (`_apidoc`), so the app-wide rule
refuses an undeclared parameter here too (400 unknown_parameter), and a parameter
with a bad value gets the pages' error page (422).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import marshmallow as ma
from flask import request

from api.fields import QueryInteger


class PageQueryError(Exception):
    """A page's query parameter has a value the page cannot use (422 on the error page)."""

    code = "validation_error"

    def __init__(self, messages: Any) -> None:
        fields = messages if isinstance(messages, dict) else {"query": messages}
        super().__init__(
            "the query is invalid: "
            + "; ".join(f"{name}: {' '.join(map(str, why))}" for name, why in fields.items())
        )


class TimelineArgsSchema(ma.Schema):
    """The timeline of a corrected match to show (None: the current one)."""

    timeline = QueryInteger(load_default=None, validate=ma.validate.Range(1, 2**31 - 1))


class ReplayArgsSchema(TimelineArgsSchema):
    """The position of the replay scrubber: a resolved movement and a phase of it, in a
    timeline of a corrected match (None: the current one)."""

    movement = QueryInteger(load_default=None, validate=ma.validate.Range(1, 2**31 - 1))
    phase = QueryInteger(load_default=None, validate=ma.validate.Range(0, 10_000))


def declares_query(schema_class: type[ma.Schema]) -> Callable[..., Any]:
    """Returns a decorator giving a view its loaded query string as first argument."""
    schema = schema_class()

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def load_then_view(*args: Any, **kwargs: Any) -> Any:
            try:
                query = schema.load({k: v for k, v in request.args.items() if v != ""})
            except ma.ValidationError as error:
                raise PageQueryError(error.messages) from None
            return view(query, *args, **kwargs)

        load_then_view._apidoc = {  # type: ignore[attr-defined]
            "arguments": {"parameters": [{"in": "query", "schema": schema}]}
        }
        return load_then_view

    return decorate
