"""/matches/{id}/disputes: a seat or the referee files a dispute citing events (a seat at
the cap of disputes awaiting a ruling is refused one more: 409 too_many_open_disputes);
the referee rules on it; anyone lists them by page (their texts are public:
docs/referee.md)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_REQUIRED, documents_errors
from api.schemas.common import IdempotencyHeaderSchema
from api.schemas.disputes import (
    DisputePageSchema,
    DisputesArgsSchema,
    DisputeSchema,
    DisputeWithEventsSchema,
    FileDisputeSchema,
    RulingSchema,
)
from service import limits

blp = Blueprint(
    "disputes",
    __name__,
    url_prefix="/matches/<uuid:match_id>/disputes",
    description="Disputes: a seat or the referee disputes events; the referee rules",
)

NUMBER = {
    "in": "path",
    "name": "number",
    "description": "a dispute's number (1, 2, ... in the match)",
    "schema": {"type": "integer", "minimum": 1, "maximum": limits.MAX_POSITION},
}


@blp.route("")
class Disputes(MethodView):
    @blp.arguments(IdempotencyHeaderSchema, location="headers")
    @blp.arguments(FileDisputeSchema)
    @blp.response(201, DisputeSchema, description="Recorded as a DisputeFiled event")
    @blp.alt_response(
        200,
        schema=DisputeSchema,
        description="The dispute this filer filed earlier with the same Idempotency-Key",
    )
    @documents_errors(blp, 400, 401, 403, 404, 409, 413, 422)
    @blp.doc(operationId="fileDispute", security=TOKEN_REQUIRED)
    def post(self, headers: dict[str, Any], body: dict[str, Any], match_id: UUID) -> Any:
        """Files a dispute (a seat's token, or the referee's or operator's) citing event
        versions, with a public text; the referee is told in the match's `disputes` counts.
        A seat with 10 disputes awaiting a ruling is refused one more (409
        too_many_open_disputes) until the referee rules on one. With an `Idempotency-Key`,
        a retry returns the dispute filed first (200), even at that cap."""
        filed, created = matches().file_dispute_once(
            match_id, bearer_token(), body["cites"], body["text"], headers["idempotency_key"]
        )
        return filed, 201 if created else 200

    @blp.arguments(DisputesArgsSchema, location="query")
    @blp.response(200, DisputePageSchema)
    @documents_errors(blp, 400, 404, 409, 422)
    @blp.doc(operationId="listDisputes")
    def get(self, args: dict[str, Any], match_id: UUID) -> Any:
        """Lists up to `limit` of the match's disputes numbered after `after`, in filing
        order, open and ruled or only those of `status`, only those `seat` filed if asked;
        `next` is the `after` of the next page, null on the last (public, no token)."""
        return matches().dispute_page(
            match_id, args["after"], args["limit"], args["status"], args["seat"]
        )


@blp.route("/<int:number>", parameters=[NUMBER])
class DisputeByNumber(MethodView):
    @blp.response(200, DisputeWithEventsSchema)
    @documents_errors(blp, 404, 409)
    @blp.doc(operationId="getDispute")
    def get(self, match_id: UUID, number: int) -> Any:
        """Returns one dispute with the events it cites, as anyone may see them (public)."""
        return matches().dispute(match_id, number)


@blp.route("/<int:number>/ruling", parameters=[NUMBER])
class Ruling(MethodView):
    @blp.arguments(RulingSchema)
    @blp.response(201, DisputeSchema, description="Recorded as a DisputeRuled event")
    @documents_errors(blp, 400, 401, 403, 404, 409, 413, 422)
    @blp.doc(operationId="ruleDispute", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], match_id: UUID, number: int) -> Any:
        """Rules on a dispute (referee or operator token): dismissed or upheld, with a reason
        (upheld here is a note; a correction naming the dispute upholds it with the
        correction: POST /matches/{id}/corrections)."""
        return matches().rule_dispute(
            match_id, bearer_token(), number, body["ruling"], body["reason"]
        )
