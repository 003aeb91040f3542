"""B-Chess over HTTP (issue 24): its orders are public at once (a forum game has no sealed
orders), a post's lines stand or fall one by one (BC-11), the referee grants macks (BC-7),
and the Public Display shows the Field and the Priority List."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import HttpMatch, assert_error, bearer


def king_move(client: Any, match: HttpMatch, seat: int) -> str:
    """Returns a line moving the seat's King one square right (its id read from the state)."""
    state = client.get(f"/matches/{match.id}/state").get_json()["state"]
    king = next(p for p in state["priority_list"] if p["id"][0] == "K" and p["owner"] == seat)
    row, col = king["square"]
    return f"{king['id']} to {row},{(col + 1) % 20}"


def test_orders_are_public_as_soon_as_they_are_received(client):
    match = HttpMatch(client, "b_chess")
    line = king_move(client, match, 1)
    assert match.order(1, line).status_code == 201
    for token in (None, match.seats[1]):  # a spectator, the other seat
        events = client.get(f"/matches/{match.id}/events", headers=bearer(token)).get_json()
        (submitted,) = [e for e in events["items"] if e["type"] == "OrderSubmitted"]
        assert submitted["sealed"]["order"] == {
            "actions": [{"action": "move", "piece": line.split()[0], "to": _square(line)}]
        }
    pending = client.get(f"/matches/{match.id}/orders").get_json()["items"]
    assert [(p["seat"], p["movement"]) for p in pending] == [(1, 1)]
    client.get(f"/matches/{match.id}/orders", headers=bearer(match.referee))
    events = client.get(f"/matches/{match.id}/events").get_json()["items"]
    assert "SecretViewed" not in [e["type"] for e in events]  # nothing secret was looked at


def test_another_games_orders_stay_sealed(client):
    match = HttpMatch(client, "toy_acc")
    assert match.order(1, "2").status_code == 201
    events = client.get(f"/matches/{match.id}/events").get_json()["items"]
    assert all("sealed" not in e for e in events if e["type"] == "OrderSubmitted")
    assert_error(client.get(f"/matches/{match.id}/orders"), 401, "missing_token")


def test_bc_11_a_line_that_does_not_stand_is_refused_alone(client):
    match = HttpMatch(client, "b_chess")
    line = king_move(client, match, 1)
    response = match.order(1, f"{line}\nfly away\npurchase")
    assert response.status_code == 201, response.get_json()
    receipt = response.get_json()
    assert [part["part"] for part in receipt["refused"]] == ["fly away"]
    assert "is not an action" in receipt["refused"][0]["reason"]
    assert receipt["standing"] == [
        {"actions": [{"action": "move", "piece": line.split()[0], "to": _square(line)},
                     {"action": "purchase"}]}
    ]  # fmt: skip
    again = match.order(1, "purchase").get_json()
    assert len(again["standing"]) == 2  # every message counts, in arrival order (BC-2)
    body = assert_error(match.order(1, "fly away\nK99 to 1,1"), 422, "illegal_order")
    assert "fly away" in body["message"] and "no K99 on the Field" in body["message"]


def test_bc_7_the_referee_grants_macks_as_an_event(client):
    match = HttpMatch(client, "b_chess")
    body = {"action": "grant", "args": {"seat": 2, "macks": 30}, "reason": "Ministry Reward"}
    response = client.post(f"/matches/{match.id}/actions", json=body, headers=bearer(match.referee))
    assert response.status_code == 201, response.get_json()
    assert [step["rule"] for step in response.get_json()["steps"]] == ["BC-7"]
    state = client.get(f"/matches/{match.id}/state").get_json()["state"]
    assert state["seats"]["2"]["macks"] == 80
    refused = client.post(
        f"/matches/{match.id}/actions",
        json={"action": "grant", "args": {"seat": 1, "macks": -51}, "reason": "a fine"},
        headers=bearer(match.referee),
    )
    assert_error(refused, 422, "illegal_action")


def test_the_public_display_shows_the_field_and_the_priority_list(client):
    match = HttpMatch(client, "b_chess")
    text = client.get(f"/matches/{match.id}/display").get_data(as_text=True)
    assert "Priority List (top first):" in text
    assert "   1. K1     King" in text
    assert "Seat 1: 50 macks; King K" in text


def _square(line: str) -> list[int]:
    row, col = line.split()[-1].split(",")
    return [int(row), int(col)]


def test_bc_5_a_player_joins_the_running_match_over_http(client):
    match = HttpMatch(client, "b_chess")
    response = client.post(f"/matches/{match.id}/seats", json={"name": "carol"})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["seat"] == 3
    state = client.get(f"/matches/{match.id}/state").get_json()["state"]
    assert state["priority_list"][-1]["owner"] == 3 and state["seats"]["3"]["macks"] == 50
    toy = HttpMatch(client, "toy")
    late = client.post(f"/matches/{toy.id}/seats", json={"name": "carol"})
    assert_error(late, 409, "match_already_started")
