"""The live feed of one process: a channel a watched match, fanned out to its viewers.

`LiveFeed.watch(match_id, after)` admits a viewer of a match's public events after
version `after`; `Watch.next_frames(seconds)` blocks until there are frames after the last
one it gave (or `seconds` pass) and returns them in version order, each the rendered feed
entry of one event (`render`, given by the edge, runs once an event, not once a viewer).

One thread a process follows the log's tail (service/live/tail.py): for each match with
viewers that has new events it reads them once in their public form
(`Matches.event_page` without a token: sealed values stay sealed), renders them into the
match's channel and wakes its viewers. A viewer reads the log itself only when the channel
does not reach back to its last event: when it connects or reconnects behind the head, or
when it fell so far behind that the channel's frames were trimmed (KEEP_FRAMES,
KEEP_BYTES). Frames are complete and contiguous: a channel holds every event in (base,
version], so no viewer misses one or gets one twice.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import ConnectionPoolClosedError

from service.live.tail import LogTail
from service.results import Document

KEEP_FRAMES = 512  # frames a channel keeps for viewers a little behind
KEEP_BYTES = 4 * 1024 * 1024  # and at most these many bytes of them
PAGE = 500  # events read from the log at once
WAIT_SECONDS = 1.0  # longest wait of the tail thread before it reads the log again
RETRY_SECONDS = 1.0  # pause after the tail thread failed (the database went away)
IDLE_SECONDS = 2.0  # the tail thread ends after this long without a viewer
logger = logging.getLogger(__name__)
Render = Callable[[Document], bytes]


@dataclass(frozen=True)
class Frame:
    """One event as the stream sends it: its version and its rendered bytes."""

    version: int
    data: bytes


class Channel:
    """The frames of one match's latest events: every event in (base, version], in order
    (`frames[i]` is version base + 1 + i)."""

    def __init__(self, match_id: UUID) -> None:
        self.match_id = match_id
        self.changed = threading.Condition()  # held to read or add frames
        # set once the next frames are added (then replaced): what viewers wait on. Under
        # gevent a threading.Event is gevent's, whose wait allocates nothing, where a
        # Condition's wait allocates a lock each time: a tenth of the stream process's
        # CPU with 1,000 viewers woken at once
        self.arrived = threading.Event()
        self.base = self.version = 0
        self.frames: list[Frame] = []
        self.size = 0
        self.viewers = 0
        self._joined: dict[int, bytes] = {}  # the bytes after a version, joined once

    def after(self, last: int) -> bytes | None:
        """Returns the frames after version `last` as one piece (b"" when there are none),
        or None when the channel does not reach back to it (the viewer reads the log). The
        viewers at the same version share one piece. Call with `changed` held."""
        if last < self.base:
            return None
        if last >= self.version:
            return b""
        joined = self._joined.get(last)
        if joined is None:
            joined = self._joined[last] = b"".join(f.data for f in self.frames[last - self.base :])
        return joined

    def add(self, frames: list[Frame]) -> None:
        """Appends frames (the next versions), trims the oldest beyond the limits and wakes
        the viewers. Call with `changed` held."""
        if not frames:
            return
        self.frames += frames
        self.size += sum(len(frame.data) for frame in frames)
        self.version = frames[-1].version
        drop = 0
        while len(self.frames) - drop > 1 and (
            len(self.frames) - drop > KEEP_FRAMES or self.size > KEEP_BYTES
        ):
            self.size -= len(self.frames[drop].data)
            drop += 1
        if drop:
            self.base = self.frames[drop - 1].version
            del self.frames[:drop]
        self._joined.clear()
        arrived, self.arrived = self.arrived, threading.Event()
        arrived.set()


class LiveFeed:
    """The channels of one process over one Matches application (any object with its
    `head`, `event_page` and `recorder`), and the thread following the log for them."""

    def __init__(self, matches: Any, render: Render) -> None:
        self.matches, self.render = matches, render
        self._channels: dict[UUID, Channel] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self.log_reads = 0  # viewers' own reads of the log (catching up), for the benchmark
        matches.store.before_close(self.stop)  # no read runs on a closed store

    def watch(self, match_id: UUID | str, after: int) -> Watch:
        """Returns a viewer of the match's public events after version `after`; raises
        MatchNotFoundError (before anything is held)."""
        if isinstance(match_id, UUID):
            with self._lock:  # a watched match exists: no read (1,000 viewers arrive at once)
                channel = self._channels.get(match_id)
                if channel is not None:
                    channel.viewers += 1
                    return Watch(self, channel, after)
        head = self.matches.head(match_id)  # an unknown or malformed id is refused here
        match_uuid = match_id if isinstance(match_id, UUID) else UUID(match_id)
        return Watch(self, self._join(match_uuid, head.version), after)

    def channels(self) -> int:
        """Returns how many matches this process's viewers watch."""
        with self._lock:
            return len(self._channels)

    def stop(self) -> None:
        """Stops the thread following the log (when the store closes; a process's exit ends
        it anyway)."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(5)

    # -- the channels ---------------------------------------------------------------------

    def _join(self, match_id: UUID, head: int) -> Channel:
        """Returns the match's channel with one more viewer. A new channel is based at the
        head read while the tail thread cannot publish into it (it holds `changed`): an
        event stored after that read is one the tail thread reads afterwards."""
        with self._lock:
            channel = self._channels.get(match_id)
            if channel is not None:
                channel.viewers += 1
                return channel
            channel = self._channels[match_id] = Channel(match_id)
            channel.viewers = 1
            channel.changed.acquire()
            self._start()
        try:
            channel.base = channel.version = max(head, self.matches.head(match_id).version)
        except BaseException:
            self._leave(channel)  # nobody watches a channel that could not be based
            raise
        finally:
            channel.changed.release()
        return channel

    def _leave(self, channel: Channel) -> None:
        with self._lock:
            channel.viewers -= 1
            if channel.viewers <= 0 and self._channels.get(channel.match_id) is channel:
                del self._channels[channel.match_id]

    def read(self, match_id: UUID, after: int) -> tuple[list[Frame], bool]:
        """Returns the frames of up to PAGE events after `after` from the log, and whether
        more follow."""
        page = self.matches.event_page(match_id, None, after, PAGE)
        frames = [Frame(int(item["version"]), self.render(item)) for item in page.items]
        return frames, page.next is not None

    def _publish(self, channel: Channel) -> None:
        """Reads the channel's new events from the log (once for all its viewers) and
        wakes them."""
        with channel.changed:
            more = True
            while more:
                frames, more = self.read(channel.match_id, channel.version)
                channel.add(frames)

    # -- the thread following the log -----------------------------------------------------

    def _start(self) -> None:
        """Starts the thread following the log, from the log's end now (before the new
        channel is based: an event after this point is one the thread reads). Call with
        `_lock` held."""
        if self._thread is None:
            tail = LogTail(self.matches.store.recorder)
            self._thread = threading.Thread(
                target=self._follow, args=(tail,), name="drts-live", daemon=True
            )
            self._thread.start()

    def _follow(self, tail: LogTail) -> None:
        """Follows the log while the process has viewers; ends once it had none for
        IDLE_SECONDS (the next viewer starts another), or the store was closed."""
        idle_since: float | None = None
        try:
            while not self._stopping.is_set():
                try:
                    with tail.listening():
                        while not self._stopping.is_set():
                            self._deliver(tail.changes())
                            with self._lock:
                                if self._channels:
                                    idle_since = None
                                elif idle_since is None:
                                    idle_since = time.monotonic()
                                elif time.monotonic() - idle_since >= IDLE_SECONDS:
                                    self._thread = None  # the next viewer starts another
                                    return
                            tail.wait(WAIT_SECONDS)
                except ConnectionPoolClosedError:
                    return  # the application was closed
                except Exception:
                    logger.exception("following the log for the live streams failed; again")
                    self._stopping.wait(RETRY_SECONDS)
        finally:
            tail.close()
            with self._lock:
                if self._thread is threading.current_thread():
                    self._thread = None

    def _deliver(self, changed: dict[UUID, int]) -> None:
        """Publishes into the channels of the matches that changed (one failing match
        holds back none of the others)."""
        for match_id, version in changed.items():
            with self._lock:
                channel = self._channels.get(match_id)
            if channel is None or channel.version >= version:
                continue
            try:
                self._publish(channel)
            except Exception:
                logger.exception("publishing match %s to its live streams failed", match_id)


class Watch:
    """One viewer of a match's channel: the frames after its last event, in order."""

    def __init__(self, feed: LiveFeed, channel: Channel, after: int) -> None:
        self.feed, self.channel, self.last = feed, channel, after
        self._closed = False

    def next_frames(self, seconds: float) -> bytes:
        """Returns the frames after the last one given, as one piece, waiting up to
        `seconds` for one (none: b""); from the log when the channel does not reach back."""
        channel = self.channel
        for look in (1, 2):
            with channel.changed:
                joined, arrived = channel.after(self.last), channel.arrived
                if joined is None:
                    break  # the viewer reads the log
                if joined or look == 2:
                    self.last = max(self.last, channel.version)
                    return joined
            arrived.wait(seconds)  # frames added after the look above set it
        self.feed.log_reads += 1
        frames, _ = self.feed.read(channel.match_id, self.last)
        if frames:
            self.last = frames[-1].version
        return b"".join(frame.data for frame in frames)

    def close(self) -> None:
        """Leaves the channel (once)."""
        if not self._closed:
            self._closed = True
            self.feed._leave(self.channel)
