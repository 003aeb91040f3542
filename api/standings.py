"""GET /standings: wins, draws, losses and points per player (or seat name) and ruleset."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api.context import Blueprint, matches
from api.errors import documents_errors
from api.schemas.standings import StandingsArgsSchema, StandingsPageSchema

blp = Blueprint(
    "standings", __name__, url_prefix="/standings", description="Standings over finished matches"
)


@blp.route("")
class Standings(MethodView):
    @blp.arguments(StandingsArgsSchema, location="query")
    @blp.response(200, StandingsPageSchema)
    @documents_errors(blp, 422)
    @blp.doc(operationId="listStandings")
    def get(self, args: dict[str, Any]) -> Any:
        """Lists the standings, best first within each ruleset, by page (`next` is the cursor
        of the next page). A row counts a player identity (`player_id`) over every seat
        that named it, or, for seats that named none, a seat name (`player_id` null). A seat
        among a finished match's winners wins (or draws a shared draw), every other seat
        loses; a win is worth 3 points, a draw 1.
        """
        return matches().standings(**args)
