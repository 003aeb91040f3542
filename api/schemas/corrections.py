"""The schemas of corrections (api/corrections.py, issue 19): the order changes asked,
the correction made and the list of them."""

from __future__ import annotations

import marshmallow as ma

from api.fields import (
    OrderField,
    StrictInteger,
    movement_number,
)
from api.schemas.common import HEAD_AFTER_WRITE, HeadSchema, OutcomeSchema
from service import limits


class OrderChangeSchema(ma.Schema):
    seat = StrictInteger(required=True, validate=ma.validate.Range(1, limits.MAX_SEATS))
    order = OrderField(
        required=True,
        allow_none=True,
        metadata={
            "description": "the seat's order for the movement instead of the ones it has, "
            "as the game's text or JSON form; null withdraws them",
            "oneOf": [
                {"type": "string", "minLength": 1, "maxLength": limits.LONGEST_ORDER_CHARS},
                {"type": "object"},
                {"type": "null"},
            ],
            "example": "hold",
        },
    )
    received_at = ma.fields.AwareDateTime(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "when the order counts as received, e.g. from its receipt "
            "(default: when the movement closed)"
        },
    )


class CorrectionRequestSchema(ma.Schema):
    movement = movement_number("the resolved movement to resolve again", required=True)
    changes = ma.fields.List(
        ma.fields.Nested(OrderChangeSchema),
        required=True,
        validate=ma.validate.Length(1, limits.MAX_SEATS),
    )
    reason = ma.fields.String(
        required=True,
        validate=ma.validate.Length(1, 1000),
        metadata={"description": "why the referee corrects (recorded)"},
    )
    dispute = StrictInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_MOVEMENT),
        metadata={"description": "the dispute this correction rules on (upheld)"},
    )


class RefusalSchema(ma.Schema):
    version = ma.fields.Integer(required=True, metadata={"description": "the refused input"})
    type = ma.fields.String(required=True)
    seat = ma.fields.Integer(required=True, allow_none=True)
    error = ma.fields.String(
        required=True,
        metadata={"description": "its error code; refused_part: the order stands without parts"},
    )
    reason = ma.fields.String(required=True)


class SupersededSchema(ma.Schema):
    first = ma.fields.Integer(required=True)
    last = ma.fields.Integer(required=True)


class CorrectionSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    movement = ma.fields.Integer(required=True, metadata={"description": "the corrected one"})
    timeline = ma.fields.Integer(required=True, metadata={"description": "the new timeline"})
    version = ma.fields.Integer(required=True, metadata={"description": "the Corrected event"})
    superseded = ma.fields.Nested(SupersededSchema, required=True)
    refused = ma.fields.List(
        ma.fields.Nested(RefusalSchema),
        required=True,
        metadata={"description": "the recorded inputs the new timeline refused"},
    )
    voided_rematch = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the rematch of a draw the correction made no draw"},
    )
    open_movement = ma.fields.Integer(required=True)
    outcome = ma.fields.Nested(OutcomeSchema, required=True)
    head = ma.fields.Nested(HeadSchema, required=True, metadata={"description": HEAD_AFTER_WRITE})


class CorrectionRecordSchema(ma.Schema):
    version = ma.fields.Integer(required=True, metadata={"description": "the Corrected event"})
    timestamp = ma.fields.String(required=True)
    movement = ma.fields.Integer(required=True)
    timeline = ma.fields.Integer(required=True)
    superseded = ma.fields.Nested(SupersededSchema, required=True)
    changes = ma.fields.List(ma.fields.Dict(), required=True)
    reason = ma.fields.String(required=True)
    by = ma.fields.String(required=True)
    dispute = ma.fields.Integer(required=True, allow_none=True)
    refused = ma.fields.List(ma.fields.Nested(RefusalSchema), required=True)
    voided_rematch = ma.fields.String(required=True, allow_none=True)


class CorrectionListSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    timeline = ma.fields.Integer(required=True, metadata={"description": "the current one"})
    items = ma.fields.List(ma.fields.Nested(CorrectionRecordSchema), required=True)
