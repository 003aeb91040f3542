"""/matches/{id}/referee/result-address: where the referee gets every result and every
dispute notice of the match by mail (docs/mail.md), confirmed like a seat's address."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_REQUIRED, documents_errors
from api.schemas.seats import ConfirmAddressSchema, ResultAddressSchema, SeatAddressSchema

blp = Blueprint(
    "referee-address",
    __name__,
    url_prefix="/matches/<uuid:match_id>/referee/result-address",
    description="The referee's result address: every result and dispute notice by mail",
)


@blp.route("")
class RefereeAddress(MethodView):
    @blp.arguments(ResultAddressSchema)
    @blp.response(200, SeatAddressSchema, description="Registered; a confirmation code is mailed")
    @documents_errors(blp, 401, 403, 404, 409, 422)
    @blp.doc(operationId="registerRefereeAddress", security=TOKEN_REQUIRED)
    def put(self, body: dict[str, Any], match_id: UUID) -> Any:
        """Registers where the referee's mail goes (referee or operator token), replacing
        any other; the address is mailed a confirmation code, and gets nothing else until
        confirmed."""
        address = matches().register_referee_address(match_id, bearer_token(), body["address"])
        return {"match_id": match_id, "result_address": address, "confirmed": False}


@blp.route("/confirm")
class ConfirmRefereeAddress(MethodView):
    @blp.arguments(ConfirmAddressSchema)
    @blp.response(200, SeatAddressSchema, description="Confirmed: results and notices go there")
    @documents_errors(blp, 401, 403, 404, 409, 422)
    @blp.doc(operationId="confirmRefereeAddress", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], match_id: UUID) -> Any:
        """Confirms the referee's result address with the code mailed to it (referee or
        operator token); replying to the confirmation mail does the same."""
        address = matches().confirm_referee_address(match_id, bearer_token(), body["code"])
        return {"match_id": match_id, "result_address": address, "confirmed": True}
