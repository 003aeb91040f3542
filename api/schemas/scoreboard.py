"""The schemas of a match's scoreboard (api/scoreboard.py): scores by movement."""

from __future__ import annotations

import marshmallow as ma

from api.schemas.common import SeatSchema
from service.readmodels.queries import STATUSES


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
