"""marshmallow 4 schemas of the API's requests and responses."""

from __future__ import annotations

import marshmallow as ma


class ConfigFieldSchema(ma.Schema):
    name = ma.fields.String(required=True)
    default = ma.fields.Raw(required=True, allow_none=True)
    description = ma.fields.String(required=True)


class RulesetSchema(ma.Schema):
    name = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    title = ma.fields.String(required=True)
    min_seats = ma.fields.Integer(required=True)
    max_seats = ma.fields.Integer(required=True)
    dynamics = ma.fields.String(required=True, metadata={"enum": ["simultaneous", "sequential"]})
    accumulates_orders = ma.fields.Boolean(required=True)
    config = ma.fields.List(ma.fields.Nested(ConfigFieldSchema), required=True)
