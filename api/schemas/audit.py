"""The schemas of the integrity endpoints (api/audit.py, docs/integrity.md): the replay,
the chain report, verify with receipts and heads, the archive, the audit and the seed."""

from __future__ import annotations

import marshmallow as ma

from api.fields import (
    StrictInteger,
    timeline_parameter,
)
from api.schemas.common import HeadSchema, OutcomeSchema, StepSchema
from api.schemas.events import EventSchema
from service import limits


class FrameSchema(ma.Schema):
    movement = ma.fields.Integer(required=True)
    version = ma.fields.Integer(required=True)
    steps = ma.fields.List(ma.fields.Nested(StepSchema), required=True)
    state = ma.fields.Raw(required=True)
    state_hash = ma.fields.String(required=True)
    outcome = ma.fields.Nested(OutcomeSchema, required=True)


class ReplaySchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    events = ma.fields.Integer(required=True)
    movements = ma.fields.List(ma.fields.Nested(FrameSchema), required=True, attribute="frames")
    state = ma.fields.Raw(required=True)
    agrees = ma.fields.Boolean(
        required=True,
        metadata={"description": "whether folding every event gives the stored match"},
    )
    timeline = ma.fields.Integer(required=True, metadata={"description": "the one replayed"})
    timelines = ma.fields.Integer(
        required=True, metadata={"description": "how many the match has (1 + corrections)"}
    )


class BrokenLinkSchema(ma.Schema):
    version = ma.fields.Integer(required=True)
    type = ma.fields.String(required=True)
    reason = ma.fields.String(required=True)


class DiscrepancySchema(ma.Schema):
    source = ma.fields.String(
        required=True, metadata={"description": "the evidence: a receipt, a head, a read model"}
    )
    kind = ma.fields.String(
        required=True,
        metadata={"description": "truncated, rewritten, order, snapshot, finish or other_match"},
    )
    version = ma.fields.Integer(required=True)
    message = ma.fields.String(required=True)


class ChainReportSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    ok = ma.fields.Boolean(required=True)
    events = ma.fields.Integer(required=True)
    head = ma.fields.String(required=True, allow_none=True)
    broken = ma.fields.Nested(BrokenLinkSchema, required=True, allow_none=True)
    version = ma.fields.Integer(
        required=True, metadata={"description": "the head's version (0 if the chain is broken)"}
    )
    problems = ma.fields.List(
        ma.fields.Nested(DiscrepancySchema),
        required=True,
        metadata={"description": "what the receipts, heads, read model and snapshots found"},
    )
    evidence = ma.fields.Integer(
        required=True, metadata={"description": "how many receipts and heads were checked"}
    )
    timeline = ma.fields.Integer(
        required=True,
        metadata={"description": "the timeline whose last event `head` and `version` are"},
    )
    timelines = ma.fields.Integer(
        required=True, metadata={"description": "how many the match has (1 + corrections)"}
    )


MAX_RECEIPTS, MAX_HEADS = 50, 100  # per request, within the body cap (docs/api.md)


class ReceiptEvidenceSchema(ma.Schema):
    """A receipt as the service gave it (the 201 of POST /orders); fields not used are
    ignored."""

    class Meta:
        unknown = ma.EXCLUDE

    match_id = ma.fields.UUID(required=True)
    seat = StrictInteger(required=True, validate=ma.validate.Range(min=1, max=10_000))
    movement = StrictInteger(
        required=True, validate=ma.validate.Range(min=0, max=limits.MAX_POSITION)
    )
    digest = ma.fields.String(
        required=True, validate=ma.validate.Regexp(r"^[0-9a-f]{64}$", error="not a digest")
    )
    version = StrictInteger(
        required=True, validate=ma.validate.Range(min=1, max=limits.MAX_POSITION)
    )
    head = ma.fields.Nested(HeadSchema, required=True)


class VerifyRequestSchema(ma.Schema):
    receipts = ma.fields.List(
        ma.fields.Nested(ReceiptEvidenceSchema),
        load_default=list,
        validate=ma.validate.Length(max=MAX_RECEIPTS),
        metadata={"description": "receipts seats kept (the 201 bodies of POST /orders)"},
    )
    heads = ma.fields.List(
        ma.fields.Nested(HeadSchema),
        load_default=list,
        validate=ma.validate.Length(max=MAX_HEADS),
        metadata={"description": "heads noted from results, displays and states"},
    )


class ArchiveHeadSchema(ma.Schema):
    version = ma.fields.Integer(required=True)
    chain = ma.fields.String(required=True)


class ArchiveSchema(ma.Schema):
    """A match archive (docs/archive.md)."""

    format = ma.fields.String(required=True, metadata={"description": '"drts-match-archive"'})
    format_version = ma.fields.Integer(required=True, metadata={"description": "1"})
    match_id = ma.fields.UUID(required=True)
    ruleset = ma.fields.String(required=True)
    ruleset_version = ma.fields.Integer(required=True)
    exported_at = ma.fields.String(required=True, metadata={"description": "ISO 8601, UTC"})
    form = ma.fields.String(
        required=True,
        metadata={
            "description": "public (a finished match) or full (an unfinished one, to its "
            "referee: every sealed value, the look recorded)"
        },
    )
    head = ma.fields.Nested(ArchiveHeadSchema, required=True)
    events = ma.fields.List(ma.fields.Nested(EventSchema), required=True)
    timeline = ma.fields.Nested(
        "ArchiveTimelineSchema",
        metadata={
            "description": "a corrected match's (or one asked for a timeline): the timeline "
            "shown; absent for a match never corrected"
        },
    )


class ArchiveTimelineSchema(ma.Schema):
    number = ma.fields.Integer(required=True)
    timelines = ma.fields.Integer(required=True, metadata={"description": "how many there are"})
    versions = ma.fields.List(
        ma.fields.Integer(),
        required=True,
        metadata={"description": "the versions of this timeline's events, in order"},
    )


class DivergenceSchema(ma.Schema):
    movement = ma.fields.Integer(required=True)
    step = ma.fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "the step's index (1..n); null for a state, outcome or close"},
    )
    what = ma.fields.String(
        required=True,
        metadata={
            "description": "step, missing step, extra step, state_hash, outcome, order, "
            "orders, strikes, forfeits, close or error"
        },
    )
    stored = ma.fields.Raw(required=True, allow_none=True)
    recomputed = ma.fields.Raw(required=True, allow_none=True)
    rulings = ma.fields.List(
        ma.fields.String(),
        required=True,
        metadata={"description": "the rule ids of the steps involved (DRTS-9, DW-3, ...)"},
    )
    version = ma.fields.Integer(
        required=True, metadata={"description": "the stored event where it shows"}
    )
    event = ma.fields.String(required=True, metadata={"description": "that event's type"})


class AuditSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    ruleset = ma.fields.String(required=True)
    ruleset_version = ma.fields.Integer(required=True)
    movements = ma.fields.Integer(
        required=True, metadata={"description": "the resolved movements compared"}
    )
    exact = ma.fields.Boolean(
        required=True, metadata={"description": "whether the match re-adjudicates exactly"}
    )
    divergence = ma.fields.Nested(DivergenceSchema, required=True, allow_none=True)
    given_start = ma.fields.Boolean(
        required=True,
        metadata={"description": "the start state was the referee's, not the rules'"},
    )
    timeline = ma.fields.Integer(
        required=True, metadata={"description": "the timeline reported on (the current one)"}
    )
    timelines = ma.fields.List(
        ma.fields.Nested("TimelineAuditSchema"),
        required=True,
        metadata={"description": "every timeline re-adjudicated, 1 (the original) first"},
    )


class TimelineAuditSchema(ma.Schema):
    timeline = ma.fields.Integer(required=True)
    movements = ma.fields.Integer(required=True)
    exact = ma.fields.Boolean(required=True)
    divergence = ma.fields.Nested(DivergenceSchema, required=True, allow_none=True)


class SeedSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    seed = ma.fields.String(required=True)


class TimelineArgsSchema(ma.Schema):
    timeline = timeline_parameter(
        "an earlier timeline of a corrected match (1: the original); default: the current one"
    )
