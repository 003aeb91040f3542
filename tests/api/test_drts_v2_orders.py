"""DRTS Team 23 v2 orders over HTTP: merged per piece, screened operation by operation
(DRTS-4, DRTS-5), with the seat's whole standing order in the receipt and in
`GET /matches/{id}/orders`."""

from tests.api.conftest import HttpMatch, bearer

SEATS = tuple(f"player{n}" for n in range(1, 9))


def drts_match(client):
    return HttpMatch(client, "drts_team23", SEATS)


def test_a_new_match_gets_v2_and_a_v1_match_stays_v1(client):
    assert client.get(f"/matches/{drts_match(client).id}").get_json()["ruleset_version"] == 2
    old = HttpMatch(client, "drts_team23", SEATS, ruleset_version=1)
    assert client.get(f"/matches/{old.id}").get_json()["ruleset_version"] == 1


def test_drts_4_a_refused_operation_is_listed_and_the_other_stands(client):
    """Seat 1 (Water 1, Fire 2, Plant 3): a Star with a move that is no step is refused,
    the Water's move stands, and the receipt is a 201 listing both."""
    match = drts_match(client)
    response = match.order(1, "fire 2>14 star; water 1>7")
    assert response.status_code == 201, response.get_json()
    receipt = response.get_json()
    assert [part["part"] for part in receipt["refused"]] == ["fire 2>14 star"]
    assert "14 is not next to 2" in receipt["refused"][0]["reason"]
    assert receipt["standing"]["operations"] == [
        {"op": "move", "piece": "water", "from": 1, "to": 7}
    ]


def test_drts_4_the_standing_order_after_the_merge_is_in_get_orders(client):
    match = drts_match(client)
    match.order(1, "water 1>7")
    match.order(1, "team green")
    match.order(2, "fire 5>11")
    own = client.get(f"/matches/{match.id}/orders", headers=bearer(match.seats[0])).get_json()
    assert own["standing"] == {
        "1": {"operations": [{"op": "move", "piece": "water", "from": 1, "to": 7}], "team": "green"}
    }
    assert len(own["items"]) == 2
    everyone = client.get(f"/matches/{match.id}/orders", headers=bearer(match.referee)).get_json()
    assert sorted(everyone["standing"]) == ["1", "2"]


def test_a_game_replacing_orders_shows_the_last_as_standing(client):
    match = HttpMatch(client, "toy")
    match.order(1, "2")
    match.order(1, "1")
    own = client.get(f"/matches/{match.id}/orders", headers=bearer(match.seats[0])).get_json()
    assert own["standing"] == {"1": {"pick": 1}}
