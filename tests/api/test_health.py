"""GET /health: healthy while the sweep succeeds, unhealthy (503, same body) once it stops
or a movement is left overdue, healthy again when the sweep comes back."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient

from api.app import create_app
from domain.rules import registry
from service.clock import ManualClock
from service.health import record_sweep
from service.matches import Matches
from service.settings import Settings
from tests.api.conftest import OPERATOR
from tests.support.quarantine import BROKEN


@pytest.fixture
def timed(store_url: str, toy_rulesets: None, monkeypatch) -> Iterator[tuple[Matches, ManualClock]]:
    monkeypatch.delenv("DRTS_BROKER_URL", raising=False)
    clock = ManualClock()
    service = Matches(
        env=Settings(store_url).event_store_env(), operator_token=OPERATOR, clock=clock
    )
    yield service, clock
    service.close()


@pytest.fixture
def health_client(timed) -> FlaskClient:
    return create_app({"TESTING": True}, matches=timed[0]).test_client()


def health(client: FlaskClient) -> tuple[int, dict]:
    response = client.get("/health")
    return response.status_code, response.get_json()


def test_health_goes_unhealthy_when_the_sweep_stops_and_healthy_when_it_is_back(
    health_client, timed
):
    service, clock = timed
    status, body = health(health_client)
    assert (status, body["status"]) == (503, "unhealthy")  # never swept yet
    assert body["checks"]["sweep"]["last_success_at"] is None
    assert set(body["checks"]) == {
        "store",
        "broker",
        "sweep",
        "overdue",
        "projections",
        "quarantined_matches",
        "open_disputes",
    }
    assert body["checks"]["store"]["revision"] == body["checks"]["store"]["latest"]

    record_sweep(service.read_models, clock())
    status, body = health(health_client)
    assert (status, body["status"]) == (200, "healthy"), body
    assert all(check["status"] == "ok" for check in body["checks"].values())

    clock.advance(31)  # DRTS_HEALTH_SWEEP_SECONDS: 30 by default
    status, body = health(health_client)
    assert (status, body["status"]) == (503, "unhealthy")
    assert body["checks"]["sweep"]["status"] == "failing"
    assert body["checks"]["sweep"]["age_seconds"] == 31

    record_sweep(service.read_models, clock(), RuntimeError("channel disconnected"))
    body = health(health_client)[1]
    assert body["checks"]["sweep"]["failures_in_row"] == 1
    assert body["checks"]["sweep"]["last_error"] == "RuntimeError: channel disconnected"

    record_sweep(service.read_models, clock())
    status, body = health(health_client)
    assert (status, body["status"]) == (200, "healthy")
    assert body["checks"]["sweep"]["failures_in_row"] == 0


def test_health_names_the_oldest_overdue_movement_and_fails_once_it_is_too_late(
    health_client, timed
):
    service, clock = timed
    new = service.create_match("toy", {"close_early": False}, seed="h", deadline_seconds=10)
    for name in ("alice", "bob"):
        service.join(new.match_id, name)
    service.start(new.match_id, str(new.referee_token))
    clock.advance(10 + 60)  # due, and exactly DRTS_HEALTH_OVERDUE_SECONDS late
    record_sweep(service.read_models, clock())
    status, body = health(health_client)
    overdue = body["checks"]["overdue"]
    assert status == 200 and overdue["status"] == "ok"
    assert overdue["oldest"]["match_id"] == str(new.match_id)
    assert (overdue["oldest"]["movement"], overdue["oldest"]["late_seconds"]) == (1, 60)

    clock.advance(1)
    record_sweep(service.read_models, clock())
    status, body = health(health_client)
    assert (status, body["checks"]["overdue"]["status"]) == (503, "failing")

    service.resolve_due()
    status, body = health(health_client)
    assert (status, body["checks"]["overdue"]["oldest"]) == (200, None)


def test_a_broker_that_does_not_answer_makes_the_service_unhealthy(timed, monkeypatch):
    service, clock = timed
    monkeypatch.setenv("DRTS_BROKER_URL", "redis://127.0.0.1:1/0")
    client = create_app({"TESTING": True}, matches=service).test_client()
    record_sweep(service.read_models, clock())
    status, body = health(client)
    assert (status, body["checks"]["broker"]["status"]) == (503, "failing")
    assert "127.0.0.1:1" in body["checks"]["broker"]["error"]


def test_a_quarantined_match_is_a_warning_and_its_movement_is_not_counted_overdue(
    health_client, timed, monkeypatch
):
    """A match whose resolution keeps failing (issue 15) is reported, with its movement and
    error; the service is degraded (200), not unhealthy: the sweep goes on with the others."""
    service, clock = timed
    monkeypatch.setitem(registry.REGISTRY, "toy_fragile", {1: BROKEN})
    new = service.create_match("toy_fragile", {"close_early": False}, deadline_seconds=10)
    for name in ("alice", "bob"):
        service.join(new.match_id, name)
    service.start(new.match_id, str(new.referee_token))
    for _ in range(3):  # DRTS_QUARANTINE_AFTER identical failures
        clock.advance(61)
        service.resolve_due()
    record_sweep(service.read_models, clock())
    status, body = health(health_client)
    assert (status, body["status"]) == (200, "degraded"), body
    listed = body["checks"]["quarantined_matches"]
    assert (listed["status"], listed["count"]) == ("warning", 1)
    assert listed["matches"][0]["match_id"] == str(new.match_id)
    assert listed["matches"][0]["error"] == "RuntimeError"
    overdue = body["checks"]["overdue"]
    assert (overdue["status"], overdue["oldest"]) == ("ok", None)


def test_health_counts_the_disputes_awaiting_a_ruling_and_stays_healthy(health_client, timed):
    """Issue 18: the referee is told of open disputes in /health too; they are the referees'
    work, not the service's health (always ok)."""
    service, clock = timed
    new = service.create_match("toy", {})
    alice = service.join(new.match_id, "alice").token
    service.join(new.match_id, "bob")
    service.file_dispute(new.match_id, alice, [1], "one")
    service.file_dispute(new.match_id, alice, [2], "two")
    service.rule_dispute(new.match_id, new.referee_token, 1, "dismissed", "no case")
    record_sweep(service.read_models, clock())
    status, body = health(health_client)
    assert (status, body["status"]) == (200, "healthy"), body
    assert body["checks"]["open_disputes"] == {
        "status": "ok",
        "count": 1,
        "matches": [{"match_id": str(new.match_id), "open": 1}],
    }
