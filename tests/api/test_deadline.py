"""POST /matches/{id}/deadline: the referee (or the operator) moves the open deadline later."""

from __future__ import annotations

from datetime import datetime, timedelta

from tests.api.conftest import OPERATOR, HttpMatch, assert_error, bearer


def deadline_of(client, table: HttpMatch) -> datetime:
    return datetime.fromisoformat(client.get(f"/matches/{table.id}").get_json()["deadline"])


def test_the_referee_extends_the_open_deadline_by_seconds(client):
    table = HttpMatch(client, deadline_seconds=60)
    before = deadline_of(client, table)
    response = client.post(
        f"/matches/{table.id}/deadline", json={"seconds": 300}, headers=bearer(table.referee)
    )
    assert response.status_code == 200, response.get_json()
    assert datetime.fromisoformat(response.get_json()["deadline"]) == before + timedelta(
        seconds=300
    )
    events = client.get(f"/matches/{table.id}/events").get_json()["items"]
    assert [e["data"]["reason"] for e in events if e["type"] == "DeadlineSet"] == [
        "opened",
        "referee",
    ]


def test_the_operator_extends_any_match_s_deadline(client):
    table = HttpMatch(client)
    before = deadline_of(client, table)
    response = client.post(
        f"/matches/{table.id}/deadline",
        headers=bearer(OPERATOR),
        json={"seconds": 45, "movement": 1},
    )
    assert response.status_code == 200, response.get_json()
    assert deadline_of(client, table) == before + timedelta(seconds=45)


def test_only_the_open_movement_s_deadline_moves(client):
    table = HttpMatch(client)
    assert_error(
        client.post(
            f"/matches/{table.id}/deadline",
            json={"seconds": 60, "movement": 2},
            headers=bearer(table.referee),
        ),
        409,
        "movement_closed",
    )


def test_only_the_referee_extends_a_deadline(client):
    table = HttpMatch(client)
    url = f"/matches/{table.id}/deadline"
    assert_error(client.post(url, json={"seconds": 60}), 401, "missing_token")
    assert_error(
        client.post(url, json={"seconds": 60}, headers=bearer(table.seats[0])), 403, "not_referee"
    )


def test_seconds_are_a_positive_whole_number(client):
    table = HttpMatch(client)
    url = f"/matches/{table.id}/deadline"
    for body in ({}, {"seconds": 0}, {"seconds": "soon"}, {"movement": 1}):
        assert_error(
            client.post(url, json=body, headers=bearer(table.referee)), 422, "validation_error"
        )


def test_a_match_not_started_has_no_deadline_to_extend(client):
    table = HttpMatch(client, start=False)
    assert_error(
        client.post(
            f"/matches/{table.id}/deadline", json={"seconds": 60}, headers=bearer(table.referee)
        ),
        409,
        "match_not_started",
    )
