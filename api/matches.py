"""/matches: create (the referee token, once), list, one match's summary, start."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_REQUIRED, documents_errors
from api.schemas.common import IdempotencyHeaderSchema
from api.schemas.matches import (
    CreateMatchSchema,
    ExtendDeadlineSchema,
    ListMatchesArgsSchema,
    MatchPageSchema,
    MatchSchema,
    NewMatchSchema,
    StartSchema,
)

blp = Blueprint(
    "matches", __name__, url_prefix="/matches", description="Matches: create, list, look up, start"
)

NEW_MATCH_LINKS = {
    "GetMatch": {
        "operationId": "getMatch",
        "parameters": {"path.match_id": "$response.body#/match_id"},
    },
    "JoinMatch": {
        "operationId": "joinMatch",
        "parameters": {"path.match_id": "$response.body#/match_id"},
    },
    "StartMatch": {
        "operationId": "startMatch",
        "parameters": {
            "path.match_id": "$response.body#/match_id",
            "header.Authorization": "Bearer {$response.body#/referee_token}",
        },
    },
    "GetDisplay": {
        "operationId": "getDisplay",
        "parameters": {"path.match_id": "$response.body#/match_id"},
    },
    "TakeRefereeAction": {
        "operationId": "takeRefereeAction",
        "parameters": {
            "path.match_id": "$response.body#/match_id",
            "header.Authorization": "Bearer {$response.body#/referee_token}",
        },
    },
    "GetEvents": {
        "operationId": "getEvents",
        "parameters": {
            "path.match_id": "$response.body#/match_id",
            "header.Authorization": "Bearer {$response.body#/referee_token}",
        },
    },
}


@blp.route("")
class Matches(MethodView):
    @blp.arguments(IdempotencyHeaderSchema, location="headers")
    @blp.arguments(CreateMatchSchema)
    @blp.response(201, NewMatchSchema, description="Created: the referee token is shown once")
    @blp.doc(responses={201: {"links": NEW_MATCH_LINKS}})
    @blp.alt_response(
        200, schema=NewMatchSchema, description="An earlier create with the same Idempotency-Key"
    )
    @documents_errors(blp, 400, 413, 422)
    @blp.doc(operationId="createMatch")
    def post(self, headers: dict[str, Any], body: dict[str, Any]) -> Any:
        """Creates a match; returns its id and its referee token (shown only this once)."""
        new = matches().create_match(
            body["ruleset"],
            body["config"],
            body["seats"],
            headers["idempotency_key"],
            deadline_seconds=body["deadline_seconds"],
            preset=body["preset"],
            version=body["ruleset_version"],
            rated=body["rated"],
        )
        return new, 201 if new.created else 200

    @blp.arguments(ListMatchesArgsSchema, location="query")
    @blp.response(200, MatchPageSchema)
    @documents_errors(blp, 422)
    @blp.doc(operationId="listMatches")
    def get(self, args: dict[str, Any]) -> Any:
        """Lists matches, oldest first, by page (`next` is the cursor of the next page)."""
        return matches().list_matches(**args)


@blp.route("/<uuid:match_id>")
class MatchById(MethodView):
    @blp.response(200, MatchSchema)
    @documents_errors(blp, 404, 409)
    @blp.doc(operationId="getMatch")
    def get(self, match_id: UUID) -> Any:
        """Returns a match's public summary: seats, status, open movement, deadline, outcome."""
        return matches().summary(match_id)


@blp.route("/<uuid:match_id>/start")
class Start(MethodView):
    @blp.arguments(StartSchema, required=False)
    @blp.response(200, MatchSchema)
    @documents_errors(blp, 400, 401, 403, 404, 409, 413, 422)
    @blp.doc(operationId="startMatch", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], match_id: UUID) -> Any:
        """Starts the match (referee token); optionally from a given state and movement."""
        app = matches()
        app.start(match_id, bearer_token(), body["state"], body["movement"])
        return app.summary(match_id)


@blp.route("/<uuid:match_id>/deadline")
class Deadline(MethodView):
    @blp.arguments(ExtendDeadlineSchema)
    @blp.response(200, MatchSchema)
    @documents_errors(blp, 400, 401, 403, 404, 409, 413, 422)
    @blp.doc(operationId="extendDeadline", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], match_id: UUID) -> Any:
        """Moves the open movement's deadline later by `seconds` (referee or operator token).

        Recorded as a DeadlineSet event with reason "referee" and the referee's `reason`
        as its note; a deadline only moves later.
        """
        app = matches()
        app.extend_deadline(
            match_id,
            bearer_token(),
            body["seconds"],
            movement=body["movement"],
            reason=body["reason"],
        )
        return app.summary(match_id)


@blp.route("/<uuid:match_id>/retry")
class Retry(MethodView):
    @blp.response(200, MatchSchema)
    @documents_errors(blp, 401, 403, 404, 409)
    @blp.doc(operationId="retryMatch", security=TOKEN_REQUIRED)
    def post(self, match_id: UUID) -> Any:
        """Lifts the quarantine of a match whose resolution kept failing (referee or operator
        token), recorded as a QuarantineLifted event; the sweep then tries it again."""
        app = matches()
        app.retry(match_id, bearer_token())
        return app.summary(match_id)
