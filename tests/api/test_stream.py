"""The public stream of a match (issue 47): server-sent events of its public events, over
real HTTP.

Across processes: the API (gunicorn, threaded) takes the orders while the streams are
served by another process (gunicorn's gevent worker, as in production), on SQLite (woken
by the poll of the log's tail) and on PostgreSQL (by LISTEN/NOTIFY). Within one process:
werkzeug's threaded server (the embedded default) serves both, woken by its own writes.
No viewer misses an event or gets one twice, across a reconnect with Last-Event-ID too,
and every message is the event's entry as the public events feed served it when the event
was stored: an order's sealed values, which the feed reveals once its movement resolves,
are in a message only if it was sent after that (tests/api/test_secrecy.py).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from werkzeug.serving import make_server

from api.app import create_app
from tests.support.gunicorn import gunicorn
from tests.support.http import call
from tests.support.pages import Client
from tests.support.sse import EVERY_EVENT_CHANGES, open_stream, page_parts, up_to

# District War with 2 troops each: five orders end it (seat 2 wins)
QUICK = ("--graceful-timeout", "2")  # open streams do not hold a stop up
ORDERS = [(2, "first 1"), (1, "e4"), (2, "b4"), (1, "g4"), (2, "g1")]


def new_match(base: str) -> tuple[str, dict[int, str]]:
    """Creates and starts a District War match; returns its id and the seats' tokens."""
    status, new = call(base, "POST", "/matches", {"ruleset": "district_war",
                                                  "config": {"troops": 2}})  # fmt: skip
    assert status == 201, new
    match = f"/matches/{new['match_id']}"
    tokens = {seat: call(base, "POST", f"{match}/seats", {"name": name})[1]["token"]
              for seat, name in ((1, "alice"), (2, "bob"))}  # fmt: skip
    assert call(base, "POST", f"{match}/start", token=new["referee_token"])[0] == 200
    return new["match_id"], tokens


def public_feed(base: str, match_id: str) -> list[dict[str, Any]]:
    """Returns the match's whole public events feed (no token)."""
    items, after = [], 0
    while True:
        status, page = call(base, "GET", f"/matches/{match_id}/events?after={after}&limit=1000")
        assert status == 200, page
        items += page["items"]
        if page["next"] is None:
            return items
        after = page["next"]


def unsealed(entries: list[Any]) -> list[dict[str, Any]]:
    """Returns the entries without the sealed values the feed reveals later."""
    return [{k: v for k, v in entry.items() if k != "sealed"} for entry in entries]


def same_entries(messages: list[Any], feed: list[dict[str, Any]]) -> bool:
    """Returns whether the messages carry the feed's entries (sealed values only as the feed
    has them)."""
    entries = [m.data for m in messages]
    if unsealed(entries) != unsealed(feed):
        return False
    return all(
        e["sealed"] == f["sealed"] for e, f in zip(entries, feed, strict=True) if "sealed" in e
    )


def order(base: str, match_id: str, tokens: dict[int, str], seat: int, text: str) -> None:
    status, body = call(base, "POST", f"/matches/{match_id}/orders", {"order": text}, tokens[seat])
    assert status == 201, body


@pytest.fixture
def two_processes(database_url: str) -> Iterator[tuple[str, str]]:
    """(the API's base URL, the streams' base URL): two gunicorns on one store."""
    # one session secret: a page's session signed in on the API opens its stream there too
    settings = {"DRTS_STREAM_MAX_SECONDS": "120", "DRTS_SESSION_SECRET": "s" * 32}
    with (
        gunicorn(database_url, threads=4, settings=settings) as api,
        gunicorn(database_url, worker_class="gevent", settings=settings, options=QUICK) as streams,
    ):
        yield api, streams


def test_every_viewer_gets_every_public_event_once_in_order_from_another_process(two_processes):
    api, streams = two_processes
    match_id, tokens = new_match(api)
    head = len(public_feed(api, match_id))
    viewers = [open_stream(streams, match_id, after=0) for _ in range(5)]
    late = open_stream(streams, match_id, after=head)  # follows from the head: reads no backlog
    for viewer in [*viewers, late]:
        assert viewer.status == 200
        assert viewer.response.getheader("Content-Type").startswith("text/event-stream")
    for viewer in viewers:
        viewer.read_until(up_to(head))
    for seat, text in ORDERS:
        order(api, match_id, tokens, seat, text)
    feed = public_feed(api, match_id)
    assert feed[-1]["type"] == "Finished"
    for viewer in viewers:
        got = viewer.read_until(up_to(len(feed)))
        assert [m.id for m in got] == list(range(1, len(feed) + 1))  # none missed, none twice
        assert same_entries(got, feed)  # the public feed's entries
    assert same_entries(late.read_until(up_to(len(feed))), feed[head:])
    assert 1000 <= viewers[0].retry <= 4000
    for viewer in [*viewers, late]:
        viewer.close()


def test_a_viewer_reconnecting_with_last_event_id_gets_exactly_what_it_missed(two_processes):
    api, streams = two_processes
    match_id, tokens = new_match(api)
    first = open_stream(streams, match_id)
    order(api, match_id, tokens, *ORDERS[0])
    seen = first.read_until(up_to(len(public_feed(api, match_id))))
    first.close()  # gone: the match goes on without it
    for seat, text in ORDERS[1:3]:
        order(api, match_id, tokens, seat, text)
    again = open_stream(streams, match_id, after=0, last_event_id=seen[-1].id)  # header wins
    for seat, text in ORDERS[3:]:
        order(api, match_id, tokens, seat, text)
    feed = public_feed(api, match_id)
    resumed = again.read_until(up_to(len(feed)))
    assert [m.id for m in seen + resumed] == list(range(1, len(feed) + 1))
    assert same_entries(seen + resumed, feed)
    again.close()


def test_the_pages_streams_follow_the_match_from_the_stream_process(two_processes):
    """The pages' own streams (api/pages/streams.py) in the gevent process, as in
    production: the live part pushed as the API takes the orders, and a seat signed in on
    the API's pages gets its receipts from the stream process."""
    api, streams = two_processes
    match_id, tokens = new_match(api)
    head = len(public_feed(api, match_id))
    live = open_stream(streams, match_id, after=head, path="/ui/matches/{}/live/stream")
    client = Client(api)
    assert client.sign_in(SimpleNamespace(match_id=match_id), tokens[2]).status == 303
    seat = open_stream(streams, match_id, after=head, path="/ui/matches/{}/seat/stream",
                       cookie=client.cookie)  # fmt: skip
    assert (live.status, seat.status) == (200, 200)
    for seat_number, text in ORDERS:
        order(api, match_id, tokens, seat_number, text)
    last = len(public_feed(api, match_id))
    parts = live.read_until(up_to(last))
    assert [m.event for m in parts] == ["live"] + ["patch"] * (len(parts) - 1)
    served = Client(api).get(f"/ui/matches/{match_id}/live").body.strip()
    assert 'data-status="finished"' in served and f'data-version="{last}"' in served
    assert page_parts(parts)[-1] == (last, EVERY_EVENT_CHANGES.sub("", served))
    seat.read_until(lambda got: len([m for m in got if m.event == "receipt"]) == 3)
    receipts = [m.data["data"] for m in seat.messages if m.event == "receipt"]
    assert [(r["seat"], r["movement"]) for r in receipts] == [(2, 1), (2, 3), (2, 5)]
    live.close()
    seat.close()


@pytest.fixture
def one_process(service) -> Iterator[str]:
    """The API and its streams in one werkzeug process (the embedded default), with small
    stream limits: 3 in all, 2 an address; a heartbeat every 0.5 s, 4 s a stream."""
    app = create_app(
        {"TESTING": True, "DRTS_MAX_STREAMS": 3, "DRTS_MAX_STREAMS_PER_ADDRESS": 2,
         "DRTS_STREAM_HEARTBEAT_SECONDS": 0.5, "DRTS_STREAM_MAX_SECONDS": 4},
        matches=service,
    )  # fmt: skip
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def test_within_one_process_a_viewer_is_woken_by_the_process_s_own_writes(one_process):
    match_id, tokens = new_match(one_process)
    viewer = open_stream(one_process, match_id, after=len(public_feed(one_process, match_id)))
    for seat, text in ORDERS:
        order(one_process, match_id, tokens, seat, text)
    feed = public_feed(one_process, match_id)
    got = viewer.read_until(up_to(len(feed)))
    assert same_entries(got, feed[len(feed) - len(got) :])
    assert got[-1].data["type"] == "Finished"
    viewer.close()


def test_viewers_over_the_limits_are_told_when_to_come_back(one_process):
    match_id, _ = new_match(one_process)
    held = [open_stream(one_process, match_id) for _ in range(2)]  # from 127.0.0.1
    over = open_stream(one_process, match_id)
    assert over.status == 429 and over.response.getheader("Retry-After") == "10"
    assert json.loads(over.response.read())["code"] == "too_many_streams_from_address"
    held.append(open_stream(one_process, match_id, source="127.0.0.2"))  # the process's 3rd
    full = open_stream(one_process, match_id, source="127.0.0.3")
    assert full.status == 503 and full.response.getheader("Retry-After") == "10"
    body = json.loads(full.response.read())
    assert (body["code"], body["status"]) == ("too_many_streams", 503)
    assert all(stream.status == 200 for stream in held)
    held[0].close()  # its slot comes back once the server writes to it again (a heartbeat)
    again = open_stream(one_process, match_id)
    for _ in range(30):
        if again.status == 200:
            break
        time.sleep(0.2)
        again = open_stream(one_process, match_id)
    assert again.status == 200
    for stream in [*held[1:], again]:
        stream.close()


def test_an_unknown_match_or_a_bad_position_is_refused_before_any_stream(one_process):
    unknown = open_stream(one_process, "5f0c0a4e-0000-4000-8000-000000000000")
    assert unknown.status == 404 and json.loads(unknown.response.read())["code"] == (
        "match_not_found"
    )
    match_id, _ = new_match(one_process)
    bad = open_stream(one_process, match_id, last_event_id=-1)
    assert bad.status == 422 and json.loads(bad.response.read())["code"] == "validation_error"
    for path, status, code in [
        ("?after=x", 422, "validation_error"),
        ("?wait=1", 400, "unknown_parameter"),
    ]:
        answer, body = call(one_process, "GET", f"/matches/{match_id}/stream{path}")
        assert (answer, body["code"]) == (status, code)


def test_an_idle_stream_sends_heartbeats_and_ends_after_its_lifetime(one_process):
    match_id, _ = new_match(one_process)
    idle = open_stream(one_process, match_id, after=len(public_feed(one_process, match_id)))
    assert idle.read_to_end(seconds=30) == []  # nothing happened: no message
    assert len(idle.comments) >= 6 and set(idle.comments) == {"heartbeat"}
