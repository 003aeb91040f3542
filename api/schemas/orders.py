"""The schemas of orders (api/orders.py): an order in, its receipt (with the closing it
may have caused) out, the pending orders of a movement."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from api.fields import (
    OrderField,
    movement_number,
)
from api.schemas.common import HEAD_AFTER_WRITE, HeadSchema, StepSchema
from service import limits
from service.results import Closing, Head, OrderReceipt


class OrderRequestSchema(ma.Schema):
    order = OrderField(
        required=True,
        metadata={
            "description": "the order as the game's text, or its JSON form",
            "oneOf": [
                {"type": "string", "minLength": 1, "maxLength": limits.LONGEST_ORDER_CHARS},
                {"type": "object"},
            ],
            "example": "e4",
        },
    )
    movement = movement_number(
        "the movement it is meant for (default: the open one)", load_default=None
    )
    source = ma.fields.String(load_default="api", validate=ma.validate.OneOf(("api", "bot")))


class ClosingSchema(ma.Schema):
    movement = ma.fields.Integer(required=True)
    strikes = ma.fields.List(ma.fields.Integer(), required=True)
    eliminated = ma.fields.List(ma.fields.Integer(), required=True)
    resolved = ma.fields.Boolean(required=True)
    steps = ma.fields.List(ma.fields.Nested(StepSchema), required=True)
    finished = ma.fields.Boolean(required=True)
    rematch_id = ma.fields.UUID(
        required=True,
        allow_none=True,
        metadata={"description": "the rematch of the match this closing drew (DW-5), else null"},
    )
    replay_id = ma.fields.UUID(
        required=True,
        allow_none=True,
        metadata={"description": "deprecated alias of `rematch_id`", "deprecated": True},
    )
    head = ma.fields.Nested(
        HeadSchema, required=True, allow_none=True, metadata={"description": HEAD_AFTER_WRITE}
    )


class RefusedPartSchema(ma.Schema):
    part = ma.fields.String(required=True, metadata={"description": "the part as written"})
    reason = ma.fields.String(required=True)


class ReceiptSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    seat = ma.fields.Integer(required=True)
    movement = ma.fields.Integer(required=True)
    digest = ma.fields.String(
        required=True,
        metadata={"description": "SHA-256(salt || canonical order): proves later what was sent"},
    )
    received_at = ma.fields.DateTime(required=True)
    closing = ma.fields.Nested(
        ClosingSchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "what the order set off: the movement closed once every seat ordered"
        },
    )
    refused = ma.fields.List(
        ma.fields.Nested(RefusedPartSchema),
        required=True,
        metadata={
            "description": "the parts of the message refused, each with its reason; the "
            "other parts stand (games that take a message part by part: DRTS v2, B-Chess)"
        },
    )
    standing = ma.fields.Raw(
        required=True,
        allow_none=True,
        metadata={
            "description": "the seat's whole standing order after this message, as the "
            "game's order policy combines its orders of the movement (a list when they "
            "accumulate)"
        },
    )
    version = ma.fields.Integer(
        required=True, metadata={"description": "the version of the OrderSubmitted event"}
    )
    head = ma.fields.Nested(HeadSchema, required=True, metadata={"description": HEAD_AFTER_WRITE})


def receipt_json(receipt: OrderReceipt) -> dict[str, Any]:
    """Returns the receipt's JSON form, what `ReceiptSchema().dump(receipt)` gives, built
    directly (issue 46: the order route's dump cost a marshmallow pass per request);
    tests/api/test_order_route.py holds the two equal, byte for byte over HTTP."""
    return {
        "match_id": str(receipt.match_id),
        "seat": int(receipt.seat),
        "movement": int(receipt.movement),
        "digest": str(receipt.digest),
        "received_at": receipt.received_at.isoformat(),
        "closing": None if receipt.closing is None else _closing_json(receipt.closing),
        "refused": [{"part": str(p.part), "reason": str(p.reason)} for p in receipt.refused],
        "standing": receipt.standing,
        "version": int(receipt.version),
        "head": _head_json(receipt.head),
    }


def _closing_json(closing: Closing) -> dict[str, Any]:
    """Returns what `ClosingSchema().dump(closing)` gives."""
    rematch = None if closing.rematch_id is None else str(closing.rematch_id)
    return {
        "movement": int(closing.movement),
        "strikes": [int(seat) for seat in closing.strikes],
        "eliminated": [int(seat) for seat in closing.eliminated],
        "resolved": bool(closing.resolved),
        "steps": [
            {"rule": str(step.rule), "text": str(step.text), "data": dict(step.data)}
            for step in closing.steps
        ],
        "finished": bool(closing.finished),
        "rematch_id": rematch,
        "replay_id": rematch,
        "head": _head_json(closing.head),
    }


def _head_json(head: Head | None) -> dict[str, Any] | None:
    """Returns what `HeadSchema().dump(head)` gives."""
    return None if head is None else {"version": int(head.version), "chain": str(head.chain)}


class PendingOrderSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    movement = ma.fields.Integer(required=True)
    order = ma.fields.Raw(required=True, metadata={"description": "the order's JSON form"})
    digest = ma.fields.String(required=True)
    received_at = ma.fields.String(required=True)
    source = ma.fields.String(required=True)
    message_id = ma.fields.String(required=True, allow_none=True)
    sent = ma.fields.Raw(
        required=True,
        allow_none=True,
        metadata={
            "description": "the order exactly as the seat sent it (text or JSON object); "
            "null for an order stored before orders were kept as sent"
        },
    )


class PendingOrdersSchema(ma.Schema):
    items = ma.fields.List(ma.fields.Nested(PendingOrderSchema), required=True)
    standing = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Raw(allow_none=True),
        required=True,
        metadata={
            "description": "per seat (its own; every seat's for the referee), its whole standing "
            "order as the game's order policy combines its orders of the movement"
        },
    )
