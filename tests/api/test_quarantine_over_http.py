"""A quarantined match over HTTP (issue 15): its summary says why, orders to it are refused
with 409 match_quarantined, and the referee's (or operator's) POST /matches/{id}/retry lifts
it; another token cannot."""

from __future__ import annotations

import pytest

from domain.rules import registry
from tests.api.conftest import OPERATOR, HttpMatch, assert_error, bearer
from tests.support.quarantine import BROKEN


@pytest.fixture
def quarantined(client, service, monkeypatch):
    monkeypatch.setitem(registry.REGISTRY, "toy_fragile", {1: BROKEN})
    table = HttpMatch(client, "toy_fragile", config={"close_early": False})
    later = service.clock() + (service.get_match(table.id).deadline - service.clock()) * 2
    for _ in range(3):
        assert service.resolve_due(later) == []
    return table


def test_the_summary_says_why_a_match_is_quarantined(client, quarantined):
    summary = client.get(f"/matches/{quarantined.id}").get_json()
    assert summary["quarantined"]["error"] == "RuntimeError"
    assert summary["quarantined"]["failures"] == 3 and summary["quarantined"]["movement"] == 1


def test_an_order_to_a_quarantined_match_is_refused_in_the_error_shape(client, quarantined):
    body = assert_error(quarantined.order(1, "2"), 409, "match_quarantined")
    assert "retried" in body["message"]


@pytest.mark.parametrize("who", ["referee", "operator"])
def test_the_referee_or_the_operator_lifts_the_quarantine(client, quarantined, who):
    token = quarantined.referee if who == "referee" else OPERATOR
    response = client.post(f"/matches/{quarantined.id}/retry", headers=bearer(token))
    assert response.status_code == 200 and response.get_json()["quarantined"] is None
    again = client.post(f"/matches/{quarantined.id}/retry", headers=bearer(token))
    assert_error(again, 409, "not_quarantined")


def test_a_seat_cannot_lift_the_quarantine(client, quarantined):
    response = client.post(f"/matches/{quarantined.id}/retry", headers=bearer(quarantined.seats[0]))
    assert_error(response, 403, "not_referee")
    assert client.get(f"/matches/{quarantined.id}").get_json()["quarantined"] is not None
