"""The pages' own streams over real HTTP (issue 47, api/pages/streams.py): the app served
by werkzeug's threaded server on a loopback port (the embedded default's server), its
store woken by its own writes, read by a bare SSE client (tests/support/sse.py).

- The match page's stream opens with its live part and then pushes what changes in it as
  the match goes on, as patches of the part the page has: what the page then shows is the
  HTML the page's /live part serves, rendered once a version for all its viewers.
- A seat's stream pushes that seat's receipts, from any source, and no other seat's; it
  ends once the seat's token is reissued.
- The referee's stream pushes the desk's figures; its opening records one look
  (SecretViewed, "referee stream"), however many events follow.
- Without the page's session, a signed-in stream is refused (401, the pages' error page).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from api.pages import live_parts
from service.matches import Matches
from tests.pages.conftest import pages_app, serving
from tests.pages.games import GAMES, Played, new_match, play_movement, played_match
from tests.support.pages import Client
from tests.support.sse import EVERY_EVENT_CHANGES, Message, Stream, open_stream, page_parts

LIVE = "/ui/matches/{}/live/stream"
SEAT = "/ui/matches/{}/seat/stream"
REFEREE = "/ui/matches/{}/referee/stream"
VERSION = re.compile(r'data-version="(\d+)"')


@pytest.fixture(scope="module")
def base(service: Matches) -> Iterator[str]:
    with serving(pages_app(service, long_polls=4)) as url:
        yield url


def version_of(service: Matches, played: Played) -> int:
    return service.summary(played.match_id).version


def of(kind: str) -> Any:
    """Returns a `done` for read_until: a message of type `kind` has come."""
    return lambda messages: any(m.event == kind for m in messages)


def typed(stream: Stream, kind: str) -> list[Message]:
    return [m for m in stream.messages if m.event == kind]


def signed_in(base: str, played: Played, token: str) -> str:
    """Signs in with `token` through the form; returns the session cookie."""
    client = Client(base)
    assert client.sign_in(played, token).status == 303
    assert client.cookie is not None
    return client.cookie


def test_the_live_stream_pushes_the_live_part_the_page_serves(base, service):
    """The stream opens with the part at the head; a movement resolving sends a patch,
    which makes that part byte for byte what /ui/matches/{id}/live serves then (but for
    its version and the server's time, which the patch names), so the page applies it
    without fetching."""
    played = played_match(service, "district_war", 2, seed="push")
    loaded = version_of(service, played)
    stream = open_stream(base, str(played.match_id), after=loaded, path=LIVE)
    assert stream.status == 200 and stream.response.getheader("Content-Type").startswith(
        "text/event-stream"
    )
    [opened] = stream.read_until(of("live"))
    assert opened.id == loaded and VERSION.search(opened.data).group(1) == str(loaded)
    play_movement(service, played)
    head = version_of(service, played)
    stream.read_until(lambda ms: ms[-1].id >= head)
    stream.close()
    served = Client(base).get(f"/ui/matches/{played.match_id}/live")
    assert served.status == 200
    last = stream.messages[-1]
    assert last.event == "patch" and last.id == head
    assert f'data-now="{last.data["now"]}"' in served.body
    assert page_parts(stream.messages)[-1] == (
        head,
        EVERY_EVENT_CHANGES.sub("", served.body.strip()),
    )
    assert 'id="movement">4<' in page_parts(stream.messages)[-1][1]
    assert [m.event for m in stream.messages] == ["live"] + ["patch"] * (len(stream.messages) - 1)


@pytest.mark.parametrize("game", GAMES)
def test_in_every_game_the_patched_part_is_the_part_the_page_serves(base, service, game):
    """Two movements of each game followed by patches alone: the part they make is what
    /ui/matches/{id}/live serves at the head (but for its version and the server's time)."""
    played = new_match(service, game, seed=f"patched {game}")
    stream = open_stream(base, str(played.match_id), after=version_of(service, played), path=LIVE)
    stream.read_until(of("live"))
    for _ in range(2):
        play_movement(service, played)
        head = version_of(service, played)
        stream.read_until(lambda ms, head=head: ms[-1].id >= head)
    stream.close()
    served = Client(base).get(f"/ui/matches/{played.match_id}/live").body.strip()
    assert len(typed(stream, "live")) == 1 and len(typed(stream, "patch")) >= 2
    assert stream.messages[-1].id == head
    assert page_parts(stream.messages)[-1] == (head, EVERY_EVENT_CHANGES.sub("", served))


def test_a_patch_is_smaller_than_the_part_it_changes(base, service):
    """A DRTS Team 23 movement of eight seats' orders: its patch is a fraction of the
    part (the board's pieces that moved, the scores, the display), which 1,000 viewers
    would each be sent."""
    played = new_match(service, "drts_team23", seed="small")
    stream = open_stream(base, str(played.match_id), after=version_of(service, played), path=LIVE)
    stream.read_until(of("live"))
    play_movement(service, played)
    head = version_of(service, played)
    stream.read_until(lambda ms: ms[-1].id >= head)
    stream.close()
    whole, patch = stream.messages[0], stream.messages[-1]
    assert patch.event == "patch" and patch.id == head
    assert len(json.dumps(patch.data)) < len(whole.data) / 3
    served = Client(base).get(f"/ui/matches/{played.match_id}/live").body.strip()
    assert page_parts(stream.messages)[-1][1] == EVERY_EVENT_CHANGES.sub("", served)


def test_a_live_stream_opens_with_the_part_at_the_head(base, service):
    """A page older than the match (or a reconnect with an older Last-Event-ID) gets the
    part at the head first; so does one at the head (the page patches the part it was
    sent, not the HTML it was served), and then nothing until the match changes."""
    played = played_match(service, "district_war", 2, seed="behind")
    head = version_of(service, played)
    behind = open_stream(base, str(played.match_id), last_event_id=head - 3, path=LIVE)
    [first] = behind.read_until(of("live"))
    behind.close()
    assert first.id == head and VERSION.search(first.data).group(1) == str(head)
    current = open_stream(base, str(played.match_id), after=head, path=LIVE)
    current.read_until(lambda _: len(current.comments) >= 2, seconds=10)  # two heartbeats
    current.close()
    assert [(m.event, m.id) for m in current.messages] == [("live", head)]


def test_an_event_that_changes_nothing_the_page_shows_sends_no_part(base, service):
    """A sealed order and a referee's look change nothing the live part shows: nothing
    is sent for them (1,000 viewers would each get it); the resolution sends one patch."""
    played = played_match(service, "district_war", 2, seed="unchanged")
    opened_at = version_of(service, played)
    stream = open_stream(base, str(played.match_id), after=opened_at, path=LIVE)
    stream.read_until(of("live"))
    service.note_secret_viewed(played.match_id, "a probe")
    stream.read_until(lambda _: len(stream.comments) >= 2, seconds=10)  # two heartbeats
    assert [m.id for m in stream.messages] == [opened_at]
    play_movement(service, played)
    head = version_of(service, played)
    stream.read_until(lambda ms: ms[-1].id >= head)
    stream.close()
    assert [(m.event, m.id) for m in stream.messages] == [("live", opened_at), ("patch", head)]


def test_every_viewer_of_a_version_gets_one_rendering(base, service, monkeypatch):
    """Three viewers, one movement: each version's part is rendered once for all three
    (the head they open at too: what their page shows), and all three get the same
    messages."""
    rendered: list[int] = []
    live_view = live_parts.model.live_view

    def counted(*args: Any) -> Any:
        view = live_view(*args)
        rendered.append(int(view.summary.version))
        return view

    monkeypatch.setattr(live_parts.model, "live_view", counted)
    played = played_match(service, "district_war", 2, seed="shared")
    loaded = version_of(service, played)
    viewers = [open_stream(base, str(played.match_id), after=loaded, path=LIVE) for _ in "abc"]
    play_movement(service, played)
    head = version_of(service, played)
    for viewer in viewers:
        viewer.read_until(lambda ms: bool(ms) and ms[-1].id >= head)
        viewer.close()
    sent = [[(m.id, m.event, str(m.data)) for m in viewer.messages] for viewer in viewers]
    assert sent[0] == sent[1] == sent[2]
    ids = [version for version, _, _ in sent[0]]
    assert ids == sorted(set(ids))  # rising: no part twice
    assert len(rendered) == len(set(rendered))  # each version once, for all three
    assert set(ids) <= set(rendered) and loaded in rendered  # and the head they opened at


def test_a_seat_stream_sends_its_own_receipts_from_every_source(base, service):
    """Seat 1's stream gets the receipt of each of its orders, whichever way it came
    (the API's, mail's), with its own sealed order; seat 2's order sends it none; then the
    movement resolving says where the match is."""
    played = new_match(service, "drts_team23", seed="receipts")
    loaded = version_of(service, played)
    stream = open_stream(
        base, str(played.match_id), after=loaded, path=SEAT,
        cookie=signed_in(base, played, played.tokens[1]),
    )  # fmt: skip
    [opened] = stream.read_until(of("match"))
    assert opened.data == {"version": loaded, "status": "started", "movement": 1}
    by_api = service.submit_order(played.match_id, played.tokens[1], "hold")
    service.submit_order(played.match_id, played.tokens[2], "hold")
    by_mail = service.submit_order(played.match_id, played.tokens[1], "hold", source="mail")
    stream.read_until(lambda _: len(typed(stream, "receipt")) >= 2)
    stream.close()
    receipts = typed(stream, "receipt")
    assert [m.id for m in receipts] == [by_api.version, by_mail.version]
    assert [m.data["data"]["source"] for m in receipts] == ["api", "mail"]
    assert [m.data["data"]["digest"] for m in receipts] == [by_api.digest, by_mail.digest]
    assert all(m.data["data"]["seat"] == 1 and "sealed" in m.data for m in receipts)


def test_a_seat_stream_says_when_the_movement_resolves(base, service):
    played = played_match(service, "district_war", 1, seed="moved")
    loaded = version_of(service, played)
    stream = open_stream(
        base, str(played.match_id), after=loaded, path=SEAT,
        cookie=signed_in(base, played, played.tokens[2]),
    )  # fmt: skip
    stream.read_until(of("match"))
    play_movement(service, played)
    stream.read_until(lambda _: len(typed(stream, "match")) >= 2)
    stream.close()
    assert [m.data["movement"] for m in typed(stream, "match")] == [2, 3]


def test_a_seat_stream_ends_once_its_token_is_reissued(base, service):
    played = played_match(service, "district_war", 1, seed="reissued")
    stream = open_stream(
        base, str(played.match_id), after=version_of(service, played), path=SEAT,
        cookie=signed_in(base, played, played.tokens[1]),
    )  # fmt: skip
    stream.read_until(of("match"))
    service.reissue_seat_token(played.match_id, played.referee, 1, "lost")
    stream.read_to_end()
    [ended] = typed(stream, "ended")
    assert "sign in again" in ended.data


def secret_looks(service: Matches, played: Played) -> list[str]:
    events = service.events.get(played.match_id)
    return [e.what for e in events if type(e).__name__ == "SecretViewed"]


def test_the_referee_stream_records_one_look_and_follows_the_desk(base, service):
    """Issue 47: opening the referee's stream is one SecretViewed ("referee stream"); its
    figures then follow the orders, a dispute and a resolution without another look."""
    played = played_match(service, "district_war", 1, seed="desk")
    cookie = signed_in(base, played, played.referee)
    looks = secret_looks(service, played)
    stream = open_stream(base, str(played.match_id), after=version_of(service, played),
                         path=REFEREE, cookie=cookie)  # fmt: skip
    [first] = stream.read_until(of("desk"))
    assert secret_looks(service, played) == [*looks, "referee stream"]
    assert first.data["open_orders"] == 0 and first.data["disputes_waiting"] == []
    seat = service.summary(played.match_id).to_move[0]
    service.file_dispute(played.match_id, played.tokens[seat], [1], "a probe")
    stream.read_until(lambda _: typed(stream, "desk")[-1].data["disputes_waiting"] == [1])
    play_movement(service, played)
    stream.read_until(lambda _: typed(stream, "desk")[-1].data["movement"] == 3)
    stream.close()
    assert secret_looks(service, played) == [*looks, "referee stream"]
    assert {m.data["status"] for m in typed(stream, "desk")} == {"started"}


def test_the_referee_stream_counts_the_open_orders_and_their_seats(base, service):
    played = new_match(service, "drts_team23", seed="desk-orders")
    stream = open_stream(
        base, str(played.match_id), after=version_of(service, played), path=REFEREE,
        cookie=signed_in(base, played, played.referee),
    )  # fmt: skip
    stream.read_until(of("desk"))
    for seat in (3, 1):
        service.submit_order(played.match_id, played.tokens[seat], "hold")
    stream.read_until(lambda _: typed(stream, "desk")[-1].data["open_orders"] == 2)
    stream.close()
    assert typed(stream, "desk")[-1].data["seats_ordered"] == [1, 3]


@pytest.mark.parametrize(
    ("path", "who"),
    [(SEAT, None), (SEAT, "referee"), (REFEREE, None), (REFEREE, "seat")],
)
def test_a_signed_in_stream_needs_its_pages_session(base, service, path, who):
    """An EventSource follows no sign-in form: 401 on the pages' error page, naming the
    session the stream needs, and nothing is recorded."""
    played = played_match(service, "district_war", 1, seed=f"refused-{path}-{who}")
    token = {None: None, "referee": played.referee, "seat": played.tokens[1]}[who]
    cookie = None if token is None else signed_in(base, played, token)
    before = version_of(service, played)
    stream = open_stream(base, str(played.match_id), after=before, path=path, cookie=cookie)
    body = stream.response.read().decode()
    stream.close()
    assert stream.status == 401 and "missing_token" in body and "sign in as" in body
    assert version_of(service, played) == before


def test_a_live_stream_of_a_timeline_the_match_lacks_is_refused_before_streaming(base, service):
    played = played_match(service, "district_war", 1, seed="no-timeline")
    stream = open_stream(base, str(played.match_id), path=LIVE + "?timeline=9")
    body = stream.response.read().decode()
    stream.close()
    assert stream.status == 404 and "unknown_timeline" in body


def followers(match_id: object) -> list[str]:
    return [t.name for t in threading.enumerate() if t.name == f"drts-part-{match_id}"]


def test_one_follower_renders_a_match_for_all_its_viewers_and_ends_with_the_last(base, service):
    """A watched match has one follower thread in the process however many viewers it has
    (it renders the part; the viewers wait for it), gone once the last viewer left."""
    played = played_match(service, "district_war", 1, seed="follower")
    head = version_of(service, played)
    viewers = [open_stream(base, str(played.match_id), after=head, path=LIVE) for _ in "ab"]
    for viewer in viewers:
        viewer.read_until(lambda _, v=viewer: len(v.comments) >= 1, seconds=10)
    assert followers(played.match_id) == [f"drts-part-{played.match_id}"]
    play_movement(service, played)
    after = version_of(service, played)
    for viewer in viewers:
        viewer.read_until(lambda ms: bool(ms) and ms[-1].id >= after)
        viewer.close()
    deadline = time.monotonic() + 10
    while followers(played.match_id) and time.monotonic() < deadline:
        time.sleep(0.1)  # a closed viewer is seen at its next write: the heartbeat (1 s)
    assert followers(played.match_id) == []
