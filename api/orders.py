"""/matches/{id}/orders: a seat sends an order (receipt back); the open movement's orders.

The POST is the hot path of intake (issue 46): its request schema is built once, not per
request (webargs makes one per request from a class), and its receipt is written out as
JSON directly (`receipt_json`), not dumped through ReceiptSchema, which still documents
it: the OpenAPI document and the answers stay what they were (tests/api/test_order_route.py).
"""

from __future__ import annotations

from typing import Any, cast
from uuid import UUID

from flask import Flask, Response, current_app
from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches, received_at
from api.errors import TOKEN_OPTIONAL, TOKEN_REQUIRED, documents_errors
from api.schemas.orders import (
    OrderRequestSchema,
    PendingOrdersSchema,
    ReceiptSchema,
    receipt_json,
)
from service.results import OrderReceipt

blp = Blueprint(
    "orders",
    __name__,
    url_prefix="/matches/<uuid:match_id>/orders",
    description="Orders: send one, see the open movement's",
)
ORDER_REQUEST = OrderRequestSchema()  # one instance: documented as the class would be
CREATED = 201


@blp.route("")
class Orders(MethodView):
    @blp.arguments(ORDER_REQUEST)
    @blp.response(
        CREATED, ReceiptSchema, description="Accepted: the receipt (digest, movement, received at)"
    )
    @documents_errors(blp, 400, 401, 403, 404, 409, 413, 422)
    @blp.doc(operationId="sendOrder", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], match_id: UUID) -> Any:
        """Sends an order for the seat holding the token; a refused one is recorded with why."""
        receipt = matches().submit_order(
            match_id,
            bearer_token(),
            body["order"],
            source=body["source"],
            movement=body["movement"],
            received_at=received_at(),
        )
        return receipt_answer(current_app, receipt)

    @blp.response(200, PendingOrdersSchema)
    @documents_errors(blp, 401, 403, 404)
    @blp.doc(operationId="getOrders", security=TOKEN_OPTIONAL)  # public orders: B-Chess
    def get(self, match_id: UUID) -> Any:
        """Returns the open movement's orders: a seat's own; all of them to the referee (on
        record as a SecretViewed event); all of them to anyone, token or not, in a game whose
        orders are public (B-Chess)."""
        return matches().open_orders(match_id, bearer_token())


def receipt_answer(app: Flask, receipt: OrderReceipt) -> Response:
    """Returns the 201 answer carrying an order's receipt (the view's and the lane's:
    api/order_lane.py)."""
    answer = cast(Response, app.json.response(receipt_json(receipt)))  # Flask's class
    answer.status_code = CREATED
    return answer
