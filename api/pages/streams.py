"""The pages' own streams (issue 47, docs/pages.md, Following a match): server-sent events
that tell a page what changed, so it applies that instead of fetching itself again.

- `/ui/matches/{id}/live/stream` (public): `event: live`, the match page's live part
  (board, seats, scores, deadline, Public Display: `_live.html`) as HTML, once when the
  stream opens; then, whenever what it shows changes, `event: patch`, the edits that turn
  the part the page has into the new one (a sealed order or a referee's look changes
  nothing it shows, and sends nothing). The part of a version and its patch are made once
  a process for all its viewers.
- `/ui/matches/{id}/seat/stream` (a seat's session): `event: receipt`, each order of the
  seat stored after the page's version, from any source (this page, the API, mail, the
  forum), its entry as the events feed gives it to the seat; `event: match`, the match's
  version, status and movement, when they change.
- `/ui/matches/{id}/referee/stream` (the referee's session): `event: desk`, the desk's
  figures (open orders and their seats, disputes awaiting a ruling, the quarantine) when
  they change. Its opening records one look (SecretViewed, what "referee stream"), not
  one an event.

Each is held within the public stream's limits (api/capacity.py) and reads the store only
when its match changed: the signed-in ones are woken by the process's live feed
(service/live/) as the public stream is, the match page's viewers by the one follower of
their match that renders its part (api/pages/live_parts.py), only when what it shows
changed. A signed-in stream re-checks its token at each change and ends with `event:
ended` once the token no longer holds (reissued, or the session ended).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

from flask import Blueprint, current_app, request, stream_with_context
from werkzeug.wrappers import Response

from api.context import matches
from api.pages import session
from api.pages.live_parts import LiveParts, PartFeed
from api.pages.query import TimelineArgsSchema, declares_query
from api.pages.views import shows_errors
from api.schemas.stream import StreamArgsSchema
from api.stream import message, sse, stream_times, watched_stream
from domain.errors import InvalidTokenError
from service.errors import MissingTokenError
from service.live.hub import Watch
from service.queries.eventfilter import EventFilter

blueprint = Blueprint("streams", __name__, url_prefix="/ui/matches/<uuid:match_id>")
shows_errors(blueprint)
PARTS = "drts.live_parts"  # app.extensions: the live parts rendered, by match and timeline
NOT_SIGNED_IN = "this stream needs the page's session: sign in as {} of match {} first"


class LivePageArgsSchema(StreamArgsSchema, TimelineArgsSchema):
    """Where the page's stream starts, and which timeline the page shows."""


class StreamEnded(Exception):
    """The stream's token no longer holds: its last message says so."""


@blueprint.get("/live/stream")
@declares_query(LivePageArgsSchema)
def live_stream(query: dict[str, Any], match_id: UUID) -> Response:
    """The match page's live part, pushed as the match changes (module docstring)."""
    timeline, after = query["timeline"], _after(query)
    if timeline is not None:
        matches().summary(match_id, timeline)  # an unknown timeline is refused here
    parts = _live_parts()

    def events(watch: Watch) -> Iterator[bytes]:
        feed = parts.join(match_id, timeline, watch)
        try:
            yield from _parts_of(parts, feed, after)
        finally:
            parts.leave(feed)

    return watched_stream(match_id, after, _in_request(events))


def _parts_of(parts: LiveParts, feed: PartFeed, after: int) -> Iterator[bytes]:
    """The page's stream: the part at the head at once (the page patches what it was
    sent: the HTML it was served is not that), then each part that shows something new,
    as the feed's follower renders it (api/pages/live_parts.py), as a patch of the part
    before it."""
    sent, shown = after, None  # the version of the part the page has, what it shows

    def opening() -> bytes:
        nonlocal sent, shown
        part = parts.part(feed, after)
        sent, shown = part.version, part.shows
        return part.message

    def next_part(seconds: float) -> bytes:
        nonlocal sent, shown
        part = feed.next_part(shown, seconds)
        if part is None:
            return b""
        was, shown = shown, part.shows
        if part.version <= sent:
            return b""
        sent = part.version
        return part.sent_to(was)

    return sse(next_part, *stream_times(), first=opening)


@blueprint.get("/seat/stream")
@declares_query(StreamArgsSchema)
def seat_stream(query: dict[str, Any], match_id: UUID) -> Response:
    """The seat's receipts and the match's movement, pushed (module docstring)."""
    who = session.signed_in(match_id)
    if who is None or who.seat is None:
        raise MissingTokenError(NOT_SIGNED_IN.format("a seat", match_id))
    token, seen, shown = who.token, _after(query), None
    kept = EventFilter.of(["OrderSubmitted"], seat=who.seat)

    def changed() -> bytes:
        nonlocal seen, shown
        out = []
        while True:
            page = _holding(matches().event_page, match_id, token, seen, 100, kept=kept)
            out += [message(int(e["version"]), "receipt", _json(e)) for e in page.items]
            seen = page.version if page.next is None else page.next
            if page.next is None:
                break
        now = _position(match_id, page.version)
        if now != shown:
            shown = now
            out.append(message(page.version, "match", _json(now)))
        return b"".join(out)

    return _signed_in(watched_stream(match_id, seen, _in_request(_ending(_changes(changed)))))


@blueprint.get("/referee/stream")
@declares_query(StreamArgsSchema)
def referee_stream(query: dict[str, Any], match_id: UUID) -> Response:
    """The referee desk's figures, pushed (module docstring); opening records one look."""
    who = session.signed_in(match_id)
    if who is None or not who.referee:
        raise MissingTokenError(NOT_SIGNED_IN.format("its referee", match_id))
    token, shown, opening = who.token, None, True

    def changed() -> bytes:
        nonlocal shown, opening
        figures = _holding(matches().desk_figures, match_id, token, opening=opening)
        opening, same = False, {**figures, "version": None} == shown
        if same:
            return b""
        shown = {**figures, "version": None}
        return message(int(figures["version"]), "desk", _json(figures))

    streamed = watched_stream(match_id, _after(query), _in_request(_ending(_changes(changed))))
    return _signed_in(streamed)


def _live_parts() -> LiveParts:
    with _parts_lock:
        parts: LiveParts | None = current_app.extensions.get(PARTS)
        if parts is None:
            parts = current_app.extensions[PARTS] = LiveParts()
    return parts


_parts_lock = threading.Lock()


def _signed_in(response: Response) -> Response:
    """A signed-in stream is kept by no cache (as the signed-in pages, api/pages/headers.py)."""
    response.headers["Cache-Control"] = "no-store"
    return response


def _after(query: dict[str, Any]) -> int:
    """Returns where the stream starts: a reconnecting EventSource's Last-Event-ID, else
    the page's `after`."""
    last = request.headers.get("Last-Event-ID", "")
    return int(last) if last.isdecimal() and len(last) < 19 else int(query["after"])


def _changes(changed: Callable[[], bytes]) -> Callable[[Watch], Iterator[bytes]]:
    """A stream sending what `changed` returns at its start and after each new event."""

    def events(watch: Watch) -> Iterator[bytes]:
        def next_change(seconds: float) -> bytes:
            return changed() if watch.next_frames(seconds) else b""

        return sse(next_change, *stream_times(), first=changed)

    return events


def _in_request(events: Callable[[Watch], Iterator[bytes]]) -> Callable[[Watch], Iterator[bytes]]:
    """Keeps the request (its session, its app) for the stream's messages."""
    return lambda watch: stream_with_context(events(watch))


def _ending(
    events: Callable[[Watch], Iterator[bytes]],
) -> Callable[[Watch], Iterator[bytes]]:
    """Ends the stream with `event: ended` once its token no longer holds."""

    def ended(watch: Watch) -> Iterator[bytes]:
        try:
            yield from events(watch)
        except StreamEnded as end:
            yield message(watch.last, "ended", str(end))

    return ended


def _holding(read: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Runs a read with the stream's token; a token that no longer holds ends the stream."""
    try:
        return read(*args, **kwargs)
    except InvalidTokenError as refused:
        raise StreamEnded(f"{refused}: sign in again") from refused


def _position(match_id: UUID, version: int) -> dict[str, Any]:
    summary = matches().summary(match_id)
    return {"version": version, "status": summary.status, "movement": summary.movement}


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)
