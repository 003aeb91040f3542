"""GET /matches/{id}/events?type=&movement=&seat= (issue 17): each filter and their
combinations on a District War and a DRTS Team 23 match, paging under filters, and the
event log's secrecy unchanged by them (a filter looks at the public form only)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from service.queries.eventfilter import EVENT_TYPES
from tests.api.conftest import HttpMatch, assert_error, bearer
from tests.support.team23_orders import TEAM23_FIRST, TEAM23_SEATS


def events(client: Any, table: HttpMatch, query: str = "", token: str | None = None) -> Any:
    response = client.get(f"/matches/{table.id}/events?limit=1000&{query}", headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def kept(items: list[dict[str, Any]], types=None, movement=None, seat=None) -> list[int]:
    """The versions of the whole log's events a filter keeps, worked out by hand."""
    return [
        item["version"]
        for item in items
        if (types is None or item["type"] in types)
        and (movement is None or item["data"].get("movement") == movement)
        and (seat is None or item["data"].get("seat") == seat)
    ]


def versions(page: dict[str, Any]) -> list[int]:
    return [item["version"] for item in page["items"]]


@pytest.fixture
def district_war(client) -> HttpMatch:
    """A District War match three movements in (the DMO chose, then a cell each)."""
    table = HttpMatch(client, "district_war", config={"troops": 2})
    for seat, order in [(2, "first 1"), (1, "e4"), (2, "b4")]:
        assert table.order(seat, order).status_code == 201
    return table


@pytest.fixture
def team23(client) -> HttpMatch:
    """A DRTS Team 23 match after its first movement, the second open with seat 1's order."""
    table = HttpMatch(client, "drts_team23", names=TEAM23_SEATS, config={"close_early": True})
    for seat, order in enumerate(TEAM23_FIRST, start=1):
        assert table.order(seat, order).status_code == 201
    assert table.order(1, "hold").status_code == 201
    return table


FILTERS = [
    ({"type": "OrderSubmitted"}, {"types": {"OrderSubmitted"}}),
    (
        {"type": "MovementResolved,OrderSubmitted"},
        {"types": {"OrderSubmitted", "MovementResolved"}},
    ),
    ({"movement": 2}, {"movement": 2}),
    ({"seat": 2}, {"seat": 2}),
    ({"type": "OrderSubmitted", "seat": 2}, {"types": {"OrderSubmitted"}, "seat": 2}),
    ({"type": "StepApplied", "movement": 2}, {"types": {"StepApplied"}, "movement": 2}),
    ({"movement": 1, "seat": 1}, {"movement": 1, "seat": 1}),
    (
        {"type": "OrderSubmitted", "movement": 2, "seat": 1},
        {"types": {"OrderSubmitted"}, "movement": 2, "seat": 1},
    ),
]


@pytest.mark.parametrize("game", ["district_war", "team23"])
@pytest.mark.parametrize("query,expected", FILTERS)
def test_each_filter_and_their_combinations_keep_what_they_name(
    request, client, game, query, expected
):
    table = request.getfixturevalue(game)
    whole = events(client, table)["items"]
    page = events(client, table, "&".join(f"{k}={v}" for k, v in query.items()))
    assert versions(page) == kept(whole, **expected)
    assert page["next"] is None and page["version"] == whole[-1]["version"]


def test_the_filters_pick_the_district_war_events_they_name(client, district_war):
    """Checked against the log as it is, so the hand-made predicate above cannot drift."""
    by_type = events(client, district_war, "type=OrderSubmitted")["items"]
    assert [(i["data"]["movement"], i["data"]["seat"]) for i in by_type] == [(1, 2), (2, 1), (3, 2)]
    second = events(client, district_war, "movement=2")["items"]
    assert [i["type"] for i in second] == [
        "DeadlineSet", "OrderSubmitted", "MovementClosed", "StepApplied", "MovementResolved"
    ]  # fmt: skip
    seat_2 = events(client, district_war, "seat=2")["items"]
    assert [i["type"] for i in seat_2] == ["SeatJoined", "OrderSubmitted", "OrderSubmitted"]


def test_a_type_may_be_repeated_or_listed_with_commas(client, district_war):
    repeated = events(client, district_war, "type=Started&type=MovementResolved")
    listed = events(client, district_war, "type=Started,MovementResolved")
    assert versions(repeated) == versions(listed) != []
    assert {i["type"] for i in listed["items"]} == {"Started", "MovementResolved"}


def test_filtered_pages_go_on_from_next_and_end_at_the_last_kept_event(client, district_war):
    """`next` is the version of the page's last event while more kept events follow."""
    base = f"/matches/{district_war.id}/events?type=OrderSubmitted&limit=2"
    first = client.get(base).get_json()
    assert versions(first) == [6, 11] and first["next"] == 11
    rest = client.get(f"{base}&after={first['next']}").get_json()
    assert versions(rest) == [16] and rest["next"] is None
    assert rest["version"] == first["version"] == 20  # the head, not the last kept event
    news = client.get(f"{base}&after={rest['version']}").get_json()
    assert news["items"] == [] and news["next"] is None


def test_a_filtered_long_poll_ends_on_any_event_and_may_be_empty(client, district_war):
    head = events(client, district_war)["version"]
    assert district_war.order(1, "g4").status_code == 201
    page = events(client, district_war, f"type=Finished&after={head}&wait=5")
    assert page["items"] == [] and page["version"] > head


def test_an_unknown_event_type_is_a_400_naming_it_and_the_known_ones(client, district_war):
    response = client.get(f"/matches/{district_war.id}/events?type=OrderSubmitted,Bogus,Nope")
    body = assert_error(response, 400, "unknown_event_type")
    assert body["details"] == {"unknown": ["Bogus", "Nope"], "known": list(EVENT_TYPES)}
    assert "'Bogus', 'Nope'" in body["message"] and "MovementResolved" in body["message"]
    assert {"OrderSubmitted", "SecretViewed", "Finished"} <= set(EVENT_TYPES)


@pytest.mark.parametrize("query", ["movement=0", "seat=0", "movement=x", "seat=1.5"])
def test_a_malformed_movement_or_seat_is_a_422(client, district_war, query):
    assert_error(client.get(f"/matches/{district_war.id}/events?{query}"), 422, "validation_error")


def test_a_seat_filtering_by_another_seat_sees_no_sealed_value(client, service, team23):
    """DRTS Team 23's second movement is open with seat 1's sealed order: seat 2 asking for
    seat 1's events gets them as the whole log shows them, without the sealed order."""
    salt = service.get_match(team23.id).pending[0].salt
    query = "seat=1&movement=2"
    seat_2 = events(client, team23, query, team23.seats[1])
    [order] = seat_2["items"]
    assert order["type"] == "OrderSubmitted" and "sealed" not in order
    assert salt not in json.dumps(seat_2)
    whole = events(client, team23, "", team23.seats[1])["items"]
    assert order in whole
    spectator = events(client, team23, "type=OrderSubmitted&seat=1")["items"]
    assert all("sealed" not in item for item in spectator[-1:]) and salt not in json.dumps(
        spectator
    )
    own = events(client, team23, query, team23.seats[0])["items"]
    assert own[0]["sealed"]["salt"] == salt  # a seat sees its own, as without a filter


def test_the_referees_look_through_a_filter_is_recorded_only_when_it_shows_a_secret(
    client, service, team23
):
    def looks() -> int:
        return len(events(client, team23, "type=SecretViewed")["items"])

    events(client, team23, "type=StepApplied", team23.referee)
    assert looks() == 0  # no sealed value not yet revealed was on that page
    shown = events(client, team23, "seat=1&movement=2", team23.referee)["items"]
    assert shown[0]["sealed"]["salt"] == service.get_match(team23.id).pending[0].salt
    assert looks() == 1
