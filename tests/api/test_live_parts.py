"""The part feed of a watched match (api/pages/live_parts.py, issue 47): its viewers wake
only for a part that shows something new, not for each event the follower renders."""

from __future__ import annotations

import threading
import time
from uuid import uuid4

from api.pages.live_parts import Part, PartFeed


def part(version: int, shows: str) -> Part:
    return Part(version, f"id: {version}\n\n".encode(), shows)


def waiting(feed: PartFeed, shown: str | None, seconds: float) -> tuple[threading.Thread, list]:
    """A viewer waiting on the feed in a thread: what it got and when."""
    got: list = []

    def wait() -> None:
        started = time.monotonic()
        got.append((feed.next_part(shown, seconds), time.monotonic() - started))

    viewer = threading.Thread(target=wait)
    viewer.start()
    time.sleep(0.1)  # it waits
    return viewer, got


def test_a_part_that_shows_the_same_wakes_no_viewer():
    feed = PartFeed((uuid4(), None))
    feed.publish(part(5, "board A"))
    viewer, got = waiting(feed, "board A", seconds=1.0)
    feed.publish(part(6, "board A"))  # a sealed order: the version moved, not the board
    viewer.join()
    [(returned, waited)] = got
    assert returned is None and waited >= 0.9  # waited its whole time
    assert feed.latest is not None and feed.latest.version == 6


def test_a_part_that_shows_something_new_wakes_the_viewers_at_once():
    feed = PartFeed((uuid4(), None))
    feed.publish(part(5, "board A"))
    viewer, got = waiting(feed, "board A", seconds=5.0)
    feed.publish(part(9, "board B"))
    viewer.join(2)
    [(returned, waited)] = got
    assert returned is not None and returned.version == 9 and waited < 2


def test_a_viewer_behind_the_latest_part_gets_it_without_waiting():
    feed = PartFeed((uuid4(), None))
    feed.publish(part(7, "board C"))
    started = time.monotonic()
    got = feed.next_part("board A", seconds=5.0)
    assert got is not None and got.version == 7 and time.monotonic() - started < 1
