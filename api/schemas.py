"""marshmallow 4 schemas of the API's requests and responses.

Request schemas refuse unknown fields (marshmallow's default), so a typo in a
field name is a 422 rather than a silently ignored option. Integers in a body
are strict (a JSON integer: not "1", 1.5 or true) and in a query string written
in digits only; names, orders, configs and movements are held to the limits of
service/limits.py, the same checks the use cases make (the fields that do so
are in api/fields.py). Response schemas dump the service's dicts and
dataclasses as they are.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from api.fields import (
    LINES,
    ONE_LINE,
    OrderField,
    PlayerName,
    QueryInteger,
    StrictInteger,
    within_limits,
)
from domain.match.disputes import RULINGS
from domain.rules.contract import ConfigKind, OrderPolicy
from domain.rules.registry import ruleset_names
from service import disputes, limits
from service.eventfilter import EVENT_TYPES
from service.mail import addresses
from service.readmodels.queries import DISPUTE_FILTERS, STATUSES

CURSOR_PATTERN = r"^[1-9][0-9]{0,17}$"  # a log position
MAX_WAIT_SECONDS = 3600  # asked; the server waits at most DRTS_LONG_POLL_MAX_SECONDS


class ConfigFieldSchema(ma.Schema):
    name = ma.fields.String(required=True)
    type = ma.fields.String(
        required=True,
        metadata={
            "enum": [kind.value for kind in ConfigKind],
            "description": "int, bool, str, choice, or data (content such as a board)",
        },
    )
    default = ma.fields.Raw(required=True, allow_none=True)
    description = ma.fields.String(required=True)
    allowed = ma.fields.String(
        required=True, metadata={"description": "what the option accepts, in words"}
    )
    minimum = ma.fields.Integer(
        metadata={"description": "int: the least value; str: the fewest characters"}
    )
    maximum = ma.fields.Integer(
        metadata={"description": "int: the greatest value; str: the most characters"}
    )
    choices = ma.fields.List(
        ma.fields.String(), metadata={"description": "choice: the allowed values"}
    )


class PresetSchema(ma.Schema):
    name = ma.fields.String(required=True)
    description = ma.fields.String(required=True)
    config = ma.fields.Dict(
        keys=ma.fields.String(),
        required=True,
        metadata={"description": "the options it sets (the others keep their defaults)"},
    )


class RefereeActionSchema(ma.Schema):
    name = ma.fields.String(required=True)
    description = ma.fields.String(required=True)
    arguments = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.String(),
        required=True,
        metadata={"description": "each argument's meaning, by name"},
    )
    example = ma.fields.Dict(required=True, metadata={"description": "arguments that parse"})


class MapSchema(ma.Schema):
    name = ma.fields.String(required=True, metadata={"description": "name it on create: map"})
    description = ma.fields.String(required=True)
    width = ma.fields.Integer(required=True)
    height = ma.fields.Integer(required=True)
    tombs = ma.fields.Integer(required=True)
    water = ma.fields.Integer(required=True, metadata={"description": "water squares"})
    max_seats = ma.fields.Integer(required=True, metadata={"description": "at most a seat a tomb"})


class RulesetSchema(ma.Schema):
    name = ma.fields.String(required=True)
    version = ma.fields.Integer(
        required=True, metadata={"description": "the version described (new matches: the latest)"}
    )
    versions = ma.fields.List(
        ma.fields.Integer(),
        required=True,
        metadata={"description": "every installed version, oldest first"},
    )
    title = ma.fields.String(required=True)
    min_seats = ma.fields.Integer(required=True)
    max_seats = ma.fields.Integer(required=True)
    dynamics = ma.fields.String(required=True, metadata={"enum": ["simultaneous", "sequential"]})
    accumulates_orders = ma.fields.Boolean(
        required=True,
        metadata={"description": "deprecated: order_policy is accumulate", "deprecated": True},
    )
    order_policy = ma.fields.String(
        required=True,
        metadata={
            "description": "how a seat's orders in one movement combine",
            "enum": [policy.value for policy in OrderPolicy],
        },
    )
    max_order_chars = ma.fields.Integer(
        required=True,
        metadata={"description": "the longest order, as text or compact JSON, the game takes"},
    )
    lists_legal_orders = ma.fields.Boolean(
        required=True,
        metadata={
            "description": "whether the game lists a seat's whole legal orders "
            "(`orders` of GET /matches/{id}/legal-orders)"
        },
    )
    lists_legal_commands = ma.fields.Boolean(
        required=True,
        metadata={
            "description": "whether the game lists each piece's legal commands and the rule "
            "combining them (`pieces` and `combining` of GET /matches/{id}/legal-orders)"
        },
    )
    config = ma.fields.List(ma.fields.Nested(ConfigFieldSchema), required=True)
    presets = ma.fields.List(
        ma.fields.Nested(PresetSchema),
        required=True,
        metadata={"description": "named sets of config values; name one as `preset` on create"},
    )
    actions = ma.fields.List(
        ma.fields.Nested(RefereeActionSchema),
        required=True,
        metadata={"description": "what the game's rules let its referee do (POST .../actions)"},
    )
    maps = ma.fields.List(
        ma.fields.Nested(MapSchema),
        metadata={
            "description": "a game with maps (Shades): the maps a match may name in its config "
            '(`"map": NAME`); the match records the map\'s content'
        },
    )


class RulesetArgsSchema(ma.Schema):
    version = QueryInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_POSITION),
        metadata={"description": "an installed version (default: the latest)"},
    )


# -- requests -------------------------------------------------------------------------------


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


class ListMatchesArgsSchema(ma.Schema):
    ruleset = ma.fields.String(load_default=None, validate=ma.validate.Regexp(limits.RULESET_NAME))
    status = ma.fields.String(load_default=None, validate=ma.validate.OneOf(STATUSES))
    disputes = ma.fields.String(
        load_default=None,
        validate=ma.validate.OneOf(DISPUTE_FILTERS),
        metadata={"description": "open: only the matches with a dispute awaiting a ruling"},
    )
    limit = QueryInteger(load_default=50, validate=ma.validate.Range(1, 200))
    cursor = ma.fields.String(
        load_default=None,
        validate=ma.validate.Regexp(CURSOR_PATTERN),
        metadata={"description": "the `next` of the previous page"},
    )


class StandingsArgsSchema(ma.Schema):
    ruleset = ma.fields.String(
        load_default=None,
        validate=ma.validate.Regexp(limits.RULESET_NAME),
        metadata={"description": "one ruleset (default: every ruleset)"},
    )
    limit = QueryInteger(load_default=100, validate=ma.validate.Range(1, 500))
    cursor = ma.fields.String(
        load_default=None,
        validate=ma.validate.Regexp(CURSOR_PATTERN),
        metadata={"description": "the `next` of the previous page"},
    )


class StartSchema(ma.Schema):
    state = ma.fields.Raw(
        load_default=None,
        validate=within_limits(lambda state: limits.check_json(state, "state")),
        metadata={
            "description": "a starting state (the ruleset's state JSON; default: the initial one)"
        },
    )
    movement = StrictInteger(
        load_default=1,
        validate=ma.validate.Range(1, limits.MAX_MOVEMENT),
        metadata={"description": "the number of the first movement"},
    )


class ExtendDeadlineSchema(ma.Schema):
    seconds = StrictInteger(
        required=True,
        validate=ma.validate.Range(1, limits.MAX_SECONDS),
        metadata={"description": "seconds to add to the current deadline", "example": 300},
    )
    movement = StrictInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_MOVEMENT),
        metadata={"description": "the open movement (default: it)"},
    )
    reason = ma.fields.String(
        load_default=None,
        validate=ma.validate.Length(1, 1000),
        metadata={
            "description": "why the referee extends it (recorded)",
            "example": "mail down",
            **LINES,
        },
    )


class ReissueRequestSchema(ma.Schema):
    reason = ma.fields.String(
        load_default=None,
        validate=ma.validate.Length(1, 1000),
        metadata={
            "description": "why the referee reissues it (recorded)",
            "example": "lost",
            **LINES,
        },
    )


# a result address for orders by mail (docs/mail.md): what service/mail/addresses.py takes
RESULT_ADDRESS = [
    ma.validate.Length(min=3, max=addresses.MAX_ADDRESS_CHARS),
    ma.validate.Regexp(addresses.ADDRESS_PATTERN),
]


class JoinSchema(ma.Schema):
    name = PlayerName(
        required=True,
        metadata={
            "description": "the player's name, unique in the match: "
            + limits.NAME_RULE
            + " (normalised to NFC)",
            "example": "alice",
            "minLength": 1,
            "maxLength": limits.MAX_NAME_CHARS,
        },
    )
    result_address = ma.fields.String(
        load_default=None,
        validate=RESULT_ADDRESS,
        metadata={
            "description": "where the seat's answers to orders by mail go (docs/mail.md); a "
            "confirmation code is mailed to it first",
            "example": "alice@example.org",
        },
    )


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
    movement = StrictInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_MOVEMENT),
        metadata={"description": "the movement it is meant for (default: the open one)"},
    )
    source = ma.fields.String(load_default="api", validate=ma.validate.OneOf(("api", "bot")))


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
    reason = ma.fields.String(
        required=True,
        validate=ma.validate.Length(1, 1000),
        metadata={
            "description": "why the referee acts (recorded)",
            "example": "late mail",
            **LINES,
        },
    )


def timeline_parameter() -> QueryInteger:
    """Returns the `timeline` query parameter: an earlier timeline of a corrected match."""
    return QueryInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_MOVEMENT),
        metadata={
            "description": "an earlier timeline of a corrected match (1: the original), as it "
            "stood (now: where it ended); default: the current one"
        },
    )


class AtMovementArgsSchema(ma.Schema):
    movement = QueryInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_MOVEMENT),
        metadata={"description": "when this movement was open (default: now)"},
    )
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
    seat = QueryInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_SEATS),
        metadata={"description": "this seat's view (its token or the referee's)"},
    )

    REMOVED_PARAMETERS = ("step",)  # refused below with what to ask instead (api/strictness.py)

    @ma.pre_load
    def refuse_step(self, data: Any, **kwargs: Any) -> Any:
        """Refuses the removed `step` parameter with what to ask instead."""
        if "step" in data:
            raise ma.ValidationError(STEP_REMOVED, field_name="step")
        return data


class DisplayArgsSchema(ma.Schema):
    movement = QueryInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_MOVEMENT),
        metadata={"description": "the position after this resolved movement (default: now)"},
    )
    timeline = timeline_parameter()


class MovementArgsSchema(ma.Schema):
    timeline = timeline_parameter()


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
    movement = QueryInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_MOVEMENT),
        metadata={"description": "only events whose data names this movement"},
    )
    seat = QueryInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_SEATS),
        metadata={"description": "only events whose data names this seat"},
    )


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
    seat = QueryInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_SEATS),
        metadata={"description": "only those this seat filed"},
    )


# -- responses ------------------------------------------------------------------------------


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


class StandingSchema(ma.Schema):
    ruleset = ma.fields.String(required=True)
    player = ma.fields.String(required=True, metadata={"description": "the name seats joined with"})
    played = ma.fields.Integer(required=True, metadata={"description": "finished matches"})
    wins = ma.fields.Integer(required=True)
    draws = ma.fields.Integer(required=True)
    losses = ma.fields.Integer(required=True)
    points = ma.fields.Integer(required=True, metadata={"description": "3 a win, 1 a draw"})


class StandingsPageSchema(ma.Schema):
    items = ma.fields.List(ma.fields.Nested(StandingSchema), required=True)
    next = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the cursor of the next page, or null"},
    )


class SeatScoreSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    score = ma.fields.Integer(required=True)
    rank = ma.fields.Integer(
        required=True, metadata={"description": "1 for the first of the movement's ranking"}
    )


class TeamScoreSchema(ma.Schema):
    team = ma.fields.String(required=True)
    score = ma.fields.Integer(required=True)


class MovementScoresSchema(ma.Schema):
    movement = ma.fields.Integer(required=True)
    seats = ma.fields.List(
        ma.fields.Nested(SeatScoreSchema),
        required=True,
        metadata={"description": "every seat's score after the movement, in ranking order"},
    )
    teams = ma.fields.List(
        ma.fields.Nested(TeamScoreSchema),
        required=True,
        metadata={"description": "the team scores (empty where the game has no teams)"},
    )


class ScoreboardSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    ruleset = ma.fields.String(required=True)
    status = ma.fields.String(required=True, metadata={"enum": list(STATUSES)})
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True)
    movements = ma.fields.List(
        ma.fields.Nested(MovementScoresSchema),
        required=True,
        metadata={"description": "one entry per resolved movement, first to last"},
    )
    left_out = ma.fields.Boolean(
        required=True,
        metadata={
            "description": "the scoreboards read model leaves this match out (one of its "
            "events failed to apply; docs/operations.md): its movements are missing until "
            "a rebuild"
        },
    )


class NewMatchSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    referee_token = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "shown once; null when an idempotency key found an earlier match"},
    )
    created = ma.fields.Boolean(required=True)


class SeatTokenSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    seat = ma.fields.Integer(required=True)
    token = ma.fields.String(required=True, metadata={"description": "shown once"})
    order_address = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "the seat's secret order address (docs/mail.md), shown once and "
            "reissued with the token",
            "example": "orders+mfrggzdfmztwq2lknnwg23tpobyxe43u@drts.example.org",
        },
    )
    result_address = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the result address registered at the join, unconfirmed"},
    )


class ResultAddressSchema(ma.Schema):
    address = ma.fields.String(
        required=True,
        validate=RESULT_ADDRESS,
        metadata={"description": "where the seat's answers go", "example": "alice@example.org"},
    )


class ConfirmAddressSchema(ma.Schema):
    code = ma.fields.String(
        required=True,
        validate=ma.validate.Length(min=1, max=64),
        metadata={"description": "the code mailed to the result address", **ONE_LINE},
    )


class SeatAddressSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    result_address = ma.fields.String(required=True)
    confirmed = ma.fields.Boolean(required=True)


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


class ActionTakenSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    movement = ma.fields.Integer(required=True, metadata={"description": "the open movement"})
    action = ma.fields.String(required=True)
    version = ma.fields.Integer(
        required=True, metadata={"description": "the version of the RefereeActed event"}
    )
    steps = ma.fields.List(ma.fields.Nested(StepSchema), required=True)
    outcome = ma.fields.Nested(OutcomeSchema, required=True)


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


class ProtocolArgsSchema(ma.Schema):
    seat = QueryInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_SEATS),
        metadata={"description": "the seat (default: the token's; the referee names one)"},
    )
    message = ma.fields.String(
        load_default="turn",
        validate=ma.validate.OneOf(["turn", "init"]),
        metadata={"description": "turn: the state message of the open turn; init: the start"},
    )


class HealthSchema(ma.Schema):
    status = ma.fields.String(
        required=True,
        validate=ma.validate.OneOf(["healthy", "degraded", "unhealthy"]),
        metadata={"description": "unhealthy (503) if any check is failing"},
    )
    checked_at = ma.fields.String(required=True, metadata={"description": "UTC instant"})
    checks = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Dict(),
        required=True,
        metadata={
            "description": "per part (store, broker, sweep, overdue, projections, "
            "quarantined_matches, open_disputes): its status (ok, warning, failing) and what "
            "it saw (docs/operations.md)"
        },
    )


# -- corrections and timelines (issue 19) ---------------------------------------------------


class TimelineArgsSchema(ma.Schema):
    timeline = QueryInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_MOVEMENT),
        metadata={
            "description": "an earlier timeline of a corrected match (1: the original); "
            "default: the current one"
        },
    )


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
    movement = StrictInteger(
        required=True,
        validate=ma.validate.Range(1, limits.MAX_MOVEMENT),
        metadata={"description": "the resolved movement to resolve again"},
    )
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
