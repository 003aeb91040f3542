"""The order lane (api/order_lane.py, issue 46): which orders it answers without Flask,
which it leaves to Flask, and that what Flask's hooks did for an order still holds on
the lane: the rate limits counted once, the forwarded address behind a trusted proxy,
a 500 for a bug. tests/api/test_order_route.py compares its answers with the route's.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, request, request_started
from werkzeug.test import EnvironBuilder, run_wsgi_app

from api.app import create_app
from tests.api.conftest import HttpMatch, assert_error, bearer


@pytest.fixture
def through_flask(app: Flask) -> Iterator[list[str]]:
    """The paths of the requests Flask's request handling started, while the test runs."""
    started: list[str] = []

    def record(sender: Flask, **extra: Any) -> None:
        started.append(request.path)

    request_started.connect(record, app)
    yield started
    request_started.disconnect(record, app)


def post_order(client: Any, table: HttpMatch, seat: int = 1, **request: Any) -> Any:
    """Sends an order request for a seat of `table` (a `hold`-like pick by default)."""
    headers = {**bearer(table.seats[seat - 1]), **request.pop("headers", {})}
    request.setdefault("json", {"order": "1"})
    return client.post(f"/matches/{table.id}/orders", headers=headers, **request)


@pytest.mark.parametrize(
    "content_type", ["application/json", "application/json; charset=utf-8", "Application/JSON"]
)
def test_an_order_it_can_take_is_answered_without_flask(client, through_flask, content_type):
    table = HttpMatch(client)
    through_flask.clear()
    response = post_order(
        client, table, json=None, data=b'{"order": "1"}', content_type=content_type
    )
    assert response.status_code == 201, response.get_json()
    assert through_flask == []
    assert client.get(f"/matches/{table.id}/orders", headers=bearer(table.seats[0])).get_json()


LEFT_TO_FLASK: list[tuple[dict[str, Any], int]] = [
    ({"query_string": "movement=1"}, 400),  # unknown_parameter: the route declares none
    ({"json": {"order": "1", "extra": 1}}, 422),  # the schema refuses it
    ({"json": None, "data": b"{", "content_type": "application/json"}, 400),
    ({"json": None, "data": b'{"order": "1"}', "content_type": "text/plain"}, 422),
    ({"headers": {"Authorization": "Basic eDp5"}}, 401),
    ({"headers": {"Authorization": "Bearer  "}}, 401),
    ({"json": None, "data": b'{"order": "\xff"}', "content_type": "application/json"}, 400),
]


@pytest.mark.parametrize("request_,status", LEFT_TO_FLASK, ids=range(len(LEFT_TO_FLASK)))
def test_a_request_it_cannot_take_as_it_came_goes_to_flask(client, through_flask, request_, status):
    table = HttpMatch(client)
    through_flask.clear()
    response = post_order(client, table, **request_)
    assert response.status_code == status, response.get_json()
    assert through_flask == [f"/matches/{table.id}/orders"]


def test_a_body_over_the_size_limit_goes_to_flask_unread(service, monkeypatch):
    monkeypatch.setenv("DRTS_MAX_BODY_BYTES", "100")
    client = create_app({"TESTING": True}, matches=service).test_client()
    table = HttpMatch(client)
    response = post_order(client, table, json={"order": "1" + " " * 200})
    assert_error(response, 413, "payload_too_large")


@pytest.mark.parametrize("length", [None, "14", "5"])
def test_a_chunked_body_goes_to_flask(app, client, through_flask, length):
    """A body sent in chunks ends where the server says, whatever Content-Length says (if
    the client sent one): Flask reads it to its end. The lane does not choose by a
    length that may cut it short (here "5": the body is 14 bytes)."""
    table = HttpMatch(client)
    through_flask.clear()
    environ = EnvironBuilder(
        path=f"/matches/{table.id}/orders",
        method="POST",
        data=b'{"order": "1"}',
        content_type="application/json",
        headers=bearer(table.seats[0]),
    ).get_environ()
    del environ["CONTENT_LENGTH"]
    if length is not None:
        environ["CONTENT_LENGTH"] = length
    environ["HTTP_TRANSFER_ENCODING"] = "chunked"
    environ["wsgi.input_terminated"] = True  # as a server that dechunks it says
    body, status, _ = run_wsgi_app(app, environ)
    assert through_flask == [f"/matches/{table.id}/orders"]
    assert status.startswith("201"), b"".join(body)


def test_the_token_limit_counts_each_order_once_on_either_way(service):
    """An order Flask answers (an invalid body) and one the lane takes each count one
    request against the token: the third of a limit of three is the one refused."""
    app = create_app(
        {"TESTING": True, "DRTS_RATE_LIMIT_PER_ADDRESS": 0, "DRTS_RATE_LIMIT_PER_TOKEN": 4},
        matches=service,
    )
    client = app.test_client()
    table = HttpMatch(client)  # the referee token's start is its own bucket
    assert post_order(client, table, json={"order": "1", "extra": 1}).status_code == 422
    assert post_order(client, table).status_code == 201
    assert post_order(client, table).status_code == 201
    assert post_order(client, table, json={}).status_code == 422
    refused = post_order(client, table)
    assert "token" in assert_error(refused, 429, "rate_limited")["message"]
    assert int(refused.headers["Retry-After"]) >= 1
    assert post_order(client, table, seat=2).status_code == 201  # another seat's bucket


def test_behind_a_trusted_proxy_the_lane_limits_the_forwarded_address(service):
    app = create_app(
        {"TESTING": True, "DRTS_RATE_LIMIT_PER_ADDRESS": 6, "DRTS_TRUSTED_PROXIES": 1},
        matches=service,
    )
    client = app.test_client()
    table = HttpMatch(client)  # 4 requests from the test client's own address

    def from_client(address: str) -> Any:
        return post_order(client, table, headers={"X-Forwarded-For": address})

    for _ in range(6):
        assert from_client("198.51.100.1").status_code == 201
    assert_error(from_client("198.51.100.1"), 429, "rate_limited")
    assert from_client("198.51.100.2").status_code == 201


def test_a_refusal_by_the_service_is_answered_by_the_error_table(client):
    table = HttpMatch(client)
    refused = post_order(client, table, json={"order": "7"})  # not a pick of the toy game
    assert_error(refused, 422, "illegal_order")
    late = HttpMatch(client, start=False)
    assert_error(post_order(client, late), 409, "match_not_started")
    unknown = post_order(client, table, headers={"Authorization": "Bearer not-a-seat"})
    assert_error(unknown, 401, "invalid_token")
    assert unknown.headers["WWW-Authenticate"] == 'Bearer realm="drts"'


def test_a_bug_below_the_lane_is_a_logged_500_in_the_one_shape(
    client, service, monkeypatch, caplog
):
    table = HttpMatch(client)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(service, "submit_order", broken)
    with caplog.at_level(logging.ERROR):
        response = post_order(client, table)
    body = assert_error(response, 500, "internal_error")
    assert "a bug" not in body["message"]
    assert any(r.message == "unhandled error" and r.exc_info for r in caplog.records)
