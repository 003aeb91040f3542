"""/matches/{id}/state, /scores and /display: now, at any past movement, or after a phase
of one."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Response
from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_OPTIONAL, documents_errors
from api.schemas.state import (
    AtMovementArgsSchema,
    DisplayArgsSchema,
    ScoresSchema,
    StateArgsSchema,
    StateSchema,
)

blp = Blueprint(
    "state",
    __name__,
    url_prefix="/matches/<uuid:match_id>",
    description="State and scores, now or at any past point",
)


@blp.route("/state")
class State(MethodView):
    @blp.arguments(StateArgsSchema, location="query")
    @blp.response(200, StateSchema)
    @documents_errors(blp, 401, 403, 404, 409, 422)
    @blp.doc(operationId="getState", security=TOKEN_OPTIONAL)
    def get(self, args: dict[str, Any], match_id: UUID) -> Any:
        """Returns the state when a movement was open (now by default) or after a phase of
        its resolution: the public view, a seat's view with its token, everything with the
        referee's; of an earlier timeline of a corrected match with `timeline`."""
        return matches().state(
            match_id,
            args["movement"],
            args["phase"],
            bearer_token(),
            args["seat"],
            args["timeline"],
        )


@blp.route("/scores")
class Scores(MethodView):
    @blp.arguments(AtMovementArgsSchema, location="query")
    @blp.response(200, ScoresSchema)
    @documents_errors(blp, 404, 422)
    @blp.doc(operationId="getScores")
    def get(self, args: dict[str, Any], match_id: UUID) -> Any:
        """Returns scores, ranking and result, now or when a movement was open (of an
        earlier timeline of a corrected match with `timeline`)."""
        return matches().scores(match_id, args["movement"], args["timeline"])


@blp.route("/display")
class Display(MethodView):
    @blp.arguments(DisplayArgsSchema, location="query")
    @blp.response(
        200,
        {"type": "string"},
        content_type="text/plain",
        description="The Public Display: plain text (UTF-8) for mail and forum posts",
    )
    @documents_errors(blp, 404, 409, 422)
    @blp.doc(operationId="getDisplay")
    def get(self, args: dict[str, Any], match_id: UUID) -> Any:
        """Returns the Public Display of the match, now or after a resolved movement: the
        match, its seats and clock, then the game's own plain-text picture of the position.
        Only public information: the same for every reader, with or without a token; of an
        earlier timeline of a corrected match with `timeline`."""
        text = matches().display(match_id, args["movement"], args["timeline"])
        return Response(text, mimetype="text/plain")
