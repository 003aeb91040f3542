"""Shades over HTTP: its maps in GET /rulesets/shades, a map named on create (SH-2), the bot
protocol's messages for remote bots (SH-11), and orders in the protocol's reply shape with a
malformed one refused and sent again before the deadline (SH-4, SH-10)."""

from __future__ import annotations

from tests.api.conftest import HttpMatch, assert_error, bearer


def shades_match(client, **config):
    return HttpMatch(client, "shades", config={"map": "small", **config}, seats=2)


def test_the_ruleset_lists_its_maps_and_the_contest_preset(client):
    body = client.get("/rulesets/shades").get_json()
    maps = {item["name"]: item for item in body["maps"]}
    assert maps["river"] == {
        "name": "river",
        "description": "20x20, 8 tombs, a river down the middle crossed by three fords",
        "width": 20,
        "height": 20,
        "tombs": 8,
        "water": 32,
        "max_seats": 8,
    }
    assert [preset["name"] for preset in body["presets"]] == ["contest"]
    assert body["lists_legal_orders"] is False
    assert "maps" not in client.get("/rulesets/district_war").get_json()


def test_the_contest_preset_takes_the_originals_elimination_bonus_and_contested_human(client):
    """Issue 43: GET /rulesets/shades (version 2, the latest) shows SH-6's sequential bonus
    and SH-12's first-found contested human in `contest`, and both options with the rulings
    as defaults; version 1 keeps its own preset and has neither option."""
    body = client.get("/rulesets/shades").get_json()
    assert body["version"] == 2 and body["versions"] == [1, 2]
    (contest,) = body["presets"]
    assert contest["config"] == {
        "turns": 300,
        "turn_seconds": 5,
        "razing": "one",
        "scoring": "normalised",
        "elimination_bonus": "sequential",
        "contested_human": "first_found",
    }
    fields = {field["name"]: field for field in body["config"]}
    assert fields["elimination_bonus"]["default"] == "end_of_turn"
    assert fields["elimination_bonus"]["choices"] == ["end_of_turn", "sequential"]
    assert fields["contested_human"]["default"] == "escapes"
    assert fields["contested_human"]["choices"] == ["escapes", "first_found"]
    old = client.get("/rulesets/shades?version=1").get_json()
    assert "elimination_bonus" not in old["presets"][0]["config"]
    assert "contested_human" not in {field["name"] for field in old["config"]}


def test_a_contest_match_records_both_options_in_its_config(client):
    """The preset is expanded on create: the match's config holds the two options' values."""
    response = client.post(
        "/matches", json={"ruleset": "shades", "preset": "contest", "config": {"map": "small"}}
    )
    assert response.status_code == 201, response.get_json()
    match = client.get(f"/matches/{response.get_json()['match_id']}").get_json()
    assert match["ruleset_version"] == 2
    assert match["config"]["elimination_bonus"] == "sequential"
    assert match["config"]["contested_human"] == "first_found"


def test_a_version_1_match_refuses_the_version_2_options(client):
    """A match pinned to version 1 plays the rules it always had: the options are unknown."""
    response = client.post(
        "/matches",
        json={"ruleset": "shades", "ruleset_version": 1, "config": {"contested_human": "escapes"}},
    )
    body = assert_error(response, 422, "invalid_config")
    assert "unknown config option(s) 'contested_human'" in body["message"]


def test_an_unknown_map_is_refused_on_create(client):
    response = client.post("/matches", json={"ruleset": "shades", "config": {"map": "nowhere"}})
    body = assert_error(response, 422, "invalid_config")
    assert "maps: graveyard, lakes, river, small" in body["message"]


def test_a_remote_bot_reads_its_messages_and_replies_in_the_protocols_shape(client):
    match = shades_match(client)
    init = client.get(f"/matches/{match.id}/protocol?message=init", headers=bearer(match.seats[0]))
    assert init.status_code == 200 and init.get_json()["my_id"] == 1
    turn = client.get(f"/matches/{match.id}/protocol", headers=bearer(match.seats[0])).get_json()
    mine = [a for a in turn["alive_ants"].values() if a["owner"] == 1]
    reply = {"data": [{"id": a["id"], "target": a["position"]} for a in mine]}  # all stay
    assert match.order(1, reply).status_code == 201
    receipt = match.order(2, {"data": []}).get_json()
    assert receipt["closing"]["resolved"]  # SH-10: every seat alive has ordered
    again = client.get(f"/matches/{match.id}/protocol", headers=bearer(match.seats[1]))
    assert again.get_json()["turn_num"] == 1


def test_a_malformed_reply_is_refused_and_may_be_sent_again(client):
    """SH-4 over the API: a body that does not parse is a 422; the seat is not eliminated and
    may send a good one before the deadline."""
    match = shades_match(client)
    bad = match.order(1, {"data": [{"id": "seven", "target": {"x": 1, "y": 1}}]})
    assert "'id' must be an integer" in assert_error(bad, 422, "invalid_order")["message"]
    assert match.order(1, "1 stay").status_code == 201
    state = client.get(f"/matches/{match.id}/state").get_json()["state"]
    assert state["seats"]["1"]["eliminated"] is None


def test_protocol_messages_need_a_seat_and_a_game_with_a_protocol(client):
    match = shades_match(client)
    assert_error(client.get(f"/matches/{match.id}/protocol"), 422, "seat_needed")
    other = client.get(f"/matches/{match.id}/protocol?seat=2", headers=bearer(match.seats[0]))
    assert_error(other, 403, "not_your_seat")
    referee = client.get(f"/matches/{match.id}/protocol?seat=2", headers=bearer(match.referee))
    assert referee.status_code == 200 and "food_count" in referee.get_json()
    toy = HttpMatch(client)
    response = client.get(f"/matches/{toy.id}/protocol?seat=1", headers=bearer(toy.referee))
    assert_error(response, 404, "no_bot_protocol")
