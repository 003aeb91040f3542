"""The schemas of GET /rulesets and GET /rulesets/{name} (api/rulesets.py): a game's config
fields, presets, referee actions and maps."""

from __future__ import annotations

import marshmallow as ma

from api.fields import (
    QueryInteger,
)
from domain.rules.contract import ConfigKind, OrderPolicy
from service import limits


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
