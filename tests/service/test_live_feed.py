"""The live feed of one process (service/live/, issue 47), on SQLite and PostgreSQL: every
viewer of a match gets every event after its position once, in order; the feed reads the
new events once for all viewers, and a viewer reads the log only to catch up (when it
starts behind the head, or fell behind what the channel keeps)."""

from __future__ import annotations

import json

import pytest

from service.live import hub
from service.live.hub import LiveFeed
from service.matches import Matches
from service.settings import Settings
from tests.support.matches import started


def render(item) -> bytes:
    return f"id: {item['version']}\ndata: {json.dumps(item['type'])}\n\n".encode()


def versions(piece: bytes) -> list[int]:
    return [int(line[4:]) for line in piece.decode().splitlines() if line.startswith("id: ")]


def take(watch, until: int, seconds: float = 10) -> list[int]:
    """Returns the versions a viewer takes until it reaches `until`."""
    got: list[int] = []
    while not got or got[-1] < until:
        piece = watch.next_frames(seconds)
        assert piece, f"nothing within {seconds} s after {got}"
        got += versions(piece)
    return got


@pytest.fixture
def feed(matches):
    live = LiveFeed(matches, render)
    yield live
    live.stop()


def test_viewers_at_the_head_get_each_new_event_once_from_one_read(matches, feed):
    new, alice, bob = started(matches)
    head = matches.head(new.match_id).version
    viewers = [feed.watch(new.match_id, head) for _ in range(20)]
    assert feed.channels() == 1
    matches.submit_order(new.match_id, alice.token, "1")
    matches.submit_order(new.match_id, bob.token, "2")  # closes and resolves the movement
    end = matches.head(new.match_id).version
    for viewer in viewers:
        assert take(viewer, end) == list(range(head + 1, end + 1))
    assert feed.log_reads == 0  # every viewer took the channel's frames
    for viewer in viewers:
        viewer.close()
    assert feed.channels() == 0


def test_a_viewer_behind_reads_the_log_once_then_follows_the_channel(matches, feed):
    new, alice, _ = started(matches)
    viewer = feed.watch(new.match_id, 0)  # from the start: the log first
    head = matches.head(new.match_id).version
    assert take(viewer, head) == list(range(1, head + 1)) and feed.log_reads == 1
    matches.submit_order(new.match_id, alice.token, "1")
    end = matches.head(new.match_id).version
    assert take(viewer, end) == list(range(head + 1, end + 1)) and feed.log_reads == 1
    viewer.close()


def test_a_viewer_that_fell_behind_the_kept_frames_catches_up_from_the_log(
    matches, feed, monkeypatch
):
    monkeypatch.setattr(hub, "KEEP_FRAMES", 2)
    new, alice, bob = started(matches)
    head = matches.head(new.match_id).version
    slow, quick = feed.watch(new.match_id, head), feed.watch(new.match_id, head)
    for _ in range(3):
        matches.submit_order(new.match_id, alice.token, "1")
        matches.submit_order(new.match_id, bob.token, "2")
        take(quick, matches.head(new.match_id).version)
    end = matches.head(new.match_id).version
    assert len(feed._channels[slow.channel.match_id].frames) == 2
    assert take(slow, end) == list(range(head + 1, end + 1))  # none missed, none twice
    assert feed.log_reads >= 1


def test_closing_the_store_stops_the_thread_following_the_log_first(
    database_url, clock, toy_rulesets
):
    # an SQLite connection closed under the thread's running read crashed the test process
    app = Matches(env=Settings(database_url).event_store_env(), clock=clock)
    try:
        new, alice, _ = started(app)
        live = LiveFeed(app, render)
        viewer = live.watch(new.match_id, app.head(new.match_id).version)
        app.submit_order(new.match_id, alice.token, "1")
        assert take(viewer, app.head(new.match_id).version)  # the thread is following
        thread = live._thread
        assert thread is not None and thread.is_alive()
    finally:
        app.close()
    assert not thread.is_alive()
