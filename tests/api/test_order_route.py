"""The lean order route (issue 46, api/orders.py) answers as the route it replaced:
same status, headers and bytes for valid, invalid, repeated and late orders. An order
sent to /matches/... goes through the order lane (api/order_lane.py) where it can, and
to the Flask route otherwise (tests/api/test_order_lane.py says which): so these tests
hold the lane's answers, and the route's, to the reference's.

The route it replaced is kept here as `reference`: the same service call under
flask-smorest's decorators with the schema classes (a request schema made per request,
the receipt dumped through ReceiptSchema), mounted on the same app under /reference.
Errors are compared by sending the same request to both routes, each on one of two
matches created alike (same seed: same versions, same answers but for the match id and
the instants a late order's refusal names);
a receipt, whose digest is salted at random, by answering the reference route with
the receipt the lean route returned. SQLite and PostgreSQL.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from flask import Flask
from flask.views import MethodView

from api.app import create_app
from api.context import Blueprint, bearer_token, matches, received_at
from api.schemas.orders import OrderRequestSchema, ReceiptSchema
from service.matches import Matches
from service.results import OrderReceipt
from service.settings import Settings
from tests.api.conftest import bearer

reference = Blueprint(
    "reference_orders", __name__, url_prefix="/reference/matches/<uuid:match_id>/orders"
)
_replay: list[OrderReceipt] = []  # a receipt for the reference route to answer with


@reference.route("")
class ReferenceOrders(MethodView):
    @reference.arguments(OrderRequestSchema)
    @reference.response(201, ReceiptSchema)
    def post(self, body: dict[str, Any], match_id: UUID) -> Any:
        """The order route as it was before issue 46 (or the receipt given to replay)."""
        if _replay:
            return _replay.pop()
        return matches().submit_order(
            match_id,
            bearer_token(),
            body["order"],
            source=body["source"],
            movement=body["movement"],
            received_at=received_at(),
        )


class Spy:
    """Keeps the receipts the service returns to the lean route (the real service)."""

    def __init__(self, service: Matches) -> None:
        self.receipts: list[OrderReceipt] = []
        self._submit = service.submit_order

    def __call__(self, *args: Any, **kwargs: Any) -> OrderReceipt:
        receipt = self._submit(*args, **kwargs)
        self.receipts.append(receipt)
        return receipt


@pytest.fixture
def service(database_url: str, toy_rulesets: None) -> Iterator[Matches]:
    app = Matches(env=Settings(database_url).event_store_env())
    yield app
    app.close()


@pytest.fixture
def app(service: Matches) -> Flask:
    app = create_app({"TESTING": True}, matches=service)
    app.register_blueprint(reference)
    return app


def new_table(service: Matches, ruleset: str = "toy", **config: Any) -> tuple[str, list[str]]:
    """Creates and starts a two-seat match; returns its id and the seats' tokens."""
    new = service.create_match(ruleset, config, seed="route")
    tokens = [service.join(new.match_id, name).token for name in ("alice", "bob")]
    service.start(new.match_id, str(new.referee_token))
    return str(new.match_id), tokens


INSTANT = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00")


def answer(response: Any, match_id: str = "") -> tuple[int, list[tuple[str, str]], bytes]:
    """Returns a response's status, headers and body, the match id and the instants in
    a refusal's message (when the movement closed, when the order came) blanked out."""
    body = response.get_data()
    if response.status_code >= 400:
        body = INSTANT.sub(b"<instant>", body)
    headers = list(response.headers.items())
    if match_id:
        body = body.replace(match_id.encode(), b"<match>")
        headers = [(k, v.replace(match_id, "<match>")) for k, v in headers]
    return response.status_code, headers, body


def both(client: Any, tables: list[tuple[str, list[str]]], seat: int, **request: Any) -> Any:
    """Sends the same request to the lean route (first match) and the reference route
    (second match); returns both answers."""
    answers, request = [], dict(request)
    extra = request.pop("headers", {})
    for prefix, (match_id, tokens) in zip(("", "/reference"), tables, strict=True):
        headers = {**bearer(tokens[seat - 1]), **extra}
        response = client.post(f"{prefix}/matches/{match_id}/orders", headers=headers, **request)
        answers.append(answer(response, match_id))
    return answers


INVALID: list[dict[str, Any]] = [
    {"json": {}},  # no order
    {"json": {"order": ""}},
    {"json": {"order": "1", "source": "mail"}},
    {"json": {"order": "1", "movement": 0}},
    {"json": {"order": "1", "extra": True}},
    {"json": {"order": 1}},
    {"json": {"order": "x" * 100_000}},
    {"data": b"{not json", "content_type": "application/json"},
    {"data": b'{"order": NaN}', "content_type": "application/json"},
    {"data": "order=1", "content_type": "application/x-www-form-urlencoded"},
    {"json": {"order": "7"}},  # not a pick: invalid for the game, recorded as rejected
    {"json": {"order": "1"}, "headers": {"Authorization": "Basic x"}},
    {"json": {"order": "1"}, "headers": {"Authorization": "Bearer not-a-token"}},
]


@pytest.mark.parametrize("request_", INVALID, ids=range(len(INVALID)))
def test_an_invalid_order_gets_the_same_error_from_both_routes(app, service, request_):
    tables = [new_table(service), new_table(service)]
    lean, before = both(app.test_client(), tables, 1, **request_)
    assert lean == before
    assert lean[0] >= 400


def test_an_order_to_an_unknown_match_or_without_a_token_is_refused_alike(app, service):
    client = app.test_client()
    unknown = "00000000-0000-4000-8000-000000000000"
    lean = client.post(f"/matches/{unknown}/orders", json={"order": "1"})
    before = client.post(f"/reference/matches/{unknown}/orders", json={"order": "1"})
    assert answer(lean) == answer(before) and lean.status_code in (401, 404)
    tables = [new_table(service), new_table(service)]
    lean_answer, before_answer = both(
        client, tables, 1, json={"order": "1"}, headers={"Authorization": ""}
    )
    assert lean_answer == before_answer


def replayed(client: Any, spy: Spy, match_id: str, token: str, **request: Any) -> Any:
    """Sends an order to the lean route, then has the reference route answer with the
    receipt the service gave; returns both answers."""
    url = f"/matches/{match_id}/orders"
    lean = client.post(url, headers=bearer(token), **request)
    _replay.append(spy.receipts[-1])
    before = client.post(f"/reference{url}", headers=bearer(token), **request)
    assert not _replay
    return answer(lean), answer(before)


@pytest.mark.parametrize("ruleset", ["toy", "toy_parts"])
def test_a_receipt_is_byte_for_byte_the_reference_routes(app, service, monkeypatch, ruleset):
    """Accepted, the same order again (it replaces the first), and the order that closes
    and resolves the movement (a closing with steps and a head); `toy_parts` refuses a
    part of a message and keeps a standing order."""
    spy = Spy(service)
    monkeypatch.setattr(service, "submit_order", spy)
    match_id, tokens = new_table(service, ruleset)
    client = app.test_client()
    first = "1" if ruleset == "toy" else "1\n9"
    for token, order in ((tokens[0], first), (tokens[0], first), (tokens[1], "2")):
        lean, before = replayed(client, spy, match_id, token, json={"order": order})
        assert lean == before
        assert lean[0] == 201
    assert spy.receipts[-1].closing is not None and spy.receipts[-1].closing.steps
    if ruleset == "toy_parts":
        assert spy.receipts[0].refused


def test_a_late_order_and_one_for_another_movement_are_refused_alike(app, service):
    """After movement 1 closed, an order naming it is late; one naming movement 5 is
    for a movement not open."""
    tables = [new_table(service), new_table(service)]
    client = app.test_client()
    for seat, pick in ((1, "1"), (2, "2")):
        lean, before = both(client, tables, seat, json={"order": pick})
        assert lean[0] == before[0] == 201
    for movement in (1, 5):
        lean, before = both(client, tables, 1, json={"order": "1", "movement": movement})
        assert lean == before
        assert lean[0] == 409
