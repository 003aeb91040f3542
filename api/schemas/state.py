"""The schemas of a match's state and Public Display (api/state.py): which movement,
phase, seat and timeline are asked for; the state and the scores."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from api.fields import (
    QueryInteger,
    query_movement,
    query_seat,
    timeline_parameter,
)
from api.schemas.common import HeadSchema, OutcomeSchema, StepSchema
from api.schemas.orders import PendingOrderSchema
from service import limits


class AtMovementArgsSchema(ma.Schema):
    movement = query_movement("when this movement was open (default: now)")
    timeline = timeline_parameter()


STEP_REMOVED = (
    "`step` was removed: it gave the state the movement started from whatever its value. "
    "Ask for `phase=K` (the state after phase K of the movement's resolution; 0: before it); "
    "the steps are in the answer's `steps`, the event log and the replay"
)


class StateArgsSchema(AtMovementArgsSchema):
    phase = QueryInteger(
        load_default=None,
        validate=ma.validate.Range(0, limits.MAX_POSITION),
        metadata={
            "description": "the state after this phase of the movement's resolution (0: before "
            "it; the phases of each game are on its page); only a resolved movement has phases"
        },
    )
    seat = query_seat("this seat's view (its token or the referee's)")

    REMOVED_PARAMETERS = ("step",)  # refused below with what to ask instead (api/strictness.py)

    @ma.pre_load
    def refuse_step(self, data: Any, **kwargs: Any) -> Any:
        """Refuses the removed `step` parameter with what to ask instead."""
        if "step" in data:
            raise ma.ValidationError(STEP_REMOVED, field_name="step")
        return data


class DisplayArgsSchema(ma.Schema):
    movement = query_movement("the position after this resolved movement (default: now)")
    timeline = timeline_parameter()


class StateSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    movement = ma.fields.Integer(required=True)
    phase = ma.fields.Integer(
        required=True, allow_none=True, metadata={"description": "the phase asked for, or null"}
    )
    phase_name = ma.fields.String(required=True, allow_none=True)
    phases = ma.fields.List(
        ma.fields.String(),
        required=True,
        metadata={"description": "with a phase: the names of phases 1..n of the resolution"},
    )
    version = ma.fields.Integer(
        required=True,
        metadata={"description": "the version read (with a phase: the MovementResolved event's)"},
    )
    state = ma.fields.Raw(
        required=True, metadata={"description": "the ruleset's state JSON (or a seat's view of it)"}
    )
    steps = ma.fields.List(
        ma.fields.Nested(StepSchema),
        required=True,
        metadata={"description": "with a phase: the steps of phases 1..phase"},
    )
    outcome = ma.fields.Nested(OutcomeSchema, required=True, allow_none=True)
    orders = ma.fields.List(
        ma.fields.Nested(PendingOrderSchema),
        required=True,
        metadata={
            "description": "the looking seat's own orders for the open movement (empty for others)"
        },
    )
    head = ma.fields.Nested(
        HeadSchema,
        required=True,
        metadata={"description": "the log's head after the write that gave this state"},
    )
    timeline = ma.fields.Integer(
        required=True,
        metadata={"description": "the timeline read: the current one unless asked (corrections)"},
    )


class ScoresSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    movement = ma.fields.Integer(required=True)
    outcome = ma.fields.Nested(OutcomeSchema, required=True, allow_none=True)
