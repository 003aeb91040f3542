"""GET /matches/{id}/audit (issue 17): the match re-adjudicated under its pinned ruleset
version; the referee (or operator) alone while it runs, with the look recorded; anyone
once it is finished; a tampered log answers the error shape."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from uuid import UUID

from domain.rules import registry
from domain.rules.registry import get_ruleset
from domain.rules.rng import Rng
from tests.api.conftest import OPERATOR, HttpMatch, assert_error, bearer
from tests.support.tamper import tamper, version_of

KEYS = {
    "match_id",
    "ruleset",
    "ruleset_version",
    "movements",
    "exact",
    "divergence",
    "given_start",
    "timeline",
    "timelines",
}


def audit(client, match_id: str, token: str | None = None) -> Any:
    return client.get(f"/matches/{match_id}/audit", headers=bearer(token))


def play_round(table: HttpMatch) -> None:
    assert table.order(1, "3").status_code == 201
    assert table.order(2, "1").status_code == 201


def looks(client, table: HttpMatch) -> list[Any]:
    items = client.get(f"/matches/{table.id}/events").get_json()["items"]
    return [e["data"] for e in items if e["type"] == "SecretViewed"]


def test_a_running_match_is_audited_by_its_referee_or_the_operator_and_each_look_recorded(
    client,
):
    table = HttpMatch(client, config={"rounds": 2})
    play_round(table)
    assert_error(audit(client, table.id), 401, "missing_token")
    assert_error(audit(client, table.id, table.seats[0]), 403, "not_referee")
    assert_error(audit(client, table.id, "not a token of it"), 401, "invalid_token")
    assert looks(client, table) == []
    for token in (table.referee, OPERATOR):
        response = audit(client, table.id, token)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        assert set(body) == KEYS
        assert body["exact"] and body["divergence"] is None and body["movements"] == 1
    assert looks(client, table) == [
        {"viewer": "referee", "what": "audit"},
        {"viewer": "operator", "what": "audit"},
    ]


def test_a_finished_match_is_audited_by_anyone(client):
    table = HttpMatch(client, config={"rounds": 2})
    play_round(table)
    play_round(table)
    for token in (None, table.seats[1]):
        body = audit(client, table.id, token).get_json()
        assert (body["ruleset"], body["ruleset_version"], body["exact"]) == ("toy", 1, True)
        assert body["movements"] == 2
    assert looks(client, table) == []
    assert_error(audit(client, "00000000-0000-4000-8000-000000000000"), 404, "match_not_found")


def test_a_rules_change_is_served_as_the_first_divergence(client, monkeypatch):
    table = HttpMatch(client, config={"rounds": 2})
    play_round(table)
    play_round(table)
    original = get_ruleset("toy")

    def resolve(state: Any, orders: Any, rng: Rng) -> Any:
        after, steps = original.resolve(state, orders, rng)
        return after, (*steps[:-1], replace(steps[-1], text="changed"))

    monkeypatch.setitem(registry.REGISTRY, "toy", {1: replace(original, resolve=resolve)})
    body = audit(client, table.id).get_json()
    found = body["divergence"]
    assert not body["exact"] and body["movements"] == 0
    assert (found["movement"], found["what"], found["event"]) == (1, "step", "StepApplied")
    assert found["recomputed"]["text"] == "changed" != found["stored"]["text"]
    assert found["rulings"] == [found["stored"]["rule"]]


def test_a_log_that_does_not_read_answers_the_error_shape(client, service, store_url):
    table = HttpMatch(client, config={"rounds": 2})
    play_round(table)
    version = version_of(service, UUID(table.id), "MovementResolved")
    tamper(store_url, UUID(table.id), version, lambda state: b"garbage" + state)
    body = assert_error(audit(client, table.id, table.referee), 409, "tampered_log")
    assert f"version {version} (MovementResolved)" in body["message"]
