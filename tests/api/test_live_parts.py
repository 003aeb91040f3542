"""The part feed of a watched match (api/pages/live_parts.py, issue 47): its viewers wake
only for a part that shows something new, not for each event the follower renders; and
the patch a viewer holding the part before it is sent instead of the whole part."""

from __future__ import annotations

import io
import threading
import time
from uuid import uuid4

from api.pages.live_parts import Part, PartFeed, pieces, rendered
from tests.support.sse import Stream, page_parts


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


def test_a_patch_turns_the_part_before_into_the_new_one():
    """The edits of a patch, made from the last as live.js makes them, give the new
    part; its size is the new part's length as JavaScript counts it (UTF-16: a seat
    named with an emoji counts twice)."""
    before = '<section id="live" data-version="4" data-now="t1"><p>seat 🦊 1</p><g>a</g>'
    after = '<section id="live" data-version="9" data-now="t2"><p>seat 🦊 2</p><g>b</g><g>c</g>'
    first = rendered(4, before, None)
    part = rendered(9, after, first)
    assert part.base == first.shows == '<section id="live"><p>seat 🦊 1</p><g>a</g>'
    [whole], [message] = read(first.message), read(part.patch)
    assert message.event == "patch" and message.id == 9 and message.data["now"] == "t2"
    [_, (version, patched)] = page_parts([whole, message])
    assert version == 9 and patched == part.shows
    assert part.shows == '<section id="live"><p>seat 🦊 2</p><g>b</g><g>c</g>'
    assert message.data["size"] == len(part.shows) + 1  # the fox is two UTF-16 units


def test_a_part_that_shows_the_same_keeps_the_patch_before_it():
    """A sealed order after a resolution: the new part shows what the last patched one
    showed, so a viewer still on the part before that gets the same edits."""
    first = rendered(4, '<s data-version="4"><b>1</b>', None)
    moved = rendered(9, '<s data-version="9"><b>2</b>', first)
    sealed = rendered(10, '<s data-version="10"><b>2</b>', moved)
    assert sealed.base == moved.base == first.shows and sealed.edits == moved.edits
    assert sealed.sent_to(first.shows) == sealed.patch and b"id: 10" in sealed.patch
    assert sealed.sent_to(None) == sealed.message  # a viewer without that part: the whole


def test_a_first_part_has_no_patch():
    part = rendered(3, "<s><b>1</b>", None)
    assert part.base is None and part.patch == b"" and part.sent_to(part.shows) == part.message


def test_pieces_are_cut_as_javascript_splits():
    """live.js cuts with `split(/(?=<)|(?<=\\n)/)`: before each tag and after each
    newline, never an empty piece first or last (Python's split gives them)."""
    assert pieces("<a><b>x</b>") == ["<a>", "<b>x", "</b>"]
    assert pieces("text<a>") == ["text", "<a>"]
    assert pieces("<pre>a\nb\n</pre>\n") == ["<pre>a\n", "b\n", "</pre>\n"]
    assert pieces("<a>\n\n<b>") == ["<a>\n", "\n", "<b>"]
    assert pieces("") == [""]
    assert pieces("<<a") == ["<", "<a"]


def read(raw: bytes) -> list:
    """The messages of `raw` SSE bytes, parsed as tests/support/sse.py parses a stream."""
    stream = Stream(response=io.BufferedReader(io.BytesIO(raw)), connection=None)  # type: ignore[arg-type]
    stream.read_to_end()
    return stream.messages
