"""/matches/{id}/protocol: a seat's message in its game's bot protocol (Shades: SH-11)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Response, jsonify
from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_REQUIRED, documents_errors
from api.schemas.protocol import ProtocolArgsSchema
from service.channels.protocol import Message, protocol_message

blp = Blueprint(
    "protocol",
    __name__,
    url_prefix="/matches/<uuid:match_id>/protocol",
    description="Bot protocol messages, for remote bots",
)


@blp.route("")
class Protocol(MethodView):
    @blp.arguments(ProtocolArgsSchema, location="query")
    @blp.response(
        200,
        {"type": "object"},
        description="The message exactly as the game's bot protocol writes it (docs/games/)",
    )
    @documents_errors(blp, 401, 403, 404, 409, 422)
    @blp.doc(operationId="getProtocolMessage", security=TOKEN_REQUIRED)
    def get(self, args: dict[str, Any], match_id: UUID) -> Response:
        """Returns a seat's message of its game's bot protocol, built from the match now: the
        state message of the open turn (`message=turn`) or the init message (`init`). A seat
        reads its own with its token; the referee names any seat. Its reply is an order."""
        message = protocol_message(
            matches(), match_id, bearer_token(), args["seat"], Message(args["message"])
        )
        return jsonify(message)
