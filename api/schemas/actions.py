"""The schemas of the referee's actions (api/actions.py): an action in, what it did out."""

from __future__ import annotations

import marshmallow as ma

from api.fields import (
    recorded_reason,
)
from api.schemas.common import OutcomeSchema, StepSchema


class ActionRequestSchema(ma.Schema):
    action = ma.fields.String(
        required=True,
        validate=ma.validate.Length(1, 64),
        metadata={
            "description": 'the referee\'s own forfeit ({"seat": n}), pause or resume (no '
            "args), or an action of the match's game (GET /rulesets/{name})"
        },
    )
    args = ma.fields.Dict(
        keys=ma.fields.String(),
        load_default=dict,
        metadata={"description": "the action's arguments", "example": {"seat": 1, "points": 2}},
    )
    reason = recorded_reason("why the referee acts (recorded)", "late mail", required=True)


class ActionTakenSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    movement = ma.fields.Integer(required=True, metadata={"description": "the open movement"})
    action = ma.fields.String(required=True)
    version = ma.fields.Integer(
        required=True, metadata={"description": "the version of the RefereeActed event"}
    )
    steps = ma.fields.List(ma.fields.Nested(StepSchema), required=True)
    outcome = ma.fields.Nested(OutcomeSchema, required=True)
