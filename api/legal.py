"""/matches/{id}/legal-orders: what a seat may order now in the open movement (issue 48)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_REQUIRED, documents_errors
from api.schemas.legal import LegalOrdersArgsSchema, LegalOrdersSchema

blp = Blueprint(
    "legal",
    __name__,
    url_prefix="/matches/<uuid:match_id>",
    description="Legal orders: what a seat may order now",
)


@blp.route("/legal-orders")
class LegalOrders(MethodView):
    @blp.arguments(LegalOrdersArgsSchema, location="query")
    @blp.response(200, LegalOrdersSchema)
    @documents_errors(blp, 401, 403, 404, 422)
    @blp.doc(operationId="getLegalOrders", security=TOKEN_REQUIRED)
    def get(self, args: dict[str, Any], match_id: UUID) -> Any:
        """Returns what a seat may order now: the game's whole legal orders, or each piece's
        legal commands with the rule combining them, each in text and JSON forms; empty, with
        why, for a seat that owes nothing now. A seat's token lists its own; the referee's
        the seat named by `seat`."""
        return matches().legal_orders(match_id, bearer_token(), args["seat"])
