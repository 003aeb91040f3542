"""Limits and errors: body size, malformed JSON, wrong types, unknown ids, tokens; each its
4xx and stable code in the one error shape."""

from __future__ import annotations

import uuid

import pytest

from api.app import create_app
from tests.api.conftest import HttpMatch, assert_error, bearer

UNKNOWN = str(uuid.uuid4())


def test_a_body_over_the_default_64_kib_is_refused_with_413(client):
    big = {"ruleset": "toy", "config": {"rounds": 1}, "x": "y" * (64 * 1024)}
    assert_error(client.post("/matches", json=big), 413, "payload_too_large")
    table = HttpMatch(client)
    huge_order = {"order": "1" + " " * (65 * 1024)}
    assert_error(
        client.post(f"/matches/{table.id}/orders", json=huge_order, headers=bearer(table.seats[0])),
        413,
        "payload_too_large",
    )


def test_the_body_limit_is_configurable(service):
    small = create_app({"TESTING": True, "MAX_CONTENT_LENGTH": 100}, matches=service)
    client = small.test_client()
    assert_error(
        client.post("/matches", json={"ruleset": "toy", "config": {"a": "b" * 100}}),
        413,
        "payload_too_large",
    )
    assert client.post("/matches", json={"ruleset": "toy"}).status_code == 201


def test_the_body_limit_comes_from_the_environment(service, monkeypatch):
    monkeypatch.setenv("DRTS_MAX_BODY_BYTES", "100")
    client = create_app({"TESTING": True}, matches=service).test_client()
    assert_error(client.post("/matches", json={"ruleset": "x" * 200}), 413, "payload_too_large")


@pytest.mark.parametrize(
    "body", ["{not json", '{"ruleset": NaN}', '{"ruleset": "toy"', b'{"ruleset": "\xff"}']
)
def test_a_body_that_is_not_json_is_a_400(client, body):
    response = client.post("/matches", data=body, content_type="application/json")
    assert_error(response, 400, "malformed_json")


@pytest.mark.parametrize(
    "body",
    [
        {"ruleset": 3},
        {"ruleset": "toy", "seats": "two"},
        {"ruleset": "toy", "config": []},
        {"rules": "toy"},
        {"ruleset": "toy", "deadline_seconds": 0},
        {},
    ],
)
def test_wrong_types_and_unknown_fields_are_a_422_naming_the_field(client, body):
    error = assert_error(client.post("/matches", json=body), 422, "validation_error")
    assert "json" in error["details"]["fields"]


def test_game_level_refusals_have_their_own_codes(client):
    assert_error(client.post("/matches", json={"ruleset": "chess"}), 422, "unknown_ruleset")
    assert_error(
        client.post("/matches", json={"ruleset": "toy", "config": {"rounds": 0}}),
        422,
        "invalid_config",
    )
    assert_error(
        client.post("/matches", json={"ruleset": "toy", "seats": 9}), 422, "invalid_config"
    )
    table = HttpMatch(client)
    for order in ("", 7, None, [1]):
        assert_error(table.order(1, order), 422, "validation_error")
    assert_error(table.order(1, "nine"), 422, "invalid_order")
    assert_error(table.order(1, "9"), 422, "illegal_order")


@pytest.mark.parametrize(
    "method,path",
    [
        ("get", "/matches/{id}"),
        ("get", "/matches/{id}/state"),
        ("get", "/matches/{id}/scores"),
        ("get", "/matches/{id}/events"),
        ("get", "/matches/{id}/replay"),
        ("get", "/matches/{id}/verify"),
        ("post", "/matches/{id}/seats"),
    ],
)
def test_an_unknown_match_is_a_404(client, method, path):
    response = getattr(client, method)(path.format(id=UNKNOWN), json={"name": "alice"})
    assert_error(response, 404, "match_not_found")


def test_a_malformed_match_id_is_a_404(client):
    assert_error(client.get("/matches/not-a-uuid"), 404, "not_found")


def test_missing_and_wrong_tokens(client):
    table = HttpMatch(client, start=False)
    start = f"/matches/{table.id}/start"
    response = client.post(start)
    assert_error(response, 401, "missing_token")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert_error(client.post(start, headers=bearer("guess")), 401, "invalid_token")
    assert_error(
        client.post(start, headers={"Authorization": f"Basic {table.referee}"}),
        401,
        "invalid_token",
    )
    assert_error(client.post(start, headers=bearer(table.seats[0])), 403, "not_referee")
    assert client.post(start, headers=bearer(table.referee)).status_code == 200
    assert_error(client.post(start, headers=bearer(table.referee)), 409, "match_already_started")
    orders = f"/matches/{table.id}/orders"
    assert_error(client.post(orders, json={"order": "1"}), 401, "missing_token")
    assert_error(
        client.post(orders, json={"order": "1"}, headers=bearer("guess")), 401, "invalid_token"
    )
    assert_error(
        client.post(orders, json={"order": "1"}, headers=bearer(table.referee)), 403, "not_a_seat"
    )
    assert_error(client.get(orders), 401, "missing_token")
    assert_error(client.get(f"/matches/{table.id}/seed"), 401, "missing_token")
    assert_error(
        client.get(f"/matches/{table.id}/seed", headers=bearer(table.seats[1])), 403, "not_referee"
    )
    assert_error(
        client.get(f"/matches/{table.id}/events", headers=bearer("guess")), 401, "invalid_token"
    )


def test_an_order_before_the_start_is_a_409(client):
    table = HttpMatch(client, start=False)
    assert_error(table.order(1, "1"), 409, "match_not_started")


def test_query_arguments_are_checked(client):
    table = HttpMatch(client)
    assert_error(client.get(f"/matches/{table.id}/events?after=-1"), 422, "validation_error")
    assert_error(client.get(f"/matches/{table.id}/events?wait=nan"), 422, "validation_error")
    assert_error(client.get(f"/matches/{table.id}/events?limit=0"), 422, "validation_error")
    assert_error(client.get(f"/matches/{table.id}/state?movement=x"), 422, "validation_error")
    assert_error(client.get("/matches?limit=1000"), 422, "validation_error")


def test_an_unexpected_exception_is_a_500_in_the_error_shape(service):
    app = create_app({"TESTING": False}, matches=service)

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    response = app.test_client().get("/boom")
    assert_error(response, 500, "internal_error")
    assert "a bug" not in response.get_data(as_text=True)
