"""/matches/{id}/movements/{n} and /receipts/{digest}: a resolved movement's record, and
what a receipt digest proves (issue 17)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_OPTIONAL, documents_errors
from api.schemas.movements import MovementArgsSchema, MovementRecordSchema, ReceiptCheckSchema
from service import limits

blp = Blueprint(
    "movements",
    __name__,
    url_prefix="/matches/<uuid:match_id>",
    description="Past movements and receipts",
)


MOVEMENT = {
    "in": "path",
    "name": "movement",
    "description": "a resolved movement's number",
    "schema": {"type": "integer", "minimum": 1, "maximum": limits.MAX_MOVEMENT},
}
DIGEST = {
    "in": "path",
    "name": "digest",
    "description": "a receipt digest: 64 hexadecimal digits (either case)",
    "schema": {"type": "string", "pattern": "^[0-9a-fA-F]{64}$"},
}


@blp.route("/movements/<int:movement>", parameters=[MOVEMENT])
class Movement(MethodView):
    @blp.arguments(MovementArgsSchema, location="query")
    @blp.response(200, MovementRecordSchema)
    @documents_errors(blp, 401, 404, 409, 422)
    @blp.doc(operationId="getMovement", security=TOKEN_OPTIONAL)
    def get(self, args: dict[str, Any], match_id: UUID, movement: int) -> Any:
        """Returns a resolved movement: each seat's orders as sent and which counted, the
        refused ones with their reasons, receipt digests, steps, the states before and
        after as the token's holder may see them, the phases and the scores; of an earlier
        timeline of a corrected match with `timeline`."""
        return matches().movement(match_id, movement, bearer_token(), args["timeline"])


@blp.route("/receipts/<digest>", parameters=[DIGEST])
class Receipt(MethodView):
    @blp.response(200, ReceiptCheckSchema)
    @documents_errors(blp, 404, 422)
    @blp.doc(operationId="checkReceipt")
    def get(self, match_id: UUID, digest: str) -> Any:
        """Returns what a receipt digest proves: the seat, movement and event holding it;
        the order as sent and parsed once its movement has closed."""
        return matches().receipt(match_id, digest)
