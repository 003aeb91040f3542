"""/matches/{id}/stream: a match's public events, pushed as server-sent events (issue 47).

Each event is one SSE message: `id:` its version (so a reconnecting EventSource's
`Last-Event-ID` resumes right after it) and `data:` its entry exactly as the events feed
serves it to a reader without a token (api/schemas/events.py: sealed values stay
sealed). An idle stream sends a comment every DRTS_STREAM_HEARTBEAT_SECONDS and ends after
DRTS_STREAM_MAX_SECONDS (the viewer reconnects). The process's live feed
(service/live/) reads each new event once for all its viewers. A stream holds a
connection, not a thread, where the server is gevent's (docs/operations.md): the limits of
api/capacity.py bound how many a process and an address hold.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

from flask import Response, current_app, request
from flask.views import MethodView

from api.context import Blueprint, capacity, live_feed
from api.errors import documents_errors
from api.schemas.events import EventSchema
from api.schemas.stream import StreamArgsSchema, StreamHeadersSchema
from service.live.hub import Watch
from service.results import Document

RETRY_MS = (1000, 4000)  # reconnection delay a stream asks for, drawn in this range
HEARTBEAT = b": heartbeat\n\n"
EVENT_ENTRY = EventSchema()
SSE_EVENT = {  # one server-sent event, as a client's parser gives it
    "type": "object",
    "properties": {
        "id": {"type": "string", "description": "the event's version"},
        "event": {"type": "string", "description": "always `message`"},
        "data": {"type": "string", "description": "the event's entry (JSON), as /events has it"},
        "retry": {"type": "integer", "description": "milliseconds before a reconnection"},
    },
}

blp = Blueprint(
    "stream",
    __name__,
    url_prefix="/matches/<uuid:match_id>/stream",
    description="A match's public events, pushed (server-sent events)",
)


@blp.route("")
class Stream(MethodView):
    @blp.arguments(StreamArgsSchema, location="query")
    @blp.arguments(StreamHeadersSchema, location="headers")
    @blp.response(
        200,
        SSE_EVENT,
        content_type="text/event-stream",
        description="Server-sent events: `id: <version>` and `data: <the event's public "
        "entry, as GET /matches/{id}/events serves it>` for each event, `: heartbeat` "
        "comments between them",
    )
    @documents_errors(blp, 400, 404, 422, 429, 503)
    @blp.doc(operationId="streamEvents", security=[])
    def get(self, args: dict[str, Any], headers: dict[str, Any], match_id: UUID) -> Any:
        """Streams the match's public events after `after` (or Last-Event-ID), then each
        new one as it is stored. Public: no token is read. A process serves so many
        streams at once, and so many to one address (503 too_many_streams, 429
        too_many_streams_from_address, with Retry-After)."""
        after = headers["last_event_id"]
        after = args["after"] if after is None else after
        return watched_stream(match_id, after, lambda w: sse(w.next_frames, *stream_times()))


def stream_times() -> tuple[float, float]:
    """Returns the app's heartbeat and lifetime of a stream, in seconds."""
    config = current_app.config
    return config["DRTS_STREAM_HEARTBEAT_SECONDS"], config["DRTS_STREAM_MAX_SECONDS"]


def watched_stream(
    match_id: UUID, after: int, events: Callable[[Watch], Iterator[bytes]]
) -> Response:
    """Returns the streamed response of `events(watch)`, a watch of the match after
    version `after` in the process's live feed, held within the stream limits of
    api/capacity.py (raising their refusals, or MatchNotFoundError, before anything is
    held); closing the response leaves the feed and gives the slot back."""
    give_back = capacity().streams.take(request.remote_addr or "unknown")
    try:
        watch = live_feed(render).watch(match_id, after)
    except BaseException:
        give_back()
        raise
    response = Response(events(watch), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy must not hold it back
    response.call_on_close(_closing(watch, give_back))
    return response


def render(item: Document) -> bytes:
    """Returns one event as an SSE message: its version as id, its public entry as data."""
    entry = json.dumps(EVENT_ENTRY.dump(item), separators=(",", ":"), ensure_ascii=False)
    return f"id: {item['version']}\ndata: {entry}\n\n".encode()


def sse(
    next_frames: Callable[[float], bytes],
    heartbeat: float,
    lifetime: float,
    clock: Callable[[], float] = time.monotonic,
    first: Callable[[], bytes] | None = None,
) -> Iterator[bytes]:
    """Yields the stream: the reconnection delay, what `first` returns (if given), then
    what `next_frames(seconds)` returns as it comes (it waits up to `seconds` for
    something to send; b"": nothing), a comment when nothing was sent for `heartbeat`
    seconds, until `lifetime` seconds have passed. The public stream sends a watch's
    frames; a page's stream what they change (api/pages/streams.py), often nothing."""
    yield f"retry: {random.randint(*RETRY_MS)}\n\n".encode()
    end = quiet_since = clock()
    end += lifetime
    if first is not None and (opening := first()):
        yield opening
    while (left := end - clock()) > 0:
        wait = min(heartbeat - (clock() - quiet_since), left)
        frames = next_frames(wait) if wait > 0 else b""
        if frames:
            yield frames
            quiet_since = clock()
        elif clock() - quiet_since >= heartbeat:
            yield HEARTBEAT
            quiet_since = clock()


def message(version: int, event: str, data: str) -> bytes:
    """Returns one SSE message of type `event` with id `version`: each line of `data` a
    `data:` field (the client joins them again with newlines)."""
    lines = "".join(f"data: {line}\n" for line in data.replace("\r", "").split("\n"))
    return f"event: {event}\nid: {version}\n{lines}\n".encode()


def _closing(watch: Watch, give_back: Callable[[], None]) -> Callable[[], None]:
    def close() -> None:
        watch.close()
        give_back()

    return close
