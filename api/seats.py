"""/matches/{id}/seats: join (the seat token and order address, once), a referee's reissue
of a lost token, and a seat's result address for orders by mail (docs/mail.md)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_REQUIRED, documents_errors
from api.schemas.seats import (
    ConfirmAddressSchema,
    JoinSchema,
    ReissueRequestSchema,
    ResultAddressSchema,
    SeatAddressSchema,
    SeatTokenSchema,
)

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
    @documents_errors(blp, 400, 401, 403, 404, 409, 413, 422)
    @blp.doc(operationId="joinMatch")
    def post(self, body: dict[str, Any], match_id: UUID) -> Any:
        """Takes the next free seat for player `name`; returns its token and its order
        address (shown only once). A `result_address` is mailed a confirmation code."""
        return matches().join(
            match_id,
            body["name"],
            body.get("result_address"),
            player=body["player"],  # issue 45
            player_key=body["player_key"],
        )


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


@blp.route("/result-address")
class ResultAddress(MethodView):
    @blp.arguments(ResultAddressSchema)
    @blp.response(200, SeatAddressSchema, description="Registered; a confirmation code is mailed")
    @documents_errors(blp, 401, 403, 404, 409, 422)
    @blp.doc(operationId="registerResultAddress", security=TOKEN_REQUIRED)
    def put(self, body: dict[str, Any], match_id: UUID) -> Any:
        """Registers where the token's seat's answers by mail go (replacing any other); the
        address is mailed a confirmation code, and gets nothing else until confirmed."""
        address = matches().register_result_address(match_id, bearer_token(), body["address"])
        return {"match_id": match_id, "result_address": address, "confirmed": False}


@blp.route("/result-address/confirm")
class ConfirmResultAddress(MethodView):
    @blp.arguments(ConfirmAddressSchema)
    @blp.response(200, SeatAddressSchema, description="Confirmed: answers go there now")
    @documents_errors(blp, 401, 403, 404, 409, 422)
    @blp.doc(operationId="confirmResultAddress", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], match_id: UUID) -> Any:
        """Confirms the token's seat's result address with the code mailed to it."""
        address = matches().confirm_result_address(match_id, bearer_token(), body["code"])
        return {"match_id": match_id, "result_address": address, "confirmed": True}
