"""The schemas of GET /standings (api/standings.py): a page of the players' standings."""

from __future__ import annotations

import marshmallow as ma

from api.fields import (
    QueryInteger,
    page_cursor,
)
from service import limits


class StandingsArgsSchema(ma.Schema):
    ruleset = ma.fields.String(
        load_default=None,
        validate=ma.validate.Regexp(limits.RULESET_NAME),
        metadata={"description": "one ruleset (default: every ruleset)"},
    )
    limit = QueryInteger(load_default=100, validate=ma.validate.Range(1, 500))
    cursor = page_cursor()


class StandingSchema(ma.Schema):
    ruleset = ma.fields.String(required=True)
    player = ma.fields.String(
        required=True,
        metadata={
            "description": "the player's name where the seats named a player identity, "
            "else the name the seats joined with"
        },
    )
    player_id = ma.fields.UUID(
        required=True,
        allow_none=True,
        metadata={
            "description": "the player identity this row counts (issue 45): every seat that "
            "named it, whatever its seat name; null: a row of seats that named no player, "
            "counted by their name"
        },
    )
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
