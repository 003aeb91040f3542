"""/matches/{id}/events: the event log with its chain, by page, with a long poll."""

from __future__ import annotations

import functools
from typing import Any
from uuid import UUID

from flask import current_app
from flask.views import MethodView

from api.context import Blueprint, bearer_token, capacity, matches
from api.errors import TOKEN_OPTIONAL, documents_errors
from api.schemas.events import EventPageSchema, EventsArgsSchema
from service.queries.eventfilter import EventFilter

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
    @documents_errors(blp, 400, 401, 403, 404, 409, 422, 429)
    @blp.doc(operationId="getEvents", security=TOKEN_OPTIONAL)
    def get(self, args: dict[str, Any], match_id: UUID) -> Any:
        """Returns events after version `after` in their public form (docs/integrity.md),
        only those of the given types, movement and seat if asked (an unknown type is a 400
        unknown_event_type listing the known ones); with `wait`, first waits that long
        (capped) for an event when there is none yet. A process lets only so many long polls
        wait at once (429 too_many_long_polls beyond)."""
        wait = min(args["wait"], current_app.config["DRTS_LONG_POLL_MAX_SECONDS"])
        kept = EventFilter.of(args["types"], args["movement"], args["seat"])
        page = functools.partial(
            matches().event_page, match_id, bearer_token(), args["after"], args["limit"], kept=kept
        )
        if wait <= 0:
            return page(0)
        with capacity().long_polls.slot():
            return page(wait)
