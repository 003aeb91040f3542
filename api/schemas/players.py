"""The schemas of players and ratings (api/players.py): create a player, its public view,
its key reissued, its e-mail address and confirmation, and the rating tables (issue 45)."""

from __future__ import annotations

import marshmallow as ma

from api.fields import PlayerName, QueryInteger, recorded_reason
from api.schemas.seats import RESULT_ADDRESS
from service import limits


class CreatePlayerSchema(ma.Schema):
    name = PlayerName(
        required=True,
        metadata={
            "description": "the player's name, unique without regard to case: " + limits.NAME_RULE,
            "example": "alice",
            "minLength": 1,
            "maxLength": limits.MAX_NAME_CHARS,
        },
    )


class PlayerKeySchema(ma.Schema):
    player_id = ma.fields.UUID(required=True)
    name = ma.fields.String(required=True)
    key = ma.fields.String(
        required=True,
        metadata={"description": "the player's secret key: shown only this once"},
    )


class PlayerSchema(ma.Schema):
    player_id = ma.fields.UUID(required=True)
    name = ma.fields.String(required=True)


class ReissuePlayerKeySchema(ma.Schema):
    reason = recorded_reason("why the operator reissues it (recorded)", "lost", load_default=None)


class PlayerAddressSchema(ma.Schema):
    address = ma.fields.String(
        required=True,
        validate=RESULT_ADDRESS,
        metadata={
            "description": "the player's e-mail address; a confirmation code is mailed to it",
            "example": "alice@example.org",
        },
    )


class PlayerConfirmSchema(ma.Schema):
    code = ma.fields.String(
        required=True,
        validate=ma.validate.Length(1, 64),
        metadata={"description": "the confirmation code mailed to the address"},
    )


class PlayerAddressStateSchema(ma.Schema):
    address = ma.fields.String(required=True)
    confirmed = ma.fields.Boolean(required=True)


class RatingChangeSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    mu_before = ma.fields.Float(required=True)
    sigma_before = ma.fields.Float(required=True)
    mu_after = ma.fields.Float(required=True)
    sigma_after = ma.fields.Float(required=True)


class RulesetRatingSchema(ma.Schema):
    ruleset = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    mu = ma.fields.Float(required=True)
    sigma = ma.fields.Float(required=True)
    ordinal = ma.fields.Float(required=True, metadata={"description": "mu - 3 sigma"})
    history = ma.fields.List(
        ma.fields.Nested(RatingChangeSchema),
        required=True,
        metadata={"description": "each rated match's effect, oldest first"},
    )


class PlayerRatingsSchema(ma.Schema):
    player_id = ma.fields.UUID(required=True)
    name = ma.fields.String(required=True)
    ratings = ma.fields.List(ma.fields.Nested(RulesetRatingSchema), required=True)


class RatingsArgsSchema(ma.Schema):
    ruleset = ma.fields.String(
        required=True,
        validate=ma.validate.Regexp(limits.RULESET_NAME),
        metadata={"description": "a ruleset name (GET /rulesets)"},
    )
    version = QueryInteger(
        load_default=None,
        validate=ma.validate.Range(1, limits.MAX_POSITION),
        metadata={"description": "an installed version (default: the latest)"},
    )


class RatingRowSchema(ma.Schema):
    player_id = ma.fields.UUID(required=True)
    name = ma.fields.String(required=True)
    mu = ma.fields.Float(required=True)
    sigma = ma.fields.Float(required=True)
    ordinal = ma.fields.Float(required=True, metadata={"description": "mu - 3 sigma"})
    matches = ma.fields.Integer(required=True, metadata={"description": "rated matches"})


class RatingTableSchema(ma.Schema):
    ruleset = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    model = ma.fields.String(required=True, metadata={"description": "the rating model"})
    items = ma.fields.List(
        ma.fields.Nested(RatingRowSchema),
        required=True,
        metadata={"description": "best ordinal first, then player id"},
    )
