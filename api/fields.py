"""The request fields of the API's schemas that hold input to the limits of service/limits.py
(the same checks the use cases make), and strict integers in bodies and query strings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma

from service import limits

MAX_QUERY_DIGITS = 10
# service/limits.py's stored-text rule as JSON Schema patterns, for the OpenAPI document:
# no control character (C0, DEL, C1), but tab and line breaks in text of lines
ONE_LINE = {"pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"}
LINES = {"pattern": "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$"}


def checked(check: Callable[[Any], Any], value: Any) -> Any:
    """Returns what a service/limits.py check returns; its LimitError becomes the
    field's ValidationError."""
    try:
        return check(value)
    except limits.LimitError as error:
        raise ma.ValidationError(error.reason) from None


def within_limits(check: Callable[[Any], Any]) -> Callable[[Any], None]:
    """Returns a marshmallow validator running a service/limits.py check."""

    def validate(value: Any) -> None:
        checked(check, value)

    return validate


class StrictInteger(ma.fields.Integer):
    """An integer in a JSON body: a JSON number without a fraction, as JSON Schema (and so
    the OpenAPI document) counts integers: 3 or 3.0, not "3", 3.5 or true."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _validated(self, value: Any) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return super()._validated(value)


class QueryInteger(ma.fields.Integer):
    """An integer in a query string, written in ASCII digits only: no sign, point,
    exponent, space or underscore."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if not (
            isinstance(value, str)
            and value.isascii()
            and value.isdigit()
            and len(value) <= MAX_QUERY_DIGITS
        ):
            raise ma.ValidationError(
                f"write a whole number in digits only (0-9, at most {MAX_QUERY_DIGITS} of them)"
            )
        return int(value)


class StrictBoolean(ma.fields.Boolean):
    """A JSON true or false, nothing else (marshmallow's Boolean takes 0, 1, "yes", ...)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ma.ValidationError("write true or false")
        return value


class PlayerName(ma.fields.String):
    """A player name, normalised to NFC and held to the name rule (service/limits.py)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        return str(checked(limits.player_name, super()._deserialize(value, attr, data, **kwargs)))


class OrderField(ma.fields.Field[Any]):
    """An order as the game's order text (a string) or its JSON form (an object)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not ((isinstance(value, str) and value.strip()) or isinstance(value, dict)):
            raise ma.ValidationError(
                "an order is the game's order text (a non-empty string) or its JSON form "
                "(an object)"
            )
        checked(limits.check_order, value)
        return value


# -- the fields several schemas declare alike: each written here once -----------------------

CURSOR_PATTERN = r"^[1-9][0-9]{0,17}$"  # a log position
MAX_REASON_CHARS = 1000


def stored_text(field: str, max_chars: int, lines: bool = False, min_chars: int = 1) -> Any:
    """Returns a validator holding a text field to the stored-text rule (limits.py)."""
    return within_limits(
        lambda text: limits.check_text(text, field, max_chars, lines=lines, min_chars=min_chars)
    )


def movement_number(description: str, **options: Any) -> StrictInteger:
    """Returns a movement number in a body (1 to limits.MAX_MOVEMENT)."""
    return StrictInteger(
        validate=ma.validate.Range(1, limits.MAX_MOVEMENT),
        metadata={"description": description},
        **options,
    )


def query_movement(description: str) -> QueryInteger:
    """Returns an optional movement number in a query string (1 to limits.MAX_MOVEMENT)."""
    return QueryInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_MOVEMENT),
        metadata={"description": description},
    )


def query_seat(description: str) -> QueryInteger:
    """Returns an optional seat number in a query string (1 to limits.MAX_SEATS)."""
    return QueryInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_SEATS),
        metadata={"description": description},
    )


def timeline_parameter(
    description: str = "an earlier timeline of a corrected match (1: the original), as it "
    "stood (now: where it ended); default: the current one",
) -> QueryInteger:
    """Returns the `timeline` query parameter: an earlier timeline of a corrected match."""
    return query_movement(description)


def page_cursor() -> ma.fields.String:
    """Returns the `cursor` query parameter of a paged list: the `next` of the last page."""
    return ma.fields.String(
        load_default=None,
        validate=ma.validate.Regexp(CURSOR_PATTERN),
        metadata={"description": "the `next` of the previous page"},
    )


def recorded_reason(description: str, example: str, **options: Any) -> ma.fields.String:
    """Returns the referee's reason for an act, recorded with it: text of lines."""
    return ma.fields.String(
        validate=ma.validate.Length(1, MAX_REASON_CHARS),
        metadata={"description": description, "example": example, **LINES},
        **options,
    )
