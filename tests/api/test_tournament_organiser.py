"""The organiser's acts over HTTP (issue 45): withdrawing a player, pausing, resuming and
pairing a round, each with the organiser's token as the bearer token (the operator's
does as well), each recorded in the tournament's events; refused with 401/403 for a
missing or wrong token, 409 for the wrong state, 404/422 for what does not exist."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from flask.testing import FlaskClient

from service.matches import Matches
from service.tournaments import Tournaments
from tests.api.conftest import OPERATOR, HttpTournament, assert_error


def types(service: Matches, event: HttpTournament) -> list[str]:
    """Returns the types of the tournament's events, as stored."""
    return [item["type"] for item in Tournaments(service).items(UUID(event.id))]


def recorded(service: Matches, event: HttpTournament, type_name: str) -> list[dict[str, Any]]:
    """Returns the data of the tournament's events of one type, as stored."""
    items = Tournaments(service).items(UUID(event.id))
    return [item["data"] for item in items if item["type"] == type_name]


def finished(client: FlaskClient) -> HttpTournament:
    """A round robin of two, its one round played: finished, its seed revealed."""
    event = HttpTournament(client, names=("ada", "bo"))
    assert event.act("pair").status_code == 200
    event.play_round()
    assert event.act("pair").get_json()["finished"]
    return event


@pytest.fixture
def event(client: FlaskClient) -> HttpTournament:
    return HttpTournament(client)


def test_the_organiser_withdraws_a_player_and_it_is_recorded(event, service):
    response = event.act("withdrawal:di", reason="ill")
    assert response.status_code == 200, response.get_json()
    assert event.ids["di"] in response.get_json()["withdrawn"]
    assert recorded(service, event, "PlayerWithdrawn") == [
        {"player_id": event.ids["di"], "after_round": 0, "reason": "ill"}
    ]


def test_a_player_withdraws_itself_with_its_own_key(event, service):
    response = event.act("withdrawal:di", token=event.keys["di"])
    assert response.status_code == 200, response.get_json()
    assert recorded(service, event, "PlayerWithdrawn")[0]["reason"] == ""


def test_the_organiser_pauses_and_it_is_recorded(event, service):
    response = event.act("pause", reason="lunch")
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["paused"] is True
    assert recorded(service, event, "Paused") == [{"reason": "lunch"}]


def test_the_organiser_resumes_and_it_is_recorded(event, service):
    event.act("pause")
    response = event.act("resume")
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["paused"] is False
    assert types(service, event)[-2:] == ["Paused", "Resumed"]


def test_pair_pairs_the_next_round_and_says_what_it_did(event, service):
    response = event.act("pair")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["steps"][0] == "round 1 paired" and body["rounds"] == 1
    assert len(body["steps"]) == 3  # the round paired, then each table's match linked
    assert types(service, event).count("RoundPaired") == 1
    assert all(event.shown()["rounds"][0]["links"])


def test_pair_twice_pairs_one_round(event, service):
    event.act("pair")
    again = event.act("pair")
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["steps"] == [] and again.get_json()["rounds"] == 1
    assert types(service, event).count("RoundPaired") == 1
    assert len(list(service.match_ids())) == 2


def test_pair_while_paused_pairs_nothing_until_resumed(event):
    event.act("pause")
    paused = event.act("pair").get_json()
    assert (paused["steps"], paused["rounds"], paused["paused"]) == ([], 0, True)
    event.act("resume")
    assert event.act("pair").get_json()["rounds"] == 1


def test_the_operator_token_acts_as_the_organiser(event, service):
    assert event.act("pause", token=OPERATOR).status_code == 200
    assert event.act("pair", token=OPERATOR).get_json()["rounds"] == 0
    assert event.act("resume", token=OPERATOR).status_code == 200
    assert event.act("withdrawal:di", token=OPERATOR).status_code == 200
    assert types(service, event)[-3:] == ["Paused", "Resumed", "PlayerWithdrawn"]


ACTS = ["withdrawal:di", "pause", "resume", "pair"]


@pytest.mark.parametrize("act", ACTS)
def test_an_act_without_a_token_is_refused_and_nothing_recorded(event, service, act):
    before = types(service, event)
    assert_error(event.act(act, token=None), 401, "missing_token")
    assert types(service, event) == before


@pytest.mark.parametrize("act", ACTS)
@pytest.mark.parametrize("who", ["a wrong token", "another organiser", "a player", "a seat"])
def test_an_act_with_a_token_not_the_organisers_is_refused(client, event, service, act, who):
    token = {
        "a wrong token": lambda: "guess",
        "another organiser": lambda: HttpTournament(client, names=()).token,
        "a player": lambda: event.keys["ada"],  # not di's key: di's own may withdraw di
        "a seat": lambda: seat_token(event, service),
    }[who]()
    if act == "resume":
        event.act("pause")  # only a paused one resumes
    before = types(service, event)
    assert_error(event.act(act, token=token), 403, "not_organiser")
    assert types(service, event) == before


def seat_token(event: HttpTournament, service: Matches) -> str:
    """Returns ada's seat token in her round 1 match (the round paired by the service)."""
    Tournaments(service).advance(event.id)
    return str(Tournaments(service).seat_token(event.id, "ada", event.keys["ada"])["token"])


def test_pausing_a_paused_tournament_is_a_conflict(event):
    event.act("pause")
    assert_error(event.act("pause"), 409, "tournament_paused")


def test_resuming_a_running_tournament_is_a_conflict(event):
    assert_error(event.act("resume"), 409, "tournament_not_paused")


@pytest.mark.parametrize("act", ACTS)
def test_an_act_on_a_finished_tournament_is_a_conflict(client, service, act):
    event = finished(client)
    before = types(service, event)
    assert "SeedRevealed" in before
    what = "withdrawal:bo" if act.startswith("withdrawal") else act
    assert_error(event.act(what), 409, "tournament_finished")
    assert types(service, event) == before


@pytest.mark.parametrize("act", ACTS)
def test_an_act_on_an_unknown_tournament_is_not_found(event, act):
    event.id = "0c7e8a57-0000-4000-8000-000000000000"
    assert_error(event.act(act), 404, "tournament_not_found")


def test_withdrawing_an_unknown_player_is_not_found(event):
    assert_error(event.act("withdrawal:nobody"), 404, "player_not_found")


def test_withdrawing_a_player_not_registered_names_the_player(client, event):
    client.post("/players", json={"name": "ed"})
    assert_error(event.act("withdrawal:ed"), 422, "unknown_player")


def test_withdrawing_a_player_twice_names_the_player(event):
    event.act("withdrawal:di")
    body = assert_error(event.act("withdrawal:di"), 422, "unknown_player")
    assert "has withdrawn" in body["message"]


def test_a_reason_with_a_control_character_is_refused(event, service):
    body = assert_error(event.act("pause", reason="a\x07b"), 422, "validation_error")
    assert "reason" in body["message"]
    assert "Paused" not in types(service, event)


def test_a_withdrawn_players_later_game_is_a_walkover_for_the_scheduled_opponent(event):
    """Round robin (docs/tournaments.md): a withdrawn player is paired no more, and the
    opponent the schedule gave them has a bye that scores a win."""
    event.act("pair")
    event.play_round()
    assert event.act("withdrawal:di", reason="ill").status_code == 200
    assert event.act("pair").get_json()["rounds"] == 2
    second = event.shown()["rounds"][1]
    di = event.ids["di"]
    assert all(di not in table for table in second["tables"]) and len(second["tables"]) == 1
    (walkover,) = second["byes"]
    assert walkover != di
    standing = event.client.get(f"/tournaments/{event.id}/standings").get_json()["standings"]
    rows = {row["player_id"]: row for row in standing}
    assert rows[di]["withdrawn"] is True
    won_round_one = {table[0] for table in event.shown()["rounds"][0]["tables"]}  # seat 2 out
    assert rows[walkover]["points"] == 2 * (walkover in won_round_one) + 2  # the walkover: a win


def test_a_withdrawn_players_opponent_in_an_elimination_advances_with_a_bye(client):
    """Single elimination (docs/tournaments.md): seed 4 withdrawn before round 1, seed 1,
    its opponent by the bracket, has a bye; seeds 2 and 3 play."""
    event = HttpTournament(client, format="elimination")
    assert event.act("withdrawal:di").status_code == 200
    event.act("pair")
    first = event.shown()["rounds"][0]
    assert first["byes"] == [event.ids["ada"]]
    assert first["tables"] == [[event.ids["bo"], event.ids["cy"]]]
    event.play_round()
    event.act("pair")
    advancing = event.shown()["rounds"][0]["advancing"]
    assert {"player_id": event.ids["ada"], "table": 0, "by": "bye"} in advancing
