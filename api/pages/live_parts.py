"""The match page's live parts in one process (issue 47): each version's part rendered
once for all its viewers, and one follower a watched match and timeline that renders the
part as the match's events arrive and wakes the page's viewers only when what the part
shows changed. A viewer holding the part before is sent a patch of it (what changed, as
edits of its tags and lines: a DRTS Team 23 resolution's patch is 4 to 7 KB of a 30 KB
part), any other the whole part.

An order's arrival (sealed), a refused order or a referee's look changes nothing a viewer
is shown: the follower renders nothing for it (`shown_by_the_part`). Any other event it
renders, once; when the part shows the same, no viewer wakes. Before, every viewer woke
for every event to ask for the part: with 1,000 viewers a DRTS movement's eight sealed
orders woke 8,000 greenlets, and the resolution's part waited behind them; and a
rendering an order cost the stream process 8 to 15 ms of CPU beside the API's.

The follower is a thread of the process (a greenlet under gevent) with its own watch of
the live feed (service/live/) and its own request context, built from the environ of the
request that started it without its cookies (the part is public; the context gives the
part's links the same script root). It ends once the feed has had no viewer for a wait.
"""

from __future__ import annotations

import difflib
import io
import json
import logging
import re
import threading
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from flask import Flask, current_app, render_template, request

from api.context import matches
from api.pages import model
from api.stream import message
from service.live.hub import Watch

FOLLOW_WAIT = 1.0  # the follower's longest wait for events: it ends within this once unwatched
RETRY_SECONDS = 1.0  # after a failed rendering (the database went away), the next try
# what every event changes in a live part, not what it shows: its version, the server's time
EVERY_EVENT_CHANGES = re.compile(r' data-(?:version|now)="[^"]*"')
NOW = re.compile(r' data-now="([^"]*)"')
EVENT_TYPE = re.compile(rb'(?m)^data: \{"type":"(\w+)"')  # a public event's type in a frame
# the public events that change nothing the live part shows (`shown_by_the_part`)
CHANGE_NOTHING_SHOWN = frozenset({b"OrderSubmitted", b"OrderRejected", b"SecretViewed"})
PIECE = re.compile(r"(?=<)|(?<=\n)")  # a patch edits pieces: a tag to the next, or a line
logger = logging.getLogger(__name__)
Key = tuple[UUID, int | None]  # a match and the timeline its page shows


@dataclass(frozen=True)
class Part:
    """A live part as rendered: the version it shows, its `event: live` message, and what
    it shows (its HTML without the version and the server's time, which every event
    changes): a viewer is sent a part only when what it shows changed. `patch` is its
    `event: patch` message, whose `edits` (JSON, api/pages/live_parts.patch) turn `base`
    (what the part before it showed) into `shows`; b"" when there was no part before."""

    version: int
    message: bytes
    shows: str
    base: str | None = None
    edits: str = "[]"
    patch: bytes = b""

    def sent_to(self, shown: str | None) -> bytes:
        """The message for a viewer whose page shows `shown`: the patch if it applies."""
        return self.patch if self.base is not None and self.base == shown else self.message


@dataclass
class PartFeed:
    """The live part of one match and timeline in this process: the latest rendered, the
    event its viewers wait on (set once a part that shows something new is rendered, then
    replaced), and how many viewers it has."""

    key: Key
    rendering: threading.Lock = field(default_factory=threading.Lock)
    latest: Part | None = None
    arrived: threading.Event = field(default_factory=threading.Event)
    viewers: int = 0
    follower: threading.Thread | None = None

    def next_part(self, shown: str | None, seconds: float) -> Part | None:
        """Returns the latest part when it shows something other than `shown`, waiting up
        to `seconds` for one (else None)."""
        arrived, latest = self.arrived, self.latest
        if latest is not None and latest.shows != shown:
            return latest
        arrived.wait(seconds)  # a part rendered after the look above set it
        latest = self.latest
        return latest if latest is not None and latest.shows != shown else None

    def publish(self, part: Part) -> None:
        """Keeps `part` as the latest; wakes the viewers if it shows something new. Call
        with `rendering` held."""
        before, self.latest = self.latest, part
        if before is None or before.shows != part.shows:
            arrived, self.arrived = self.arrived, threading.Event()
            arrived.set()


class LiveParts:
    """The part feeds of this process, by match and timeline."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._feeds: dict[Key, PartFeed] = {}

    def join(self, match_id: UUID, timeline: int | None, watch: Watch) -> PartFeed:
        """Returns the feed of the match's part with one more viewer, starting its follower
        (from the version `watch`'s channel has reached) if it has none. Call in the
        viewer's request; `leave` the feed when the viewer goes."""
        key = (match_id, timeline)
        with self._lock:
            feed = self._feeds.setdefault(key, PartFeed(key))
            feed.viewers += 1
            if feed.follower is None:
                follower = watch.feed.watch(match_id, watch.channel.version)
                feed.follower = threading.Thread(
                    target=self._follow,
                    args=(feed, follower, current_app._get_current_object(), _public(request)),  # type: ignore[attr-defined]
                    name=f"drts-part-{match_id}",
                    daemon=True,
                )
                feed.follower.start()
        return feed

    def leave(self, feed: PartFeed) -> None:
        """One viewer fewer (its follower ends once it has none for a wait)."""
        with self._lock:
            feed.viewers -= 1

    def part(self, feed: PartFeed, version: int) -> Part:
        """Returns the feed's part at `version` or later, rendered now unless one is kept
        (a rendering may be of a later version than asked), and publishes it. Call in a
        request."""
        with feed.rendering:
            kept = feed.latest
            if kept is not None and kept.version >= version:
                return kept
            match_id, timeline = feed.key
            view = model.live_view(matches(), match_id, timeline)
            html = render_template("_live.html", view=view).strip().replace("\r", "")
            part = rendered(int(view.summary.version), html, kept)
            feed.publish(part)
            return part

    def _follow(self, feed: PartFeed, watch: Watch, app: Flask, environ: dict[str, Any]) -> None:
        """Renders the feed's part after the match's new events (but those that change
        nothing it shows) until the feed has no viewer (then drops it)."""
        behind = False  # a rendering failed: try again after a wait
        try:
            with app.request_context(environ):
                while self._watched(feed):
                    frames = watch.next_frames(RETRY_SECONDS if behind else FOLLOW_WAIT)
                    if behind or shown_by_the_part(frames):
                        behind = not self._rendered(feed, watch.last)
        finally:
            watch.close()

    def _watched(self, feed: PartFeed) -> bool:
        """Whether the feed still has viewers; if not, drops it (the next viewer starts a
        new one)."""
        with self._lock:
            if feed.viewers > 0:
                return True
            feed.follower = None
            if self._feeds.get(feed.key) is feed:
                del self._feeds[feed.key]
            return False

    def _rendered(self, feed: PartFeed, version: int) -> bool:
        try:
            self.part(feed, version)
            return True
        except Exception:
            logger.exception("rendering the live part of match %s failed; again", feed.key[0])
            return False


def shown_by_the_part(frames: bytes) -> bool:
    """Whether the public events of `frames` (the live feed's SSE messages) may change
    what the live part shows: any but an order's arrival (sealed until its movement
    closes; the movement it readies resolves in the same write), a refused order and a
    referee's look (tests/pages/test_live_part_events.py plays them in every game).
    Frames whose types it cannot read may."""
    kinds = EVENT_TYPE.findall(frames)
    return bool(frames) and (not kinds or any(k not in CHANGE_NOTHING_SHOWN for k in kinds))


def rendered(version: int, html: str, before: Part | None) -> Part:
    """Returns the part of `html` at `version`, with its patch from what `before` (the
    feed's latest part) shows; a part that shows the same as `before` keeps its patch."""
    shows = EVERY_EVENT_CHANGES.sub("", html)
    if before is not None and before.shows != shows:
        base, edits = before.shows, json.dumps(patch(before.shows, shows), ensure_ascii=False)
    elif before is not None and before.base is not None:
        base, edits = before.base, before.edits
    else:
        return Part(version, message(version, "live", html), shows)
    now = found.group(1) if (found := NOW.search(html)) else ""
    data = f'{{"now":{json.dumps(now)},"size":{utf16_length(shows)},"edits":{edits}}}'
    return Part(
        version, message(version, "live", html), shows, base, edits, message(version, "patch", data)
    )


def pieces(html: str) -> list[str]:
    """The pieces a patch edits: `html` cut before each "<" and after each newline, as
    live.js cuts it (`html.split(/(?=<)|(?<=\n)/)`, which yields no empty piece first or
    last, where Python's split does)."""
    cut = PIECE.split(html)
    if len(cut) > 1 and cut[0] == "":
        del cut[0]
    if len(cut) > 1 and cut[-1] == "":
        del cut[-1]
    return cut


def patch(before: str, after: str) -> list[tuple[int, int, str]]:
    """The edits turning `before` into `after`: (first piece, pieces removed, text put in
    their place), in rising order of `before`'s pieces (live.js makes them from the
    last)."""
    old, new = pieces(before), pieces(after)
    matcher = difflib.SequenceMatcher(None, old, new)  # autojunk: 3x faster, as small
    return [
        (i1, i2 - i1, "".join(new[j1:j2]))
        for kind, i1, i2, j1, j2 in matcher.get_opcodes()
        if kind != "equal"
    ]


def utf16_length(text: str) -> int:
    """The length of `text` as JavaScript counts it: the page checks a patched part by it."""
    return len(text.encode("utf-16-le")) // 2


def _public(asked: Any) -> dict[str, Any]:
    """The request's environ without what is the viewer's own (cookies, authorization,
    the body): what the follower's renderings are made in."""
    environ: dict[str, Any] = dict(asked.environ)
    for own in ("HTTP_COOKIE", "HTTP_AUTHORIZATION", "werkzeug.request"):
        environ.pop(own, None)
    environ.update({"wsgi.input": io.BytesIO(), "CONTENT_LENGTH": "0", "REQUEST_METHOD": "GET"})
    return environ
