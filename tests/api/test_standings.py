"""GET /standings and GET /matches read the read models (the standings and match list tables)."""

from __future__ import annotations

from typing import Any

from api.app import create_app
from api.context import EXTENSION
from service.readmodels.runner import Timer
from tests.api.conftest import HttpMatch, assert_error, bearer


def finish(client: Any, names: tuple[str, str], picks: tuple[str, str]) -> HttpMatch:
    """Plays a one-round toy match to its end: a unique pick scores its value."""
    table = HttpMatch(client, names=names, config={"rounds": 1})
    for seat, pick in enumerate(picks, 1):
        assert table.order(seat, pick).status_code == 201
    return table


def test_standings_count_each_players_finished_matches_per_ruleset(client):
    finish(client, ("alice", "bob"), ("3", "1"))  # alice 3 (+1 bonus?), bob 1 (+1?): alice wins
    finish(client, ("carol", "alice"), ("1", "3"))  # alice wins again
    HttpMatch(client, names=("dave", "erin"))  # started, not finished: not counted
    body = client.get("/standings?ruleset=toy").get_json()
    assert body["next"] is None
    assert [
        (r["player"], r["played"], r["wins"], r["losses"], r["points"]) for r in body["items"]
    ] == [("alice", 2, 2, 0, 6), ("bob", 1, 0, 1, 0), ("carol", 1, 0, 1, 0)]
    assert all(r["ruleset"] == "toy" and r["draws"] == 0 for r in body["items"])
    first = client.get("/standings?limit=2").get_json()
    assert [r["player"] for r in first["items"]] == ["alice", "bob"] and first["next"]
    rest = client.get(f"/standings?limit=2&cursor={first['next']}").get_json()
    assert [r["player"] for r in rest["items"]] == ["carol"] and rest["next"] is None
    assert client.get("/standings?ruleset=district_war").get_json() == {"items": [], "next": None}


def test_standings_arguments_are_checked(client):
    assert_error(client.get("/standings?limit=0"), 422, "validation_error")
    assert_error(client.get("/standings?cursor=-3"), 422, "validation_error")


def test_the_match_list_comes_from_its_table(client, service):
    table = HttpMatch(client, names=("alice", "bob"))
    [item] = client.get("/matches").get_json()["items"]
    assert item["match_id"] == table.id and item["created_at"] and item["started_at"]
    assert item["seats"] == [{"seat": 1, "name": "alice"}, {"seat": 2, "name": "bob"}]
    view = service.read_models.view("match_list")
    with view.batch():
        view.reset("nobody")  # empties the table, keeps the projection's position
    assert client.get("/matches").get_json()["items"] == []
    assert client.get(f"/matches/{table.id}").status_code == 200  # the log still has it
    service.read_models.rebuild("match_list")
    assert [m["match_id"] for m in client.get("/matches").get_json()["items"]] == [table.id]


def test_an_app_on_its_own_store_keeps_its_read_models_up_to_date(tmp_path):
    app = create_app({"TESTING": True, "DRTS_DATABASE_URL": f"sqlite:///{tmp_path}/own.sqlite"})
    service = app.extensions[EXTENSION]
    try:
        assert isinstance(service.read_models._thread, Timer)  # SQLite: no subscriptions
        assert app.test_client().get("/standings").get_json() == {"items": [], "next": None}
    finally:
        service.close()


def test_a_row_counts_a_player_by_its_id_and_a_seat_naming_none_by_its_name(client):
    """Issue 45: `player_id` is the player a row counts (its name in `player`, not the
    seat's), null for a row of seats that named no player."""
    ann = client.post("/players", json={"name": "Ann"}).get_json()
    body = client.post("/matches", json={"ruleset": "toy"}).get_json()
    match, referee = body["match_id"], body["referee_token"]
    seats = f"/matches/{match}/seats"
    joined = client.post(seats, json={"name": "w", "player": "ann", "player_key": ann["key"]})
    assert joined.status_code == 201, joined.get_json()
    assert client.post(seats, json={"name": "l"}).status_code == 201
    assert client.post(f"/matches/{match}/start", headers=bearer(referee)).status_code == 200
    forfeit = {"action": "forfeit", "args": {"seat": 2}, "reason": "test"}
    acted = client.post(f"/matches/{match}/actions", json=forfeit, headers=bearer(referee))
    assert acted.status_code == 201, acted.get_json()
    counts = {"draws": 0, "ruleset": "toy", "played": 1}
    assert client.get("/standings?ruleset=toy").get_json()["items"] == [
        {
            **counts,
            "player": "Ann",
            "player_id": ann["player_id"],
            "wins": 1,
            "losses": 0,
            "points": 3,
        },
        {**counts, "player": "l", "player_id": None, "wins": 0, "losses": 1, "points": 0},
    ]
