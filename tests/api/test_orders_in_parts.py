"""A message of several parts over HTTP (contract, `screen_order`): the parts that stand are
the order, the refused ones come back with their reasons, and nothing is lost."""

from tests.api.conftest import HttpMatch, assert_error, bearer


def test_refused_parts_are_listed_in_the_receipt_and_the_rest_stands(client):
    match = HttpMatch(client, "toy_parts")
    response = match.order(1, "3\nseven\n")
    assert response.status_code == 201, response.get_json()
    receipt = response.get_json()
    assert receipt["standing"] == {"pick": 3}
    assert [part["part"] for part in receipt["refused"]] == ["seven"]
    assert "number" in receipt["refused"][0]["reason"]


def test_the_standing_order_after_a_merge_is_in_the_receipt(client):
    match = HttpMatch(client, "toy_parts")
    assert match.order(1, "2").get_json()["standing"] == {"pick": 2}
    later = match.order(1, "1\n9").get_json()
    assert later["standing"] == {"pick": 2}  # toy_parts merges: the larger pick stands
    assert [part["part"] for part in later["refused"]] == ["9"]


def test_the_refused_parts_are_sealed_with_the_order_in_the_event_log(client):
    match = HttpMatch(client, "toy_parts")
    match.order(1, "3\nseven")
    own = client.get(f"/matches/{match.id}/events", headers=bearer(match.seats[0])).get_json()
    sealed = [e["sealed"] for e in own["items"] if e["type"] == "OrderSubmitted"]
    assert sealed[0]["order"] == {"pick": 3}
    assert [part["part"] for part in sealed[0]["refused"]] == ["seven"]
    other = client.get(f"/matches/{match.id}/events", headers=bearer(match.seats[1])).get_json()
    assert all("sealed" not in e for e in other["items"] if e["type"] == "OrderSubmitted")


def test_a_message_with_no_part_standing_is_refused_and_recorded(client):
    match = HttpMatch(client, "toy_parts")
    body = assert_error(match.order(1, "seven\n9"), 422, "invalid_order")
    assert "seven" in body["message"] and "'9'" in body["message"]
    events = client.get(f"/matches/{match.id}/events").get_json()["items"]
    assert [e["type"] for e in events][-1] == "OrderRejected"


def test_a_game_taking_messages_whole_lists_nothing_refused(client):
    match = HttpMatch(client, "toy")
    receipt = match.order(1, "2").get_json()
    assert (receipt["refused"], receipt["standing"]) == ([], {"pick": 2})
