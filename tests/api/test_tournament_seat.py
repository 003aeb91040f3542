"""A tournament player gets its seat's token over HTTP (issue 45: "seat tokens reach
players through the API and pages"): POST /tournaments/{id}/seat with the player's key
as the bearer token gives the seat of its latest match a new token, which the match
takes and which stops the seat's old one; the errors in the one shape."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.errors import InvalidTokenError
from service.matches import Matches
from service.tournaments import Tournaments
from tests.api.conftest import assert_error, bearer


def entered(client: FlaskClient, names: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
    """Returns a new tournament's id and its players (registered), by name."""
    created = client.post(
        "/tournaments", json={"name": "Cup", "format": "round_robin", "ruleset": "toy"}
    )
    tid = created.get_json()["tournament_id"]
    made = {}
    for name in names:
        made[name] = client.post("/players", json={"name": name}).get_json()
        client.post(
            f"/tournaments/{tid}/players", json={"player": name}, headers=bearer(made[name]["key"])
        )
    return tid, made


def test_a_player_gets_its_seat_by_its_key(client: FlaskClient, service: Matches) -> None:
    tid, made = entered(client, ("ada", "bo"))
    Tournaments(service).advance(tid)
    got = client.post(
        f"/tournaments/{tid}/seat", json={"player": "ada"}, headers=bearer(made["ada"]["key"])
    )
    assert got.status_code == 200, got.get_json()
    seat = got.get_json()
    (linked,) = client.get(f"/tournaments/{tid}").get_json()["rounds"][0]["links"]
    assert seat["match_id"] == linked[0]
    assert service.holder(seat["match_id"], seat["token"]).seat == seat["seat"]
    match = service.get_match(seat["match_id"])
    assert str(match.seats[seat["seat"] - 1].player_id) == made["ada"]["player_id"]


def test_a_new_seat_token_stops_the_old_one(client: FlaskClient, service: Matches) -> None:
    tid, made = entered(client, ("ada", "bo"))
    Tournaments(service).advance(tid)
    ask = {"json": {"player": "bo"}, "headers": bearer(made["bo"]["key"])}
    first = client.post(f"/tournaments/{tid}/seat", **ask).get_json()
    second = client.post(f"/tournaments/{tid}/seat", **ask).get_json()
    assert service.holder(second["match_id"], second["token"]).seat == second["seat"]
    with pytest.raises(InvalidTokenError):
        service.holder(first["match_id"], first["token"])


def test_a_seat_needs_the_players_key(client: FlaskClient, service: Matches) -> None:
    tid, _ = entered(client, ("ada", "bo"))
    Tournaments(service).advance(tid)
    url = f"/tournaments/{tid}/seat"
    assert_error(client.post(url, json={"player": "ada"}), 401, "missing_token")
    assert_error(
        client.post(url, json={"player": "ada"}, headers=bearer("not-the-key")),
        403,
        "wrong_player_key",
    )


def test_no_seat_before_a_round_seats_the_player(client: FlaskClient) -> None:
    tid, made = entered(client, ("ada", "bo"))
    early = client.post(
        f"/tournaments/{tid}/seat", json={"player": "ada"}, headers=bearer(made["ada"]["key"])
    )
    assert_error(early, 404, "no_tournament_match")
    unknown = client.post(
        "/tournaments/nope/seat", json={"player": "ada"}, headers=bearer(made["ada"]["key"])
    )
    assert_error(unknown, 404, "tournament_not_found")
