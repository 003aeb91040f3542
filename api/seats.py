"""/matches/{id}/seats: join (the seat token, once) and a referee's reissue of a lost token."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_REQUIRED, documents_errors
from api.schemas import JoinSchema, ReissueRequestSchema, SeatTokenSchema

blp = Blueprint(
    "seats",
    __name__,
    url_prefix="/matches/<uuid:match_id>/seats",
    description="Seats: join a match, reissue a lost seat token",
)

SEAT_LINKS = {
    "SendOrder": {
        "operationId": "sendOrder",
        "parameters": {
            "path.match_id": "$response.body#/match_id",
            "header.Authorization": "Bearer {$response.body#/token}",
        },
    },
    "GetOwnOrders": {
        "operationId": "getOrders",
        "parameters": {
            "path.match_id": "$response.body#/match_id",
            "header.Authorization": "Bearer {$response.body#/token}",
        },
    },
    "GetSeatState": {
        "operationId": "getState",
        "parameters": {
            "path.match_id": "$response.body#/match_id",
            "header.Authorization": "Bearer {$response.body#/token}",
        },
    },
}


@blp.route("")
class Seats(MethodView):
    @blp.arguments(JoinSchema)
    @blp.response(201, SeatTokenSchema, description="Joined: the seat token is shown once")
    @blp.doc(responses={201: {"links": SEAT_LINKS}})
    @documents_errors(blp, 400, 404, 409, 413, 422)
    @blp.doc(operationId="joinMatch")
    def post(self, body: dict[str, Any], match_id: UUID) -> Any:
        """Takes the next free seat for player `name`; returns its token (shown only once)."""
        return matches().join(match_id, body["name"])


@blp.route("/<int:seat>/token")
class SeatToken(MethodView):
    @blp.arguments(ReissueRequestSchema, required=False)  # no body: no reason recorded
    @blp.response(200, SeatTokenSchema, description="The seat's new token, shown once")
    @blp.doc(responses={200: {"links": SEAT_LINKS}})
    @documents_errors(blp, 401, 403, 404, 409)
    @blp.doc(operationId="reissueSeatToken", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], match_id: UUID, seat: int) -> Any:
        """Gives a seat a new token (referee token); the old token stops working at once.
        The body, optional, gives the reason recorded with it."""
        reason = (body or {}).get("reason")
        return matches().reissue_seat_token(match_id, bearer_token(), seat, reason)
