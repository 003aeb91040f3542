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


def test_forfeit_pause_and_resume_share_the_actions_shape(client):
    """Issue 18: the referee's own actions go through POST /actions like a game's."""
    table = HttpMatch(client, "district_war")
    table.order(2, "first 1")
    pause = {"action": "pause", "args": {}, "reason": "a dispute"}
    paused = act(client, table, table.referee, pause)
    assert paused.status_code == 201, paused.get_json()
    assert paused.get_json()["steps"] == []
    summary = client.get(f"/matches/{table.id}").get_json()
    assert summary["paused"]["reason"] == "a dispute" and summary["paused"]["by"] == "referee"
    assert_error(act(client, table, table.referee, pause), 409, "match_paused")
    extend = client.post(
        f"/matches/{table.id}/deadline", json={"seconds": 60}, headers=bearer(table.referee)
    )
    assert_error(extend, 409, "match_paused")
    assert table.order(1, "c5").status_code == 201  # orders are still taken
    resume = {"action": "resume", "args": {}, "reason": "settled"}
    assert act(client, table, OPERATOR, resume).status_code == 201
    assert_error(act(client, table, table.referee, resume), 409, "not_paused")
    summary = client.get(f"/matches/{table.id}").get_json()
    assert summary["paused"] is None and summary["movement"] == 3  # closed at the resume
    forfeit = {"action": "forfeit", "args": {"seat": 2}, "reason": "withdrew"}
    assert_error(act(client, table, table.seats[0], forfeit), 403, "not_referee")
    bad = {"action": "forfeit", "args": {"seat": "two"}, "reason": "withdrew"}
    assert_error(act(client, table, table.referee, bad), 422, "invalid_action")
    taken = act(client, table, table.referee, forfeit)
    assert taken.status_code == 201, taken.get_json()
    assert taken.get_json()["outcome"]["winners"] == [1]
    assert [s["rule"] for s in taken.get_json()["steps"]] == ["DW-6"]
    assert_error(act(client, table, table.referee, forfeit), 409, "movement_closed")
    assert client.get(f"/matches/{table.id}/verify").get_json()["ok"]
    assert client.get(f"/matches/{table.id}/audit").get_json()["exact"]
