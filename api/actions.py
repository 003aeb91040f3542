"""/matches/{id}/actions: the referee takes one of the game's own actions (B-Chess: macks)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_REQUIRED, documents_errors
from api.schemas.actions import ActionRequestSchema, ActionTakenSchema

blp = Blueprint(
    "actions",
    __name__,
    url_prefix="/matches/<uuid:match_id>/actions",
    description="Referee actions: what a game's rules let its referee do",
)


@blp.route("")
class Actions(MethodView):
    @blp.arguments(ActionRequestSchema)
    @blp.response(201, ActionTakenSchema, description="Recorded as a RefereeActed event")
    @documents_errors(blp, 400, 401, 403, 404, 409, 413, 422)
    @blp.doc(operationId="takeRefereeAction", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], match_id: UUID) -> Any:
        """Takes one of the game's referee actions (referee or operator token), with its
        arguments and a reason; the actions of a game are listed by GET /rulesets/{name}."""
        return matches().act(match_id, bearer_token(), body["action"], body["args"], body["reason"])
