"""GET /matches/{id}/scoreboard: every seat's (and team's) score after each movement."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.context import Blueprint, matches
from api.errors import documents_errors
from api.schemas.scoreboard import ScoreboardSchema

blp = Blueprint(
    "scoreboard",
    __name__,
    url_prefix="/matches/<uuid:match_id>/scoreboard",
    description="The scores after each resolved movement (a read model)",
)


@blp.route("")
class Scoreboard(MethodView):
    @blp.response(200, ScoreboardSchema)
    @documents_errors(blp, 400, 404)
    @blp.doc(operationId="getScoreboard")
    def get(self, match_id: UUID) -> Any:
        """Returns the scores after each resolved movement, first to last: per seat with its
        rank, and per team where the game has teams (public). A match with no resolved
        movement yet has none; the whole board comes in one answer (a movement has a row
        per seat, so a board is small: no paging).
        """
        return matches().scoreboard(match_id)
