"""Tournaments over HTTP (issue 45): create one (the organiser's token shown once),
register players by their keys, read it, its standing and its audit after a round paired
by hand (the service's advance, as a worker or `drts tournament pair` would), and the
errors in the one shape."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from service.tournaments import Tournaments
from tests.api.conftest import assert_error, bearer


def player(client: FlaskClient, name: str) -> dict[str, Any]:
    response = client.post("/players", json={"name": name})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_a_tournament_is_created_joined_read_standing_and_verified(client, service):
    created = client.post(
        "/tournaments", json={"name": "Cup", "format": "round_robin", "ruleset": "toy"}
    )
    assert created.status_code == 201, created.get_json()
    tid = created.get_json()["tournament_id"]
    assert len(created.get_json()["organiser_token"]) >= 40
    for name in ("ada", "bo", "cy", "di"):
        made = player(client, name)
        joined = client.post(
            f"/tournaments/{tid}/players", json={"player": name}, headers=bearer(made["key"])
        )
        assert joined.status_code == 201, joined.get_json()
        assert joined.get_json()["player_id"] == made["player_id"]
    again = client.post(f"/tournaments/{tid}/players", json={"player": "ada"}, headers=bearer("x"))
    assert_error(again, 403, "wrong_player_key")
    Tournaments(service).advance(tid)
    shown = client.get(f"/tournaments/{tid}").get_json()
    assert len(shown["players"]) == 4 and shown["seed"] is None and shown["rated"] is True
    assert len(shown["rounds"][0]["tables"]) == 2 and all(shown["rounds"][0]["links"])
    late = player(client, "ed")
    closed = client.post(
        f"/tournaments/{tid}/players", json={"player": "ed"}, headers=bearer(late["key"])
    )
    assert_error(closed, 409, "registration_closed")
    standing = client.get(f"/tournaments/{tid}/standings").get_json()["standings"]
    assert [row["rank"] for row in standing] == [1, 2, 3, 4]
    report = client.get(f"/tournaments/{tid}/verify").get_json()
    assert report["ok"] and not report["pairings_derived"]


def test_errors_name_what_is_wrong(client):
    bad = client.post("/tournaments", json={"name": "Cup", "format": "ladder", "ruleset": "toy"})
    assert bad.status_code == 422
    assert_error(client.get("/tournaments/nope"), 404, "tournament_not_found")
    assert_error(client.get("/tournaments/nope/standings"), 404, "tournament_not_found")
    unknown = client.post(
        "/tournaments", json={"name": "Cup", "format": "swiss", "ruleset": "no_such_game"}
    )
    assert unknown.status_code == 422
