"""GET /matches/{id}/display: the Public Display as text/plain, now or after a movement."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import OPERATOR, assert_error, bearer


def toy_match(service: Any, client: Any) -> tuple[str, str, list[str]]:
    """A started two-seat toy match with a fixed seed; returns id, referee and seat tokens."""
    new = service.create_match("toy", seed="display")
    tokens = [service.join(new.match_id, name).token for name in ("alice", "bob")]
    service.start(new.match_id, new.referee_token)
    return str(new.match_id), new.referee_token, tokens


def order(client: Any, match_id: str, token: str, pick: str) -> None:
    response = client.post(
        f"/matches/{match_id}/orders", json={"order": pick}, headers=bearer(token)
    )
    assert response.status_code == 201, response.get_json()


def display(client: Any, match_id: str, query: str = "", token: str | None = None) -> str:
    response = client.get(f"/matches/{match_id}/display{query}", headers=bearer(token))
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["Content-Type"] == "text/plain; charset=utf-8"
    return response.get_data(as_text=True)


def test_the_display_shows_the_match_its_seats_clock_and_the_games_picture(client, service):
    match_id, _, tokens = toy_match(service, client)
    order(client, match_id, tokens[0], "3")
    order(client, match_id, tokens[1], "1")
    deadline = client.get(f"/matches/{match_id}").get_json()["deadline"]
    head = client.get(f"/matches/{match_id}/state").get_json()["head"]
    assert display(client, match_id) == (
        f"Toy (toy v1), match {match_id}\n"
        "Seats: 1 alice, 2 bob.\n"
        "Movement 2 is open; seats to order: 1, 2.\n"
        f"Deadline: {deadline}.\n"
        "Log head (version:chain, for drts match verify --head):\n"
        f"{head['version']}:{head['chain']}\n"
        "\n"
        "Round 2 of 3.\n"
        "Seat 1: 3 points\n"
        "Seat 2: 2 points\n"
    )


def test_the_display_after_a_movement_is_the_position_it_left(client, service):
    match_id, _, tokens = toy_match(service, client)
    order(client, match_id, tokens[0], "3")
    order(client, match_id, tokens[1], "1")
    after_one = display(client, match_id).split("\n\n", 1)[1]
    order(client, match_id, tokens[0], "2")
    order(client, match_id, tokens[1], "2")
    past = display(client, match_id, "?movement=1")
    assert past.splitlines()[2] == "Position after movement 1."
    assert past.split("\n\n", 1)[1] == after_one
    assert "Round 3 of 3." in display(client, match_id, "?movement=2")


def test_a_movement_not_resolved_yet_is_a_404(client, service):
    match_id, _, _ = toy_match(service, client)
    response = client.get(f"/matches/{match_id}/display?movement=1")
    body = assert_error(response, 404, "movement_not_found")
    assert "movement 1 of match" in body["message"] and "not resolved" in body["message"]
    assert_error(client.get(f"/matches/{match_id}/display?movement=0"), 422, "validation_error")


def test_the_display_is_public_the_same_for_every_token_and_shows_no_open_order(client, service):
    match_id, referee, tokens = toy_match(service, client)
    before = display(client, match_id)
    order(client, match_id, tokens[0], "3")  # an open order: secret until the movement closes
    for token in (None, referee, OPERATOR, *tokens):
        assert display(client, match_id, token=token) == before
    events = client.get(f"/matches/{match_id}/events").get_json()["items"]
    assert "SecretViewed" not in [event["type"] for event in events]


def test_a_match_not_started_shows_who_has_joined(client, service):
    new = service.create_match("district_war")
    service.join(new.match_id, "alice")
    text = display(client, str(new.match_id))
    assert text == (
        f"District War (district_war v1), match {new.match_id}\n"
        "Seats: 1 alice.\n"
        "Not started: 1 seat(s) joined of 2.\n"
    )


def test_a_district_war_display_ends_with_the_games_picture_of_the_board(client, service):
    new = service.create_match("district_war", {"troops": 2}, seed="dw-display")
    alice, bob = (service.join(new.match_id, name).token for name in ("alice", "bob"))
    service.start(new.match_id, new.referee_token)
    order(client, str(new.match_id), bob, "first 1")
    order(client, str(new.match_id), alice, "e4")
    text = display(client, str(new.match_id))
    assert text.splitlines()[1:3] == [
        "Seats: 1 alice, 2 bob.",
        "Movement 3 is open; seats to order: 2.",
    ]
    assert " 4   E.  E.  G.  F.  H1* H.  I." in text
    assert "Seat 2 to place troop 2." in text


def test_an_unknown_match_is_a_404(client):
    response = client.get("/matches/00000000-0000-4000-8000-000000000000/display")
    assert_error(response, 404, "match_not_found")
