"""The shapes that more than one resource's schemas use: a match's outcome, a seat, a rule's
step, a head of the log, the Idempotency-Key header (the fields several schemas declare alike
are in api/fields.py)."""

from __future__ import annotations

import marshmallow as ma

from api.fields import (
    StrictInteger,
)
from service import limits


class IdempotencyHeaderSchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE  # every other request header

    idempotency_key = ma.fields.String(
        data_key="Idempotency-Key",
        load_default=None,
        validate=ma.validate.Length(1, limits.MAX_KEY_CHARS),
        metadata={
            "description": "a retry with the same key finds what the first request made "
            "(a create: the match; a dispute: the one its filer filed with the key)"
        },
    )


class OutcomeSchema(ma.Schema):
    result = ma.fields.String(
        required=True, metadata={"enum": ["ongoing", "win", "draw", "no_winner"]}
    )
    finished = ma.fields.Boolean(required=True)
    scores = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Integer(), required=True)
    ranking = ma.fields.List(ma.fields.Integer(), required=True)
    winners = ma.fields.List(ma.fields.Integer(), required=True)
    team_scores = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Integer(), required=True)
    winning_teams = ma.fields.List(ma.fields.String(), required=True)
    reason = ma.fields.String(required=True)
    rematch = ma.fields.Boolean(
        required=True,
        metadata={"description": "drawn: played again as a new match, same seats (DW-5)"},
    )
    replay = ma.fields.Boolean(
        required=True,
        metadata={"description": "deprecated alias of `rematch`", "deprecated": True},
    )


class SeatSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    name = ma.fields.String(required=True)


class StepSchema(ma.Schema):
    rule = ma.fields.String(required=True)
    text = ma.fields.String(required=True)
    data = ma.fields.Dict(required=True)


class HeadSchema(ma.Schema):
    """A point of the log (docs/integrity.md, Heads and receipts)."""

    version = StrictInteger(
        required=True, validate=ma.validate.Range(min=1, max=limits.MAX_POSITION)
    )
    chain = ma.fields.String(
        required=True,
        validate=ma.validate.Regexp(r"^[0-9a-f]{64}$", error="must be 64 lower-case hex digits"),
        metadata={"description": "the chain value of the event at that version"},
    )


HEAD_AFTER_WRITE = "the log's head after the whole write that stored this (keep it: verify)"
