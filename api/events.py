"""/matches/{id}/events: the event log with its chain, by page, with a long poll."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import current_app
from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_OPTIONAL, documents_errors
from api.schemas import EventPageSchema, EventsArgsSchema

blp = Blueprint(
    "events",
    __name__,
    url_prefix="/matches/<uuid:match_id>/events",
    description="The event log: chained, paged, long-polled",
)


@blp.route("")
class Events(MethodView):
    @blp.arguments(EventsArgsSchema, location="query")
    @blp.response(200, EventPageSchema)
    @documents_errors(blp, 401, 403, 404, 422)
    @blp.doc(operationId="getEvents", security=TOKEN_OPTIONAL)
    def get(self, args: dict[str, Any], match_id: UUID) -> Any:
        """Returns events after version `after` in their public form (docs/integrity.md); with
        `wait`, first waits that long (capped) for one when there is none yet."""
        wait = min(args["wait"], current_app.config["DRTS_LONG_POLL_MAX_SECONDS"])
        return matches().event_page(match_id, bearer_token(), args["after"], args["limit"], wait)
