"""The schemas of the match resource (api/matches.py): create, list, start, extend a
deadline; a match and a page of matches."""

from __future__ import annotations

import marshmallow as ma

from api.fields import (
    QueryInteger,
    StrictBoolean,
    StrictInteger,
    movement_number,
    page_cursor,
    recorded_reason,
    within_limits,
)
from api.schemas.common import OutcomeSchema, SeatSchema
from domain.rules.registry import ruleset_names
from service import limits
from service.readmodels.queries import DISPUTE_FILTERS, STATUSES


class CreateMatchSchema(ma.Schema):
    # The enum documents the registry; the service refuses other names (unknown_ruleset).
    ruleset = ma.fields.String(
        required=True,
        validate=ma.validate.Length(1, 64),
        metadata={
            "description": "a ruleset name (GET /rulesets)",
            "enum": list(ruleset_names()),
            "example": "district_war",
        },
    )
    ruleset_version = StrictInteger(
        validate=ma.validate.Range(1, limits.MAX_POSITION),
        load_default=None,
        metadata={"description": "an installed version (GET /rulesets; default: the latest)"},
    )
    preset = ma.fields.String(
        validate=ma.validate.Length(1, 64),
        load_default=None,
        metadata={
            "description": "a preset of the ruleset (GET /rulesets): its values, then `config`'s "
            "on top; the match records the expanded values",
            "example": "postal",
        },
    )
    config = ma.fields.Dict(
        keys=ma.fields.String(),
        load_default=dict,
        validate=within_limits(limits.check_config),
        metadata={
            "description": "config options (the preset's, then the defaults, fill the rest)",
            "example": {"troops": 2},
        },
    )
    seats = StrictInteger(
        validate=ma.validate.Range(1, limits.MAX_SEATS),
        load_default=None,
        metadata={"description": "exact number of seats (default: the ruleset's range)"},
    )
    deadline_seconds = StrictInteger(
        validate=ma.validate.Range(1, limits.MAX_SECONDS),
        load_default=None,
        metadata={"description": "every movement's length (default: the ruleset's)"},
    )
    rated = StrictBoolean(
        load_default=False,
        metadata={
            "description": "whether its result counts for its players' ratings (issue 45; "
            "docs/tournaments.md#players-and-ratings): a match whose seats all name players"
        },
    )


class ListMatchesArgsSchema(ma.Schema):
    ruleset = ma.fields.String(load_default=None, validate=ma.validate.Regexp(limits.RULESET_NAME))
    status = ma.fields.String(load_default=None, validate=ma.validate.OneOf(STATUSES))
    disputes = ma.fields.String(
        load_default=None,
        validate=ma.validate.OneOf(DISPUTE_FILTERS),
        metadata={"description": "open: only the matches with a dispute awaiting a ruling"},
    )
    limit = QueryInteger(load_default=50, validate=ma.validate.Range(1, 200))
    cursor = page_cursor()


class StartSchema(ma.Schema):
    state = ma.fields.Raw(
        load_default=None,
        validate=within_limits(lambda state: limits.check_json(state, "state")),
        metadata={
            "description": "a starting state (the ruleset's state JSON; default: the initial one)"
        },
    )
    movement = movement_number("the number of the first movement", load_default=1)


class ExtendDeadlineSchema(ma.Schema):
    seconds = StrictInteger(
        required=True,
        validate=ma.validate.Range(1, limits.MAX_SECONDS),
        metadata={"description": "seconds to add to the current deadline", "example": 300},
    )
    movement = movement_number("the open movement (default: it)", load_default=None)
    reason = recorded_reason(
        "why the referee extends it (recorded)", "mail down", load_default=None
    )


class SeatLimitsSchema(ma.Schema):
    min = ma.fields.Integer(required=True)
    max = ma.fields.Integer(required=True)


class DisputeCountsSchema(ma.Schema):
    open = ma.fields.Integer(required=True, metadata={"description": "awaiting a ruling"})
    ruled = ma.fields.Integer(required=True, metadata={"description": "dismissed or upheld"})


class MatchListItemSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    ruleset = ma.fields.String(required=True)
    ruleset_version = ma.fields.Integer(required=True)
    status = ma.fields.String(required=True, metadata={"enum": list(STATUSES)})
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True)
    seat_limits = ma.fields.Nested(SeatLimitsSchema, required=True)
    movement = ma.fields.Integer(required=True)
    deadline = ma.fields.String(
        required=True, allow_none=True, metadata={"description": "UTC instant, ISO 8601"}
    )
    created_at = ma.fields.String(allow_none=True)
    started_at = ma.fields.String(allow_none=True)
    finished_at = ma.fields.String(allow_none=True)
    result = ma.fields.String(allow_none=True, metadata={"description": "the outcome's result"})
    disputes = ma.fields.Nested(
        DisputeCountsSchema,
        required=True,
        metadata={"description": "how many disputes await the referee's ruling, how many ruled"},
    )


class QuarantineSchema(ma.Schema):
    movement = ma.fields.Integer(
        required=True, metadata={"description": "the movement whose resolution kept failing"}
    )
    error = ma.fields.String(required=True, metadata={"description": "the exception's name"})
    message = ma.fields.String(required=True, metadata={"description": "the exception, as text"})
    failures = ma.fields.Integer(
        required=True, metadata={"description": "identical failures in a row"}
    )
    at = ma.fields.String(required=True, metadata={"description": "when it was quarantined"})


class PauseSchema(ma.Schema):
    at = ma.fields.String(required=True, metadata={"description": "when the clock stopped"})
    deadline = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the open deadline when the clock stopped (null: none)"},
    )
    reason = ma.fields.String(required=True, metadata={"description": "the referee's reason"})
    by = ma.fields.String(required=True, metadata={"description": "referee or operator"})


class MatchSchema(MatchListItemSchema):
    to_move = ma.fields.List(ma.fields.Integer(), required=True)
    version = ma.fields.Integer(required=True, metadata={"description": "events so far"})
    config = ma.fields.Dict(required=True)
    strikes = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Integer(), required=True)
    eliminated = ma.fields.List(ma.fields.Integer(), required=True)
    outcome = ma.fields.Nested(OutcomeSchema, required=True, allow_none=True)
    seed_commitment = ma.fields.String(required=True)
    chain = ma.fields.String(required=True, metadata={"description": "the chain head"})
    rematch_id = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the rematch of this drawn match (DW-5)"},
    )
    rematch_of = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the drawn match this one is the rematch of (DW-5)"},
    )
    quarantined = ma.fields.Nested(
        QuarantineSchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "why the service stopped resolving the match (null when it did "
            "not): its resolution kept failing; the referee's POST /matches/{id}/retry lifts it"
        },
    )
    timeline = ma.fields.Integer(
        required=True,
        metadata={"description": "1, or one more after each correction (GET .../corrections)"},
    )
    paused = ma.fields.Nested(
        PauseSchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "the referee's pause of the clock (null when running): no "
            "deadline passes; the resume moves the deadline later by the pause"
        },
    )
    replay_id = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "deprecated alias of `rematch_id`", "deprecated": True},
    )
    replay_of = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "deprecated alias of `rematch_of`", "deprecated": True},
    )


class MatchPageSchema(ma.Schema):
    items = ma.fields.List(ma.fields.Nested(MatchListItemSchema), required=True)
    next = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the cursor of the next page, or null"},
    )


class NewMatchSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    referee_token = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "shown once; null when an idempotency key found an earlier match"},
    )
    created = ma.fields.Boolean(required=True)
