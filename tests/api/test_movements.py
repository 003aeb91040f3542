"""GET /matches/{id}/movements/{n} and /receipts/{digest} (issue 17) over HTTP: a DRTS Team
23 movement with an order sent as text (whitespace kept), one as JSON, a replaced one and a
refused one; what an open movement keeps secret; the error codes."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from tests.api.conftest import HttpMatch, assert_error, bearer

TEXT = "fire 2>8;\n  team green  "
JSON_ORDER = {"operations": [{"op": "hold", "piece": "water"}], "team": "yellow"}
REFUSED = "fire 99"


def digest_of(salt: str, covered: Any) -> str:
    text = json.dumps(covered, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(salt.encode("ascii") + text.encode()).hexdigest()


@pytest.fixture
def table(client) -> tuple[HttpMatch, dict[str, Any]]:
    """Movement 1 resolved; movement 2 open with seat 1's order pending."""
    table = HttpMatch(
        client,
        "drts_team23",
        tuple(f"p{n}" for n in range(1, 9)),
        config={"close_early": True},
        ruleset_version=1,
    )
    sent = {"text": table.order(1, TEXT).get_json()}
    sent["replaced"] = table.order(2, "plant hold").get_json()
    sent["json"] = table.order(2, JSON_ORDER, source="bot").get_json()
    assert_error(table.order(3, REFUSED), 422, "invalid_order")
    for seat in range(3, 9):
        assert table.order(seat, "hold").status_code == 201
    sent["open"] = table.order(1, "water hold").get_json()
    return table, sent


def test_a_resolved_movement_shows_orders_as_sent_refusals_steps_and_scores(client, table):
    match, sent = table
    response = client.get(f"/matches/{match.id}/movements/1")
    body = response.get_json()
    assert response.status_code == 200, body
    first, replaced, second = body["orders"][:3]
    assert (first["sent"], first["digest"], first["fate"]) == (
        TEXT,
        sent["text"]["digest"],
        "counted",
    )
    assert (replaced["sent"], replaced["fate"], replaced["used"]) == (
        "plant hold",
        "replaced",
        False,
    )
    assert replaced["replaced_by"] == second["digest"] == sent["json"]["digest"]
    assert (second["sent"], second["order"], second["source"]) == (JSON_ORDER, JSON_ORDER, "bot")
    for order in body["orders"]:
        covered = {"order": order["order"], "sent": order["sent"]}
        assert digest_of(order["salt"], covered) == order["digest"]
    (refusal,) = body["refused"]
    assert (refusal["seat"], refusal["sent"], refusal["error"]) == (3, REFUSED, "invalid_order")
    assert "not on the board" in refusal["reason"]
    assert [s["rule"] for s in body["steps"]][:2] == ["DRTS-6", "DRTS-19"]
    assert body["outcome"]["scores"]["1"] == 1 and body["state_after"]["seats"]["1"]
    assert body["phases"] is None and "seed" in body["phases_note"]
    assert body["order_policy"] == "replace" and body["reason"] == "all_ordered"


def test_the_referee_sees_the_phases_and_the_look_is_recorded(client, table):
    match, _ = table
    body = client.get(f"/matches/{match.id}/movements/1", headers=bearer(match.referee)).get_json()
    assert len(body["phases"]) == 12 and body["phases"][-1]["state"] == body["state_after"]
    items = client.get(f"/matches/{match.id}/events").get_json()["items"]
    looks = [i["data"]["what"] for i in items if i["type"] == "SecretViewed"]
    assert looks == ["seed (phases of movement 1)"]


def test_an_open_movement_is_refused_and_its_order_stays_secret(client, table):
    match, sent = table
    body = assert_error(
        client.get(f"/matches/{match.id}/movements/2"), 404, "movement_not_resolved"
    )
    assert "movement 2" in body["message"]
    assert_error(client.get(f"/matches/{match.id}/movements/3"), 404, "movement_not_found")
    assert_error(client.get(f"/matches/{match.id}/movements/0"), 422, "validation_error")
    check = client.get(f"/matches/{match.id}/receipts/{sent['open']['digest']}")
    assert check.status_code == 200
    body = check.get_json()
    assert (body["seat"], body["movement"], body["revealed"], body["type"]) == (
        1,
        2,
        False,
        "OrderSubmitted",
    )
    assert body["order"] is None and body["sent"] is None and body["salt"] is None
    assert "water" not in check.get_data(as_text=True)


def test_a_receipt_check_names_the_order_and_event_of_a_digest(client, table):
    match, sent = table
    body = client.get(f"/matches/{match.id}/receipts/{sent['json']['digest']}").get_json()
    assert (body["kind"], body["seat"], body["movement"], body["source"]) == (
        "order",
        2,
        1,
        "bot",
    )
    assert (body["sent"], body["used"], body["fate"], body["revealed"]) == (
        JSON_ORDER,
        True,
        "counted",
        True,
    )
    covered = {"order": body["order"], "sent": body["sent"]}
    assert digest_of(body["salt"], covered) == sent["json"]["digest"]
    events = client.get(f"/matches/{match.id}/events").get_json()["items"]
    assert events[body["version"] - 1]["chain"] == body["chain"]


def test_a_receipt_check_of_a_refused_order_gives_its_reason(client, table):
    match, _ = table
    events = client.get(f"/matches/{match.id}/events").get_json()["items"]
    rejected = next(e for e in events if e["type"] == "OrderRejected")
    body = client.get(f"/matches/{match.id}/receipts/{rejected['data']['digest']}").get_json()
    assert (body["kind"], body["type"], body["error"], body["sent"]) == (
        "refusal",
        "OrderRejected",
        "invalid_order",
        REFUSED,
    )
    assert body["reason"] == rejected["sealed"]["reason"]


def test_an_unknown_or_malformed_digest_is_refused(client, table):
    match, _ = table
    assert_error(client.get(f"/matches/{match.id}/receipts/{'a' * 64}"), 404, "unknown_receipt")
    assert_error(client.get(f"/matches/{match.id}/receipts/xyz"), 422, "invalid_digest")
    other = "00000000-0000-4000-8000-000000000000"
    assert_error(client.get(f"/matches/{other}/receipts/{'a' * 64}"), 404, "match_not_found")
    assert_error(
        client.get(f"/matches/{match.id}/movements/1", headers=bearer("guess")),
        401,
        "invalid_token",
    )


def test_pending_orders_show_the_order_as_sent(client, table):
    match, _ = table
    response = client.get(f"/matches/{match.id}/orders", headers=bearer(match.seats[0]))
    (own,) = response.get_json()["items"]
    assert own["sent"] == "water hold" and own["order"]["operations"][0]["piece"] == "water"
