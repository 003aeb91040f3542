"""Every endpoint through Flask's test client: create, list, join, start, order, state,
scores, events, replay, verify, seed, token reissue, the docs page."""

from __future__ import annotations

import threading
import time

from api.app import create_app
from tests.api.conftest import OPERATOR, HttpMatch, assert_error, bearer


def test_creating_returns_the_id_and_the_referee_token_once(client):
    response = client.post("/matches", json={"ruleset": "district_war", "config": {"troops": 2}})
    assert response.status_code == 201
    body = response.get_json()
    assert body["created"] is True and len(body["referee_token"]) > 20
    summary = client.get(f"/matches/{body['match_id']}").get_json()
    assert summary["status"] == "open" and summary["config"]["troops"] == 2
    assert body["referee_token"] not in str(summary)


def test_a_retried_create_with_the_same_idempotency_key_finds_the_first_match(client):
    key = {"Idempotency-Key": "create-42"}
    first = client.post("/matches", json={"ruleset": "toy"}, headers=key)
    again = client.post("/matches", json={"ruleset": "toy"}, headers=key)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json() == {
        "match_id": first.get_json()["match_id"],
        "referee_token": None,
        "created": False,
    }


def test_plays_a_district_war_match_to_the_end(client):
    table = HttpMatch(client, "district_war", config={"troops": 2})
    moves = [(2, "first 1"), (1, "e4"), (2, "b4"), (1, "g4"), (2, "g1")]
    receipts = [table.order(seat, order) for seat, order in moves]
    assert [r.status_code for r in receipts] == [201] * 5
    first = receipts[0].get_json()
    assert (first["seat"], first["movement"], len(first["digest"])) == (2, 1, 64)
    assert first["received_at"] and first["closing"]["resolved"]
    assert receipts[-1].get_json()["closing"]["finished"]
    summary = client.get(f"/matches/{table.id}").get_json()
    assert summary["status"] == "finished" and summary["outcome"]["winners"] == [2]
    assert client.get(f"/matches/{table.id}/scores").get_json()["outcome"]["scores"] == {
        "1": 9,
        "2": 11,
    }


def test_an_illegal_order_is_refused_with_its_reason_and_recorded(client):
    table = HttpMatch(client, "district_war", config={"troops": 2})
    table.order(2, "first 1")
    table.order(1, "e4")
    body = assert_error(table.order(2, "a1"), 422, "illegal_order")
    assert "a1" in body["message"] and "DW-3" in body["message"]
    assert_error(table.order(2, "zz99"), 422, "invalid_order")
    assert_error(table.order(1, "b4"), 403, "not_your_seat")
    events = client.get(f"/matches/{table.id}/events").get_json()["items"]
    assert [e["data"]["error"] for e in events if e["type"] == "OrderRejected"] == [
        "illegal_order",
        "invalid_order",
        "not_your_seat",
    ]


def test_an_order_may_be_text_or_json(client):
    table = HttpMatch(client)
    assert table.order(1, "2").status_code == 201
    assert table.order(2, {"pick": 3}).status_code == 201


def test_an_order_after_its_movement_closed_is_a_409(client):
    table = HttpMatch(client)
    table.order(1, "1")
    table.order(2, "2")  # every seat ordered: movement 1 closed
    assert_error(table.order(1, "3", movement=1), 409, "movement_closed")
    finished = HttpMatch(client, config={"rounds": 1})
    finished.order(1, "1")
    finished.order(2, "2")
    assert_error(finished.order(1, "3"), 409, "movement_closed")


def test_the_state_at_any_past_movement_and_phase(client):
    table = HttpMatch(client, "district_war", config={"troops": 2})
    table.order(2, "first 1")
    table.order(1, "e4")
    base = f"/matches/{table.id}/state"
    now = client.get(base).get_json()
    assert now["movement"] == 3 and now["state"]["cells"] == {"e4": 1}
    before = client.get(f"{base}?movement=2&phase=0").get_json()
    assert before["state"]["cells"] == {} and before["steps"] == []
    after = client.get(f"{base}?movement=2&phase=1").get_json()
    assert after["state"]["cells"] == {"e4": 1} and after["phases"] == ["resolution"]
    assert [step["rule"] for step in after["steps"]] == ["DW-3"]
    assert client.get(f"{base}?movement=1").get_json()["state"]["first"] is None
    assert_error(client.get(f"{base}?movement=9"), 404, "movement_not_found")
    assert_error(client.get(f"{base}?movement=2&phase=2"), 404, "phase_not_found")
    assert_error(client.get(f"{base}?movement=3&phase=0"), 404, "movement_not_resolved")
    assert_error(client.get(f"{base}?movement=0"), 422, "validation_error")
    removed = assert_error(client.get(f"{base}?movement=2&step=1"), 422, "validation_error")
    assert "`step` was removed" in removed["message"] and "phase=K" in removed["message"]
    assert client.get(f"/matches/{table.id}/scores?movement=2").get_json()["movement"] == 2


def test_a_seat_sees_its_own_view_and_the_referee_any_seat(client):
    table = HttpMatch(client)
    base = f"/matches/{table.id}/state"
    assert client.get(f"{base}?seat=1", headers=bearer(table.seats[0])).status_code == 200
    assert_error(client.get(f"{base}?seat=2", headers=bearer(table.seats[0])), 403, "not_your_seat")
    assert_error(client.get(f"{base}?seat=2"), 403, "not_your_seat")
    assert client.get(f"{base}?seat=2", headers=bearer(table.referee)).status_code == 200
    assert_error(client.get(f"{base}?seat=7", headers=bearer(table.referee)), 404, "unknown_seat")


def test_events_come_in_pages_with_their_chain(client):
    table = HttpMatch(client)
    page = client.get(f"/matches/{table.id}/events?limit=2").get_json()
    assert [e["version"] for e in page["items"]] == [1, 2] and page["next"] == 2
    assert all(len(e["chain"]) == 64 for e in page["items"])
    rest = client.get(f"/matches/{table.id}/events?after=2").get_json()
    assert rest["items"][0]["version"] == 3 and rest["next"] is None
    assert rest["version"] == rest["items"][-1]["version"]


def test_a_long_poll_answers_when_an_order_arrives(client, app):
    table = HttpMatch(client)
    head = client.get(f"/matches/{table.id}/events").get_json()["version"]
    other = app.test_client()
    sender = threading.Timer(
        0.3,
        lambda: other.post(
            f"/matches/{table.id}/orders", json={"order": "2"}, headers=bearer(table.seats[0])
        ),
    )
    began = time.monotonic()
    sender.start()
    page = client.get(f"/matches/{table.id}/events?after={head}&wait=30").get_json()
    sender.join()
    assert 0.2 < time.monotonic() - began < 4
    assert page["items"][0]["type"] == "OrderSubmitted"


def test_a_long_poll_waits_at_most_the_cap(service):
    client = create_app(
        {"TESTING": True, "DRTS_LONG_POLL_MAX_SECONDS": 0.3}, matches=service
    ).test_client()
    table = HttpMatch(client)
    head = client.get(f"/matches/{table.id}/events").get_json()["version"]
    began = time.monotonic()
    page = client.get(f"/matches/{table.id}/events?after={head}&wait=30").get_json()
    assert page["items"] == [] and 0.3 <= time.monotonic() - began < 3


def test_replay_gives_every_movement_and_verify_checks_the_chain(client):
    table = HttpMatch(client, "district_war", config={"troops": 2})
    for seat, order in [(2, "first 1"), (1, "e4"), (2, "b4")]:
        table.order(seat, order)
    replay = client.get(f"/matches/{table.id}/replay").get_json()
    assert replay["agrees"] and [m["movement"] for m in replay["movements"]] == [1, 2, 3]
    assert replay["movements"][1]["state"]["cells"] == {"e4": 1}
    assert replay["movements"][1]["steps"][0]["rule"] == "DW-3"
    verify = client.get(f"/matches/{table.id}/verify").get_json()
    assert verify["ok"] and verify["broken"] is None and verify["events"] == replay["events"]


def test_the_referee_reissues_a_lost_seat_token(client):
    table = HttpMatch(client)
    response = client.post(f"/matches/{table.id}/seats/1/token", headers=bearer(table.referee))
    fresh = response.get_json()
    assert response.status_code == 200 and fresh["seat"] == 1
    assert_error(table.order(1, "2"), 401, "invalid_token")
    table.seats[0] = fresh["token"]
    assert table.order(1, "2").status_code == 201
    types = [e["type"] for e in client.get(f"/matches/{table.id}/events").get_json()["items"]]
    assert "SeatTokenReissued" in types
    assert_error(
        client.post(f"/matches/{table.id}/seats/2/token", headers=bearer(table.seats[1])),
        403,
        "not_referee",
    )
    assert_error(
        client.post(f"/matches/{table.id}/seats/5/token", headers=bearer(table.referee)),
        404,
        "unknown_seat",
    )


def test_the_operator_token_is_a_referee_on_every_match(client):
    table = HttpMatch(client, start=False)
    assert client.post(f"/matches/{table.id}/start", headers=bearer(OPERATOR)).status_code == 200
    assert client.get(f"/matches/{table.id}/seed", headers=bearer(OPERATOR)).get_json()["seed"]
    as_operator = client.post(
        f"/matches/{table.id}/orders", json={"order": "1"}, headers=bearer(OPERATOR)
    )
    assert_error(as_operator, 403, "not_a_seat")


def test_matches_are_listed_by_page_with_filters(client):
    ids = [HttpMatch(client, start=False).id for _ in range(3)]
    started = HttpMatch(client).id
    page = client.get("/matches?ruleset=toy&status=open&limit=2").get_json()
    assert [m["match_id"] for m in page["items"]] == ids[:2] and page["next"]
    rest = client.get(f"/matches?ruleset=toy&status=open&cursor={page['next']}").get_json()
    assert [m["match_id"] for m in rest["items"]] == ids[2:] and rest["next"] is None
    assert [m["match_id"] for m in client.get("/matches?status=started").get_json()["items"]] == [
        started
    ]
    assert_error(client.get("/matches?status=lost"), 422, "validation_error")
    assert_error(client.get("/matches?cursor=abc"), 422, "validation_error")


def test_joining_a_started_or_full_match_is_a_409(client):
    table = HttpMatch(client)
    assert_error(
        client.post(f"/matches/{table.id}/seats", json={"name": "carol"}),
        409,
        "match_already_started",
    )
    duo = HttpMatch(client, "district_war", start=False)
    assert_error(client.post(f"/matches/{duo.id}/seats", json={"name": "carol"}), 409, "seat_taken")
    solo = HttpMatch(client, names=("alice",), start=False)
    assert_error(
        client.post(f"/matches/{solo.id}/start", headers=bearer(solo.referee)),
        409,
        "not_enough_seats",
    )


def test_the_docs_page_and_its_scripts_are_served_by_the_app(client):
    page = client.get("/docs")
    assert page.status_code == 200 and b"swagger-ui-bundle.js" in page.data
    assert b"//cdn" not in page.data and b"https://" not in page.data
    script = client.get("/docs/assets/swagger-ui-bundle.js")
    assert script.status_code == 200 and len(script.data) > 100_000
    spec = client.get("/openapi.json").get_json()
    assert spec["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    assert {
        "/matches",
        "/matches/{match_id}/orders",
        "/matches/{match_id}/events",
        "/matches/{match_id}/replay",
        "/matches/{match_id}/verify",
    } <= set(spec["paths"])
