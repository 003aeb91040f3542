"""Forum posts as orders over HTTP (issue 27, docs/forum.md): a forum integration holding
the operator token sends posts; each is a seat's order through the referee's mapping of
forum users or a one-time code, idempotent by post id, its received time bounded by the
receipt; the reply is a text to post back, and after each movement the Public Display
with the head. On SQLite and on PostgreSQL, with a hand-driven clock."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.app import create_app
from service.channels.forum.desk import posts_of
from service.clock import ManualClock
from service.matches import Matches
from service.settings import Settings
from tests.api.conftest import OPERATOR, HttpMatch, assert_error, bearer

# BC-10's checkmate (after tests/scenarios/b_chess/bc_10_the_last_king_wins.json): seat 1's
# Rook takes seat 2's King, the last King left wins. The Rook stands beside the King: seat 2's
# purchase comes first (BC-3) and places its object on a random empty square beside its King
# (BC-6), which must never be on the Rook's path, whatever the match's seed.
LAST_KING_WINS = json.loads(
    '{"config": {"torus": true, "turn_seconds": 86400, "refund": false, "starting_macks": 50},'
    ' "turn": 0, "next_number": 4, "seats": {"1": {"macks": 50, "out": false},'
    ' "2": {"macks": 50, "out": false}}, "priority_list": ['
    '{"id": "K1", "owner": 1, "square": [10, 10]}, {"id": "K2", "owner": 2, "square": [15, 15]},'
    ' {"id": "R3", "owner": 1, "square": [15, 14]}], "ended": null}'
)


@pytest.fixture
def service(database_url: str, clock: ManualClock, toy_rulesets: None) -> Iterator[Matches]:
    app = Matches(
        env=Settings(database_url).event_store_env(), clock=clock, operator_token=OPERATOR
    )
    yield app
    app.close()


@pytest.fixture
def client(service: Matches) -> FlaskClient:
    return create_app({"TESTING": True}, matches=service).test_client()


def post(client: FlaskClient, match: HttpMatch, author: str, post_id: str, body: str, **more: Any):
    """Sends a post as the forum integration (the operator token)."""
    sent = {"author": author, "post_id": post_id, "body": body, **more}
    return client.post(f"/matches/{match.id}/posts", json=sent, headers=bearer(OPERATOR))


def map_user(client: FlaskClient, match: HttpMatch, user: str, seat: int | None) -> Any:
    return client.post(
        f"/matches/{match.id}/forum-users",
        json={"user": user, "seat": seat},
        headers=bearer(match.referee),
    )


def code_for(client: FlaskClient, match: HttpMatch, seat: int) -> str:
    response = client.post(
        f"/matches/{match.id}/seats/forum-code", headers=bearer(match.seats[seat - 1])
    )
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["seat"] == seat
    return str(response.get_json()["code"])


def events(client: FlaskClient, match: HttpMatch, kinds: str) -> list[dict[str, Any]]:
    return client.get(f"/matches/{match.id}/events?type={kinds}").get_json()["items"]


def test_a_mapped_users_post_is_its_seats_order_and_the_reply_its_receipt(client):
    match = HttpMatch(client)
    assert map_user(client, match, "Alice_F", 1).get_json()["users"] == [
        {"user": "Alice_F", "seat": 1, "identity": None}
    ]
    response = post(client, match, "Alice_F", "t1-p1", "> quoted\n1\n-- \nAlice")
    assert response.status_code == 201, response.get_json()
    reply = response.get_json()
    assert (reply["outcome"], reply["seat"], reply["replayed"]) == ("accepted", 1, False)
    (stored,) = events(client, match, "OrderSubmitted")
    assert (stored["data"]["source"], stored["data"]["message_id"]) == ("forum", "t1-p1")
    assert (stored["version"], stored["data"]["digest"]) == (reply["version"], reply["digest"])
    text = reply["reply"]
    assert text.startswith("@Alice_F (post t1-p1):")
    assert f"Digest:      {reply['digest']}" in text and "Head:        version" in text
    assert match.seats[0] not in text and match.referee not in text  # no secret in public
    mapped = events(client, match, "ForumUserMapped")
    assert [(e["data"]["user"], e["data"]["seat"], e["data"]["by"]) for e in mapped] == [
        ("Alice_F", 1, "referee")
    ]


def test_a_replayed_post_id_answers_with_the_first_reply_and_stores_nothing(client):
    match = HttpMatch(client)
    map_user(client, match, "alice", 1)
    first = post(client, match, "alice", "p-7", "1")
    again = post(client, match, "alice", "p-7", "2")  # an edited post keeps its id
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json() == {**first.get_json(), "replayed": True}
    assert len(events(client, match, "OrderSubmitted,OrderRejected")) == 1


def test_a_post_by_an_unmapped_user_is_refused_with_its_reason_and_kept(client, service):
    match = HttpMatch(client)
    map_user(client, match, "alice", 1)
    response = post(client, match, "mallory", "p-1", "1")
    assert response.status_code == 201
    reply = response.get_json()
    assert (reply["outcome"], reply["code"], reply["seat"]) == ("refused", "unmapped_author", None)
    assert "Reason (unmapped_author): forum user 'mallory' is mapped to no seat" in reply["reply"]
    assert events(client, match, "OrderSubmitted,OrderRejected") == []  # no seat's log holds it
    (kept,) = posts_of(service, match.id)  # nothing lost: the post is kept with its reason
    assert (kept["author"], kept["body"], kept["outcome"]) == ("mallory", "1", "refused")
    assert post(client, match, "Alice", "p-2", "1").get_json()["code"] == "unmapped_author"


def test_a_one_time_code_signs_one_post_only(client, service):
    match = HttpMatch(client)
    code = code_for(client, match, 2)
    signed = post(client, match, "anyone", "p-1", f"1\nCode: {code.upper()}")
    reply = signed.get_json()
    assert (reply["outcome"], reply["seat"]) == ("accepted", 2), reply
    assert code not in reply["reply"].lower()
    (stored,) = events(client, match, "OrderSubmitted")
    assert stored["data"]["seat"] == 2
    used = post(client, match, "anyone", "p-2", f"2\ncode: {code}").get_json()
    assert (used["outcome"], used["code"], used["seat"]) == ("refused", "forum_code_used", None)
    assert post(client, match, "anyone", "p-1", f"1\ncode: {code}").get_json()["replayed"]
    forged = post(client, match, "anyone", "p-3", "2\ncode: " + "a" * 32).get_json()
    assert forged["code"] == "unknown_forum_code"
    assert len(events(client, match, "OrderSubmitted,OrderRejected")) == 1
    rows = service.read_models.view("match_list").query("SELECT code_hash FROM {forum_codes}")
    assert rows and all(code not in row["code_hash"] for row in rows)  # kept hashed


def test_the_received_time_is_the_posts_time_bounded_by_the_receipt(client, clock):
    match = HttpMatch(client, names=("alice", "bob", "carol"))
    for seat, user in ((1, "alice"), (2, "bob"), (3, "carol")):
        map_user(client, match, user, seat)
    now = clock()
    times = {
        "alice": now - timedelta(seconds=30),  # within the bound: its own time
        "bob": now + timedelta(hours=1),  # in the future: the receipt
        "carol": now - timedelta(hours=1),  # far back: at most 120 s before the receipt
    }
    taken = {
        user: post(client, match, user, user, "1", time=when.isoformat()).get_json()
        for user, when in times.items()
    }
    assert taken["alice"]["received_at"] == times["alice"].isoformat()
    assert taken["bob"]["received_at"] == now.isoformat()
    assert taken["carol"]["received_at"] == (now - timedelta(seconds=120)).isoformat()


def test_a_post_dated_back_cannot_beat_a_passed_deadline(client, clock):
    # a match still running after the deadlines pass: a refusal once finished is not
    # recorded (docs/integrity.md, Orders after the finish)
    match = HttpMatch(client, deadline_seconds=60, config={"rounds": 100})
    map_user(client, match, "alice", 1)
    opened = clock()
    clock.advance(600)
    late = post(client, match, "alice", "p-1", "1", time=opened.isoformat(), movement=1)
    reply = late.get_json()
    assert (reply["outcome"], reply["code"]) == ("refused", "movement_closed"), reply
    assert reply["received_at"] == (clock() - timedelta(seconds=120)).isoformat()
    (refused,) = events(client, match, "OrderRejected")
    assert (refused["data"]["source"], refused["data"]["message_id"]) == ("forum", "p-1")


def test_only_the_operator_token_sends_posts(client):
    match = HttpMatch(client)
    sent = {"author": "alice", "post_id": "p", "body": "1"}
    url = f"/matches/{match.id}/posts"
    assert_error(client.post(url, json=sent), 401, "missing_token")
    assert_error(client.post(url, json=sent, headers=bearer(match.referee)), 403, "not_operator")
    assert_error(client.post(url, json=sent, headers=bearer("guess")), 403, "not_operator")
    bad = client.post(url, json={**sent, "time": "2030-01-01T00:00:00"}, headers=bearer(OPERATOR))
    assert_error(bad, 422, "validation_error")  # a time without its offset


def test_the_referee_maps_and_clears_forum_users(client):
    match = HttpMatch(client)
    map_user(client, match, "alice", 1)
    map_user(client, match, "bob", 2)
    assert map_user(client, match, "alice", None).get_json()["users"] == [
        {"user": "bob", "seat": 2, "identity": None}
    ]
    assert client.get(f"/matches/{match.id}/forum-users").get_json()["users"] == [
        {"user": "bob", "seat": 2, "identity": None}
    ]
    assert post(client, match, "alice", "p-1", "1").get_json()["code"] == "unmapped_author"
    seat_token = client.post(
        f"/matches/{match.id}/forum-users",
        json={"user": "eve", "seat": 1},
        headers=bearer(match.seats[0]),
    )
    assert_error(seat_token, 403, "not_referee")
    assert_error(map_user(client, match, "eve", 5), 404, "unknown_seat")
    assert_error(
        client.post(f"/matches/{match.id}/seats/forum-code", headers=bearer(match.referee)),
        403,
        "not_a_seat",
    )


def test_a_b_chess_match_is_played_from_forum_posts_to_the_end(client, service, clock):
    match = HttpMatch(client, "b_chess", start=False)
    started = client.post(
        f"/matches/{match.id}/start", json={"state": LAST_KING_WINS}, headers=bearer(match.referee)
    )
    assert started.status_code == 200, started.get_json()
    map_user(client, match, "alice", 1)
    code = code_for(client, match, 2)
    assert post(client, match, "alice", "f-1", "R3 to 15,15").get_json()["outcome"] == "accepted"
    bob = post(client, match, "bob", "f-2", f"purchase\ncode: {code}").get_json()
    assert (bob["outcome"], bob["seat"]) == ("accepted", 2), bob
    assert client.get(f"/matches/{match.id}/posts/outgoing").get_json()["items"] == []

    clock.advance(86400)  # the Turn's deadline: the sweep resolves it
    service.resolve_due()

    summary = client.get(f"/matches/{match.id}").get_json()
    assert summary["status"] == "finished" and summary["outcome"]["winners"] == [1]
    (made,) = client.get(f"/matches/{match.id}/posts/outgoing").get_json()["items"]
    assert made["movement"] == 1 and made["text"].startswith("Movement 1 is resolved.")
    assert made["text"].endswith(client.get(f"/matches/{match.id}/display?movement=1").text)
    head = client.get(f"/matches/{match.id}/verify").get_json()
    assert head["ok"], head
    assert client.get(f"/matches/{match.id}/posts/outgoing?after=1").get_json()["items"] == []
    over = post(client, match, "alice", "f-3", "R3 to 15,16").get_json()
    assert over["outcome"] == "refused"  # the match is over


def test_a_user_mapped_by_identity_takes_only_posts_carrying_it(client):
    """Issue 42: `identity` in the mapping and in the post; a post with the mapped name but
    another identity, or none, is refused (`forum_identity_mismatch`) and stores nothing."""
    match = HttpMatch(client)
    mapped = client.post(
        f"/matches/{match.id}/forum-users",
        json={"user": "alice", "seat": 1, "identity": "forum-id-17"},
        headers=bearer(match.referee),
    )
    assert mapped.status_code == 200
    assert mapped.get_json()["users"] == [{"user": "alice", "seat": 1, "identity": "forum-id-17"}]
    spoofed = post(client, match, "alice", "p-1", "1", identity="forum-id-99").get_json()
    bare = post(client, match, "alice", "p-2", "1").get_json()
    real = post(client, match, "alice (renamed)", "p-3", "1", identity="forum-id-17").get_json()
    assert [(r["outcome"], r["code"]) for r in (spoofed, bare)] == [
        ("refused", "forum_identity_mismatch"),
        ("refused", "forum_identity_mismatch"),
    ]
    assert (real["outcome"], real["seat"]) == ("accepted", 1)
    too_long = post(client, match, "alice", "p-4", "1", identity="x" * 321)
    assert_error(too_long, 422, "validation_error")
