"""GET /matches/{id}/scoreboard (issue 17): the scoreboards read model per movement, on
SQLite and PostgreSQL, served behind the read models' rules (docs/operations.md): each
query catches up first, and a match the projection leaves out says so."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.match import Match
from service.readmodels.projections import Scoreboards
from tests.api.conftest import HttpMatch, assert_error
from tests.support.team23_orders import TEAM23_FIRST, TEAM23_SEATS


@pytest.fixture
def store_url(database_url: str) -> str:
    """The app's store on SQLite and on PostgreSQL (the read model's two backends)."""
    return database_url


def board(client: Any, table: HttpMatch) -> dict[str, Any]:
    response = client.get(f"/matches/{table.id}/scoreboard")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_match_before_its_first_movement_has_an_empty_scoreboard(client):
    table = HttpMatch(client, "district_war", config={"troops": 2}, start=False)
    assert board(client, table) == {
        "match_id": table.id,
        "ruleset": "district_war",
        "status": "open",
        "seats": [{"seat": 1, "name": "alice"}, {"seat": 2, "name": "bob"}],
        "movements": [],
        "left_out": False,
    }
    client.post(f"/matches/{table.id}/start", headers={"Authorization": f"Bearer {table.referee}"})
    assert board(client, table)["movements"] == []  # movement 1 open, none resolved


def test_the_scoreboard_after_a_few_district_war_movements(client):
    """Each movement's scores and ranking, as its MovementResolved event gave them; read
    right after the orders (the query catches the projection up first)."""
    table = HttpMatch(client, "district_war", config={"troops": 2})
    for seat, order in [(2, "first 1"), (1, "e4"), (2, "b4")]:
        assert table.order(seat, order).status_code == 201
    movements = board(client, table)["movements"]
    log = client.get(f"/matches/{table.id}/events?type=MovementResolved").get_json()["items"]
    assert [m["movement"] for m in movements] == [1, 2, 3]
    for movement, resolved in zip(movements, log, strict=True):
        outcome = resolved["data"]["outcome"]
        assert {str(s["seat"]): s["score"] for s in movement["seats"]} == outcome["scores"]
        assert [s["seat"] for s in movement["seats"]] == outcome["ranking"]
        assert [s["rank"] for s in movement["seats"]] == [1, 2]
        assert movement["teams"] == []
    assert movements[2]["seats"] == [
        {"seat": 2, "score": 5, "rank": 1},
        {"seat": 1, "score": 4, "rank": 2},
    ]


def test_a_team_game_has_the_team_scores_of_each_movement(client):
    table = HttpMatch(client, "drts_team23", names=TEAM23_SEATS, config={"close_early": True})
    for seat, order in enumerate(TEAM23_FIRST, start=1):
        assert table.order(seat, order).status_code == 201
    [movement] = board(client, table)["movements"]
    outcome = client.get(f"/matches/{table.id}/scores").get_json()["outcome"]
    assert {t["team"]: t["score"] for t in movement["teams"]} == outcome["team_scores"] != {}
    assert [s["seat"] for s in movement["seats"]] == outcome["ranking"]
    assert len(movement["seats"]) == 8


def test_an_unknown_match_is_a_404(client):
    missing = "00000000-0000-4000-8000-000000000000"
    assert_error(client.get(f"/matches/{missing}/scoreboard"), 404, "match_not_found")
    assert_error(client.get("/matches/not-a-uuid/scoreboard"), 404, "not_found")


def test_a_match_the_scoreboards_projection_leaves_out_says_so(client, monkeypatch):
    """docs/operations.md, One bad event: the match's rows are gone until a rebuild; the
    scoreboard says it is left out rather than passing for a match with no movement."""
    victim = HttpMatch(client)
    other = HttpMatch(client)
    failing_for(monkeypatch, UUID(victim.id))
    for table in (victim, other):
        for seat, pick in ((1, "3"), (2, "1")):
            assert table.order(seat, pick).status_code == 201
    left = board(client, victim)
    assert left["left_out"] is True and left["movements"] == []
    served = board(client, other)
    assert served["left_out"] is False and [m["movement"] for m in served["movements"]] == [1]


def failing_for(monkeypatch: pytest.MonkeyPatch, victim: UUID) -> None:
    """Makes the scoreboards' MovementResolved handler raise for one match."""
    handler = Scoreboards.handlers[Match.MovementResolved]

    def failing(self: Any, event: Any, tracking: Any) -> Any:
        if event.originator_id == victim:
            raise KeyError("a handler bug")
        return handler(self, event, tracking)

    monkeypatch.setitem(Scoreboards.handlers, Match.MovementResolved, failing)
