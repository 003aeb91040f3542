"""POST /matches/{id}/actions: the referee takes one of the game's own actions (issue 11)."""

from __future__ import annotations

from tests.api.conftest import OPERATOR, HttpMatch, assert_error, bearer

GRANT = {"action": "grant", "args": {"seat": 1, "points": 2}, "reason": "a mack for a report"}


def act(client, table: HttpMatch, token: str | None, body=GRANT, match_id: str | None = None):
    return client.post(f"/matches/{match_id or table.id}/actions", json=body, headers=bearer(token))


def test_the_referee_and_the_operator_act_and_each_act_is_an_event(client):
    table = HttpMatch(client, "toy_ref")
    first = act(client, table, table.referee)
    assert first.status_code == 201, first.get_json()
    body = first.get_json()
    assert body["outcome"]["scores"] == {"1": 2, "2": 0} and body["movement"] == 1
    assert [step["rule"] for step in body["steps"]] == ["TOY-5"]
    assert act(client, table, OPERATOR).status_code == 201
    events = client.get(f"/matches/{table.id}/events").get_json()["items"]
    acts = [e["data"] for e in events if e["type"] == "RefereeActed"]
    assert [(a["by"], a["reason"]) for a in acts] == [
        ("referee", "a mack for a report"),
        ("operator", "a mack for a report"),
    ]
    assert client.get(f"/matches/{table.id}").get_json()["outcome"]["scores"]["1"] == 4
    assert client.get(f"/matches/{table.id}/verify").get_json()["ok"]


def test_who_may_act_and_on_what(client):
    table, other = HttpMatch(client, "toy_ref"), HttpMatch(client, "toy_ref")
    assert_error(act(client, table, table.seats[0]), 403, "not_referee")
    assert_error(act(client, table, None), 401, "missing_token")
    assert_error(act(client, table, other.referee), 401, "invalid_token")
    missing = "00000000-0000-4000-8000-000000000000"
    assert_error(act(client, table, table.referee, match_id=missing), 404, "match_not_found")


def test_a_bad_action_gets_a_clear_422(client):
    table = HttpMatch(client, "toy_ref")
    unknown = assert_error(
        act(client, table, table.referee, {**GRANT, "action": "smite"}), 422, "unknown_action"
    )
    assert "'smite'" in unknown["message"] and "grant" in unknown["message"]
    bad_args = {**GRANT, "args": {"seat": 1}}
    assert_error(act(client, table, table.referee, bad_args), 422, "invalid_action")
    illegal = {**GRANT, "args": {"seat": 7, "points": 1}}
    assert_error(act(client, table, table.referee, illegal), 422, "illegal_action")
    no_reason = {"action": "grant", "args": GRANT["args"]}
    assert_error(act(client, table, table.referee, no_reason), 422, "validation_error")
    toy = HttpMatch(client, "toy")  # a game without actions
    assert (
        "toy has no referee action 'grant' (its actions: none)"
        in assert_error(act(client, toy, toy.referee), 422, "unknown_action")["message"]
    )


def test_a_games_actions_are_listed_with_the_ruleset(client):
    body = client.get("/rulesets/toy_ref").get_json()
    (grant,) = body["actions"]
    assert grant["name"] == "grant" and grant["description"]
    assert set(grant["arguments"]) == {"seat", "points"} and grant["example"]
    assert client.get("/rulesets/district_war").get_json()["actions"] == []
