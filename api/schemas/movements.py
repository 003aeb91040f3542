"""The schemas of a movement's record (api/movements.py): its orders, refusals, steps and
phases, and the check of a receipt against it."""

from __future__ import annotations

import marshmallow as ma

from api.fields import (
    timeline_parameter,
)
from api.schemas.common import OutcomeSchema, StepSchema
from domain.rules.contract import OrderPolicy


class MovementArgsSchema(ma.Schema):
    timeline = timeline_parameter()


class MovementOrderSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    version = ma.fields.Integer(
        required=True, allow_none=True, metadata={"description": "of its OrderSubmitted event"}
    )
    received_at = ma.fields.DateTime(required=True, allow_none=True)
    source = ma.fields.String(required=True, allow_none=True)
    message_id = ma.fields.String(required=True, allow_none=True)
    digest = ma.fields.String(required=True, metadata={"description": "its receipt digest"})
    salt = ma.fields.String(required=True)
    order = ma.fields.Raw(required=True, metadata={"description": "the parsed order (JSON form)"})
    sent = ma.fields.Raw(
        required=True,
        allow_none=True,
        metadata={
            "description": "the order exactly as sent (text or JSON object); null for an "
            "order stored before orders were kept as sent"
        },
    )
    used = ma.fields.Boolean(
        required=True, metadata={"description": "whether it went into the resolution"}
    )
    fate = ma.fields.String(
        required=True,
        metadata={
            "enum": ["counted", "replaced", "merged", "unused"],
            "description": "what the game's order policy did with it",
        },
    )
    replaced_by = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the digest of the seat's later order that replaced it"},
    )


class RefusedOrderSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    version = ma.fields.Integer(
        required=True, metadata={"description": "of its OrderRejected event"}
    )
    received_at = ma.fields.DateTime(required=True)
    source = ma.fields.String(required=True)
    message_id = ma.fields.String(required=True, allow_none=True)
    digest = ma.fields.String(
        required=True, metadata={"description": "empty for a refusal stored before sealing"}
    )
    salt = ma.fields.String(required=True, allow_none=True)
    sent = ma.fields.Raw(required=True, allow_none=True, metadata={"description": "as sent"})
    error = ma.fields.String(required=True)
    reason = ma.fields.String(required=True)


class MovementStepSchema(StepSchema):
    index = ma.fields.Integer(required=True)
    version = ma.fields.Integer(required=True, metadata={"description": "of its StepApplied"})


class PhaseViewSchema(ma.Schema):
    name = ma.fields.String(required=True)
    state = ma.fields.Raw(required=True, metadata={"description": "the state after the phase"})
    steps = ma.fields.List(ma.fields.Nested(StepSchema), required=True)


class MovementRecordSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    movement = ma.fields.Integer(required=True)
    ruleset = ma.fields.String(required=True)
    ruleset_version = ma.fields.Integer(required=True)
    order_policy = ma.fields.String(
        required=True, metadata={"enum": [policy.value for policy in OrderPolicy]}
    )
    reason = ma.fields.String(
        required=True,
        metadata={"enum": ["all_ordered", "deadline"], "description": "why it closed"},
    )
    closed_at = ma.fields.DateTime(required=True, metadata={"description": "its intended close"})
    opened_version = ma.fields.Integer(required=True)
    closed_version = ma.fields.Integer(required=True)
    resolved_version = ma.fields.Integer(required=True)
    orders = ma.fields.List(
        ma.fields.Nested(MovementOrderSchema),
        required=True,
        metadata={"description": "every order of the movement, in arrival order"},
    )
    refused = ma.fields.List(
        ma.fields.Nested(RefusedOrderSchema),
        required=True,
        metadata={"description": "the orders aimed at it and refused, with their reasons"},
    )
    strikes = ma.fields.List(ma.fields.Dict(), required=True)
    eliminated = ma.fields.List(ma.fields.Dict(), required=True)
    steps = ma.fields.List(ma.fields.Nested(MovementStepSchema), required=True)
    state_before = ma.fields.Raw(
        required=True, metadata={"description": "the state the resolution started from"}
    )
    state_after = ma.fields.Raw(required=True, metadata={"description": "the state it gave"})
    state_hash = ma.fields.String(required=True, metadata={"description": "of the full state"})
    outcome = ma.fields.Nested(OutcomeSchema, required=True)
    phases = ma.fields.List(
        ma.fields.Nested(PhaseViewSchema),
        required=True,
        allow_none=True,
        metadata={"description": "null when not shown; phases_note says why"},
    )
    phases_note = ma.fields.String(required=True, allow_none=True)
    timeline = ma.fields.Integer(
        required=True,
        metadata={"description": "the timeline read: the current one unless asked (corrections)"},
    )


class ReceiptCheckSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    digest = ma.fields.String(required=True)
    kind = ma.fields.String(
        required=True,
        metadata={"enum": ["order", "refusal"], "description": "an accepted or a refused order"},
    )
    seat = ma.fields.Integer(required=True)
    movement = ma.fields.Integer(required=True)
    received_at = ma.fields.DateTime(required=True)
    source = ma.fields.String(required=True)
    message_id = ma.fields.String(required=True, allow_none=True)
    version = ma.fields.Integer(required=True, metadata={"description": "the event holding it"})
    type = ma.fields.String(required=True, metadata={"enum": ["OrderSubmitted", "OrderRejected"]})
    chain = ma.fields.String(required=True, metadata={"description": "that event's chain link"})
    revealed = ma.fields.Boolean(
        required=True, metadata={"description": "whether the order is public yet"}
    )
    order = ma.fields.Raw(
        required=True, allow_none=True, metadata={"description": "the parsed order, once revealed"}
    )
    sent = ma.fields.Raw(
        required=True, allow_none=True, metadata={"description": "the order as sent, once revealed"}
    )
    salt = ma.fields.String(required=True, allow_none=True)
    error = ma.fields.String(required=True, allow_none=True)
    reason = ma.fields.String(required=True, allow_none=True)
    used = ma.fields.Boolean(required=True, allow_none=True)
    fate = ma.fields.String(required=True, allow_none=True)
