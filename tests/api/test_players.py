"""Players and ratings over HTTP (issue 45): create, show, the key reissued, a seat naming
its player by its key, a rated match's ratings, and the errors in the one shape."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.conftest import OPERATOR, assert_error, bearer


def create(client: FlaskClient, name: str) -> dict[str, Any]:
    response = client.post("/players", json={"name": name})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def rated_win(client: FlaskClient, winner: dict[str, Any], loser: dict[str, Any]) -> str:
    """Plays a rated toy match over HTTP: the loser's seat is forfeited by the referee."""
    body = client.post("/matches", json={"ruleset": "toy", "rated": True}).get_json()
    match, referee = body["match_id"], body["referee_token"]
    for name, player in (("w", winner), ("l", loser)):
        joined = client.post(
            f"/matches/{match}/seats",
            json={"name": name, "player": player["name"], "player_key": player["key"]},
        )
        assert joined.status_code == 201, joined.get_json()
    assert client.post(f"/matches/{match}/start", headers=bearer(referee)).status_code == 200
    acted = client.post(
        f"/matches/{match}/actions",
        json={"action": "forfeit", "args": {"seat": 2}, "reason": "test"},
        headers=bearer(referee),
    )
    assert acted.status_code == 201, acted.get_json()
    return match


def test_a_player_is_created_with_its_key_once_and_shown_by_id_or_name(client):
    new = create(client, "Alice")
    assert set(new) == {"player_id", "name", "key"}
    for ref in (new["player_id"], "alice", "ALICE"):
        shown = client.get(f"/players/{ref}")
        assert shown.status_code == 200
        assert shown.get_json() == {"player_id": new["player_id"], "name": "Alice"}
    assert "key" not in client.get("/players/alice").get_json()


def test_a_taken_name_an_unknown_player_and_a_bad_name_are_errors(client):
    create(client, "Alice")
    assert_error(client.post("/players", json={"name": "aLICE"}), 409, "player_name_taken")
    assert_error(client.get("/players/nobody"), 404, "player_not_found")
    assert_error(client.get("/players/nobody/ratings"), 404, "player_not_found")
    assert_error(client.post("/players", json={}), 422, "validation_error")


def test_only_the_operator_reissues_a_key(client):
    new = create(client, "Alice")
    assert_error(client.post("/players/alice/key"), 401, "missing_token")
    assert_error(client.post("/players/alice/key", headers=bearer(new["key"])), 403, "not_operator")
    reissued = client.post("/players/alice/key", json={"reason": "lost"}, headers=bearer(OPERATOR))
    assert reissued.status_code == 200
    key = reissued.get_json()["key"]
    assert key != new["key"]
    body = client.post("/matches", json={"ruleset": "toy"}).get_json()
    seats = f"/matches/{body['match_id']}/seats"
    old = client.post(seats, json={"name": "a", "player": "alice", "player_key": new["key"]})
    assert_error(old, 403, "wrong_player_key")
    joined = client.post(seats, json={"name": "a", "player": "alice", "player_key": key})
    assert joined.status_code == 201


def test_a_seat_naming_a_player_needs_its_key_and_a_plain_seat_joins_as_before(client):
    create(client, "Alice")
    body = client.post("/matches", json={"ruleset": "toy"}).get_json()
    seats = f"/matches/{body['match_id']}/seats"
    assert_error(client.post(seats, json={"name": "a", "player": "alice"}), 401, "missing_token")
    wrong = client.post(seats, json={"name": "a", "player": "alice", "player_key": "nope"})
    assert_error(wrong, 403, "wrong_player_key")
    nobody = client.post(seats, json={"name": "a", "player": "nobody", "player_key": "x"})
    assert_error(nobody, 422, "unknown_player")
    assert client.post(seats, json={"name": "b"}).status_code == 201


def test_rated_is_a_json_boolean(client):
    refused = client.post("/matches", json={"ruleset": "toy", "rated": 1})
    assert_error(refused, 422, "validation_error")


def test_a_rated_win_shows_in_both_players_ratings_and_the_table(client):
    alice, bob = create(client, "Alice"), create(client, "Bob")
    match = rated_win(client, alice, bob)
    table = client.get("/ratings?ruleset=toy")
    assert table.status_code == 200
    body = table.get_json()
    assert (body["ruleset"], body["version"]) == ("toy", 1)
    assert [(row["name"], row["mu"], row["matches"]) for row in body["items"]] == [
        ("Alice", 27.635389, 1),
        ("Bob", 22.364611, 1),
    ]
    own = client.get("/players/bob/ratings").get_json()
    (rating,) = own["ratings"]
    assert (rating["ruleset"], rating["version"]) == ("toy", 1)
    assert (rating["mu"], rating["sigma"]) == (22.364611, 8.065901)
    (change,) = rating["history"]
    assert change == {
        "match_id": match,
        "mu_before": 25.0,
        "sigma_before": 8.333333,
        "mu_after": 22.364611,
        "sigma_after": 8.065901,
    }


def test_ratings_of_an_unknown_ruleset_and_without_one_are_errors(client):
    assert_error(client.get("/ratings?ruleset=chess"), 422, "unknown_ruleset")
    assert_error(client.get("/ratings"), 422, "validation_error")
    assert client.get("/ratings?ruleset=toy").get_json()["items"] == []
