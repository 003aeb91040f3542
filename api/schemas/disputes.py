"""The schemas of disputes (api/disputes.py): filing, ruling, a dispute and a page of them."""

from __future__ import annotations

import marshmallow as ma

from api.fields import (
    QueryInteger,
    StrictInteger,
    query_seat,
)
from api.schemas.events import EventSchema
from domain.match.disputes import RULINGS
from service import limits
from service.queries import disputes


class DisputesArgsSchema(ma.Schema):
    after = QueryInteger(
        load_default=0,
        validate=ma.validate.Range(0, limits.MAX_POSITION),
        metadata={"description": "only disputes numbered after this one (the `next` of a page)"},
    )
    limit = QueryInteger(
        load_default=disputes.PAGE_SIZE, validate=ma.validate.Range(1, disputes.MAX_PAGE_SIZE)
    )
    status = ma.fields.String(
        load_default=None,
        validate=ma.validate.OneOf(disputes.STATUSES),
        metadata={"description": "open: only those awaiting a ruling; ruled: only those ruled"},
    )
    seat = query_seat("only those this seat filed")


class FileDisputeSchema(ma.Schema):
    cites = ma.fields.List(
        StrictInteger(validate=ma.validate.Range(1, limits.MAX_POSITION)),
        required=True,
        validate=ma.validate.Length(max=limits.MAX_CITES),
        metadata={
            "description": "the event versions the dispute is about (at least one; a seat may "
            "not cite another seat's order or refusal while its movement is open)",
            "example": [7],
        },
    )
    text = ma.fields.String(
        required=True,
        validate=ma.validate.Length(1, limits.MAX_DISPUTE_CHARS),
        metadata={
            "description": "what is disputed, and why (public; not blank)",
            "example": "my order reached the server before the deadline",
        },
    )


class RulingSchema(ma.Schema):
    ruling = ma.fields.String(
        required=True,
        validate=ma.validate.OneOf(RULINGS),
        metadata={
            "description": "dismissed, or upheld with a note (a correction naming the "
            "dispute upholds it with the correction: POST .../corrections)"
        },
    )
    reason = ma.fields.String(
        required=True,
        validate=ma.validate.Length(1, limits.MAX_DISPUTE_CHARS),
        metadata={"description": "why (public; not blank)", "example": "the log shows it late"},
    )


class DisputeSchema(ma.Schema):
    dispute = ma.fields.Integer(required=True, metadata={"description": "its number: 1, 2, ..."})
    status = ma.fields.String(required=True, metadata={"enum": ["open", "ruled"]})
    by = ma.fields.String(required=True, metadata={"enum": ["seat", "referee", "operator"]})
    seat = ma.fields.Integer(
        required=True, allow_none=True, metadata={"description": "the filing seat, if a seat"}
    )
    movement = ma.fields.Integer(
        required=True,
        metadata={"description": "the movement open when filed (the last played once finished)"},
    )
    cites = ma.fields.List(ma.fields.Integer(), required=True)
    text = ma.fields.String(required=True)
    version = ma.fields.Integer(
        required=True, metadata={"description": "the version of its DisputeFiled event"}
    )
    filed_at = ma.fields.String(required=True, metadata={"description": "UTC instant, ISO 8601"})
    ruling = ma.fields.String(required=True, allow_none=True, metadata={"enum": [*RULINGS, None]})
    reason = ma.fields.String(required=True, allow_none=True)
    ruled_by = ma.fields.String(required=True, allow_none=True)
    ruled_version = ma.fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "the version of its DisputeRuled event"},
    )
    ruled_at = ma.fields.String(required=True, allow_none=True)
    correction = ma.fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "the correction an upheld dispute led to (null until issue 18)"},
    )


class DisputePageSchema(ma.Schema):
    items = ma.fields.List(ma.fields.Nested(DisputeSchema), required=True)
    next = ma.fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "pass as `after` for the next page; null when this page is the "
            "last (with filters: when no later dispute passes them)"
        },
    )


class DisputeWithEventsSchema(DisputeSchema):
    events = ma.fields.List(
        ma.fields.Nested(EventSchema),
        required=True,
        metadata={"description": "the cited events, as anyone may see them"},
    )
