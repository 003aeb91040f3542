"""The schemas of a match's event log (api/events.py): the filters and long poll of a read,
an event and a page of them."""

from __future__ import annotations

import marshmallow as ma

from api.fields import (
    QueryInteger,
    query_movement,
    query_seat,
)
from service import limits
from service.queries.eventfilter import EVENT_TYPES

MAX_WAIT_SECONDS = 3600  # asked; the server waits at most DRTS_LONG_POLL_MAX_SECONDS


EVENT_TYPE_NAME = "(" + "|".join(EVENT_TYPES) + ")"


EVENT_TYPE_LIST = f"^{EVENT_TYPE_NAME}(,{EVENT_TYPE_NAME})*$"  # one or more, comma-separated


class EventsArgsSchema(ma.Schema):
    after = QueryInteger(
        load_default=0,
        validate=ma.validate.Range(0, limits.MAX_POSITION),
        metadata={"description": "only events after this version"},
    )
    limit = QueryInteger(load_default=100, validate=ma.validate.Range(1, 1000))
    wait = QueryInteger(
        load_default=0,
        validate=ma.validate.Range(0, MAX_WAIT_SECONDS),
        metadata={
            "description": "whole seconds to wait for a newer event when there is none "
            "(capped by the server, 30 by default)"
        },
    )
    types = ma.fields.List(
        ma.fields.String(
            validate=ma.validate.Length(1, 1000),
            # documented, not enforced here: the service names unknown types (400)
            metadata={"pattern": EVENT_TYPE_LIST},
        ),
        data_key="type",
        load_default=None,
        validate=ma.validate.Length(max=100),
        metadata={
            "description": "only events of these types (repeat it, or separate names with "
            "commas; any of them): e.g. OrderSubmitted,MovementResolved"
        },
    )
    movement = query_movement("only events whose data names this movement")
    seat = query_seat("only events whose data names this seat")


class EventSchema(ma.Schema):
    type = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    timestamp = ma.fields.String(required=True)
    data = ma.fields.Dict(required=True)
    chain = ma.fields.String(required=True)
    sealed = ma.fields.Dict(
        metadata={"description": "secret values, where the viewer may see them (docs/integrity.md)"}
    )


class EventPageSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    items = ma.fields.List(ma.fields.Nested(EventSchema), required=True)
    next = ma.fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "pass as `after` for the next page; null when this page is the "
            "last (with filters: when no later event passes them)"
        },
    )
    version = ma.fields.Integer(
        required=True,
        metadata={"description": "the match's latest version: pass as `after` to wait for news"},
    )
