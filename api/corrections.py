"""/matches/{id}/corrections: the referee re-resolves a movement with changed orders; anyone
lists the corrections (docs/referee.md, Correcting a movement)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_REQUIRED, documents_errors
from api.schemas.corrections import CorrectionListSchema, CorrectionRequestSchema, CorrectionSchema

blp = Blueprint(
    "corrections",
    __name__,
    url_prefix="/matches/<uuid:match_id>/corrections",
    description="Corrections: a movement resolved again, the later ones following",
)


@blp.route("")
class Corrections(MethodView):
    @blp.response(200, CorrectionListSchema)
    @documents_errors(blp, 404, 409)
    @blp.doc(operationId="listCorrections")
    def get(self, match_id: UUID) -> Any:
        """Lists the match's corrections, oldest first, and its current timeline."""
        return matches().corrections(match_id)

    @blp.arguments(CorrectionRequestSchema)
    @blp.response(201, CorrectionSchema, description="Recorded as a Corrected event")
    @documents_errors(blp, 400, 401, 403, 404, 409, 413, 422)
    @blp.doc(operationId="correctMovement", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], match_id: UUID) -> Any:
        """Resolves a past movement again with the seats' orders changed (referee or
        operator token); the later movements follow from their recorded orders, each
        checked again; the report lists what the new timeline refused."""
        return matches().correct(
            match_id,
            bearer_token(),
            body["movement"],
            body["changes"],
            body["reason"],
            body["dispute"],
        )
