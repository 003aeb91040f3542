"""GET /matches/{id}/legal-orders over HTTP (issue 48): what a seat may order now, for every
game, each listed order or command sent back as it is listed and taken; the empty answers
with their reasons; secrecy (a seat sees only its own) and the referee's `?seat=N`."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.api.conftest import OPERATOR, HttpMatch, assert_error, bearer

DRTS_SEATS = tuple(f"player{n}" for n in range(1, 9))


def legal(client, match: HttpMatch, token: str | None, seat: int | None = None) -> Any:
    query = "" if seat is None else f"?seat={seat}"
    return client.get(f"/matches/{match.id}/legal-orders{query}", headers=bearer(token))


def listed(client, match: HttpMatch, seat: int) -> dict[str, Any]:
    response = legal(client, match, match.seats[seat - 1])
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def texts(commands: list[dict[str, Any]]) -> list[str]:
    return [command["text"] for command in commands]


def piece(body: dict[str, Any], name: Any) -> list[str]:
    return next(texts(p["commands"]) for p in body["pieces"] if p["piece"] == name)


def test_district_war_lists_the_dmos_choice_then_every_cell_dw_3_allows(client):
    """DW-2: the DMO (seat 2) first chooses who places first; DW-3: the first troop goes on
    any empty cell outside districts of size 3 or less (F 3 and C 2 cells out: 44 left)."""
    match = HttpMatch(client, "district_war")
    dmo = listed(client, match, 2)
    assert dmo["owes"] and dmo["lists"] == ["orders"] and dmo["pieces"] is None
    assert dmo["orders"] == [
        {"text": "first 1", "json": {"first": 1}},
        {"text": "first 2", "json": {"first": 2}},
    ]
    assert listed(client, match, 1)["why"] == "not_its_turn"
    assert match.order(2, dmo["orders"][0]["json"]).status_code == 201
    cells = listed(client, match, 1)["orders"]
    assert len(cells) == 44 and {"text": "a1", "json": {"place": "a1"}} in cells
    assert not {"c2", "d2", "c3", "d3", "d4"} & set(texts(cells))  # C and F (DW-1)
    assert match.order(1, cells[-1]["text"]).status_code == 201


def test_dris_et_tessa_lists_placements_then_a_mill_only_with_its_removals(client):
    """DT-2: 24 placements from the start; DT-3: a placement closing a mill (a7 d7 g7)
    is listed only with its removal, DT-4: of any enemy piece outside a mill."""
    match = HttpMatch(client, "dris_et_tessa")
    start = listed(client, match, 1)
    assert len(start["orders"]) == 24 and start["orders"][0] == {
        "text": "a1",
        "json": {"place": "a1"},
    }
    for seat, point in [(1, "a7"), (2, "b6"), (1, "d7"), (2, "d6")]:
        assert match.order(seat, point).status_code == 201
    orders = texts(listed(client, match, 1)["orders"])
    assert "g7" not in orders and {"g7 xb6", "g7 xd6"} <= set(orders)
    assert match.order(1, "g7 xd6").status_code == 201


def test_drts_v1_lists_whole_orders_and_each_pieces_moves_diagonals_included(client):
    """DRTS-6, DRTS-7: seat 1's Water on 1 may step diagonally to 8, where seat 3's Fire
    stands (Water beats Fire); DRTS-4: the whole orders are every 0, 1 or 2 operations on
    different pieces, each with no team request or one for each team (DRTS-19)."""
    match = HttpMatch(client, "drts_team23", DRTS_SEATS, ruleset_version=1)
    body = listed(client, match, 1)
    assert body["lists"] == ["orders", "commands"]
    assert piece(body, "water") == ["water hold", "water 1>2", "water 1>7", "water 1>8"]
    notes = {c["text"]: c["note"] for p in body["pieces"] for c in p["commands"]}
    assert notes["water 1>8"] == "diagonal, attacking a capturable enemy piece (DRTS-6)"
    assert notes["water 1>7"] == "" and notes["team green"] == ""
    counts = [len(p["commands"]) for p in body["pieces"] if p["piece"] != "team"]
    singles = sum(counts)
    pairs = sum(a * b for i, a in enumerate(counts) for j, b in enumerate(counts) if i != j)
    assert len(body["orders"]) == (1 + singles + pairs) * 4  # no team, or one of three
    assert body["combining"]["max_pieces"] == 2 and body["combining"]["free"] == ["team"]
    assert match.order(1, body["orders"][-1]["json"]).status_code == 201


def test_drts_v2_lists_items_while_in_stock_and_an_allowed_pair_stands_whole(client):
    """DRTS-4, DRTS-21: each operation also with every item it may carry (a Star on a move
    or hold, a DeathStar at each corner, a Blackhole on a move, a Generator, DRTS-15);
    two operations of different pieces, each invoking one item, stand with nothing refused."""
    match = HttpMatch(client, "drts_team23", DRTS_SEATS)
    body = listed(client, match, 1)
    assert body["lists"] == ["commands"] and body["orders"] is None
    water = piece(body, "water")
    assert {"water 1>8 star", "water 1>8 deathstar 37", "water 1>8 blackhole"} <= set(water)
    assert {"water hold star", "water hold generator", "water 1>8 generator"} <= set(water)
    assert body["combining"]["stock"] == {"star": 4, "deathstar": 2, "blackhole": 1}
    spends = {c["text"]: c["spends"] for p in body["pieces"] for c in p["commands"]}
    assert spends["water 1>8 star"] == {"star": 1} and spends["water 1>8 generator"] == {}
    sent = "water 1>8 star; fire 2>8 blackhole; team blue"
    receipt = match.order(1, sent)
    assert receipt.status_code == 201 and receipt.get_json()["refused"] == []
    assert listed(client, match, 1)["orders_sent"] == 1


def test_drts_v2_a_seat_without_blackholes_lists_none(client, service):
    """DRTS-13, DRTS-21: an item is invoked only while the seat has one left; once seat 1's
    only Blackhole is built, its commands list no Blackhole and its stock shows 0."""
    match = HttpMatch(client, "drts_team23", DRTS_SEATS, config={"close_early": True})
    assert match.order(1, "water 1>7 blackhole").get_json()["refused"] == []
    for seat in range(2, 9):
        assert match.order(seat, "hold").status_code == 201
    service.resolve_due()
    body = listed(client, match, 1)
    assert body["movement"] == 2 and body["combining"]["stock"]["blackhole"] == 0
    assert not any("blackhole" in c for p in body["pieces"] for c in texts(p["commands"]))
    assert "water 7>8 star" in piece(body, "water")  # Stars are left (DRTS-21: 4)


def test_shades_lists_stay_or_each_open_step_of_every_shade(client):
    """SH-1: a shade stays or steps N, E, S or W onto a square on the map and not water;
    SH-4: one command a shade, any number of shades, all taken."""
    match = HttpMatch(client, "shades", config={"turns": 3})
    body = listed(client, match, 1)
    assert body["lists"] == ["commands"] and body["combining"]["max_pieces"] is None
    for entry in body["pieces"]:
        assert 1 <= len(entry["commands"]) <= 5
        assert all(c["text"].startswith(f"{entry['piece']} ") for c in entry["commands"])
    one_each = "; ".join(entry["commands"][0]["text"] for entry in body["pieces"])
    assert match.order(1, one_each).status_code == 201


def test_b_chess_lists_each_objects_targets_and_purchases_while_macks_last(client):
    """BC-8: a King's eight neighbours on the torus (BC-1); BC-6: with 50 macks three
    purchases are paid for this Turn (0 + 10 + 20), a fourth (30 more) is not; BC-3:
    objects act one after another, so the rule is no snapshot."""
    match = HttpMatch(client, "b_chess")
    body = listed(client, match, 1)
    kings = [p for p in body["pieces"] if p["piece"].startswith("K")]
    assert len(kings) == 1 and len(kings[0]["commands"]) == 8
    assert piece(body, "purchase") == ["purchase"]
    assert body["combining"]["repeats"] == {"purchase": 3}
    assert body["combining"]["snapshot"] is False
    sent = "\n".join([kings[0]["commands"][0]["text"], "purchase", "purchase"])
    receipt = match.order(1, sent)
    assert receipt.status_code == 201 and receipt.get_json()["refused"] == []


def test_the_referee_and_the_operator_list_the_seat_they_name(client):
    match = HttpMatch(client, "dris_et_tessa")
    own = listed(client, match, 1)
    for token in (match.referee, OPERATOR):
        named = legal(client, match, token, 1).get_json()
        assert named["orders"] == own["orders"] and named["seat"] == 1
        assert legal(client, match, token, 2).get_json()["why"] == "not_its_turn"
    refused = assert_error(legal(client, match, match.referee), 422, "seat_needed")
    assert "?seat=N" in refused["message"]
    assert_error(legal(client, match, match.referee, 3), 404, "unknown_seat")


@pytest.mark.parametrize("game", ["dris_et_tessa", "b_chess"])
def test_a_seat_sees_only_its_own_legal_orders(client, game):
    match = HttpMatch(client, game)
    assert legal(client, match, match.seats[0], 1).status_code == 200
    body = assert_error(legal(client, match, match.seats[0], 2), 403, "not_your_seat")
    assert "seat 2" in body["message"]
    assert_error(legal(client, match, None), 401, "missing_token")
    assert_error(legal(client, match, None, 1), 401, "missing_token")
    assert_error(legal(client, match, "a guess"), 401, "invalid_token")
    secret = client.get(f"/matches/{match.id}/events").get_json()["items"]
    assert [e for e in secret if e["type"] == "SecretViewed"] == []


def test_before_the_start_a_seat_owes_nothing_yet(client):
    match = HttpMatch(client, "district_war", start=False)
    body = listed(client, match, 1)
    assert (body["owes"], body["why"], body["movement"]) == (False, "not_started", None)
    assert "has not started" in body["reason"] and body["orders"] == []


def test_a_forfeited_seat_is_eliminated_and_lists_nothing(client):
    """BC-9 and the referee's forfeit: a seat put out owes no more orders."""
    match = HttpMatch(client, "b_chess", ("alice", "bob", "carol"))
    forfeit = {"action": "forfeit", "args": {"seat": 3}, "reason": "withdrew"}
    acted = client.post(f"/matches/{match.id}/actions", json=forfeit, headers=bearer(match.referee))
    assert acted.status_code == 201, acted.get_json()
    body = listed(client, match, 3)
    assert (body["owes"], body["why"], body["pieces"]) == (False, "eliminated", [])
    assert "no longer asked for orders" in body["reason"]
    assert listed(client, match, 1)["owes"]


def test_a_finished_match_lists_nothing_to_anyone(client):
    """DW-6: a forfeit ends District War; nothing is owed afterwards."""
    match = HttpMatch(client, "district_war")
    forfeit = {"action": "forfeit", "args": {"seat": 1}, "reason": "withdrew"}
    acted = client.post(f"/matches/{match.id}/actions", json=forfeit, headers=bearer(match.referee))
    assert acted.status_code == 201, acted.get_json()
    for seat in (1, 2):
        body = listed(client, match, seat)
        assert (body["owes"], body["why"], body["orders"]) == (False, "finished", [])


def test_playing_a_match_from_the_lists_alone_reaches_its_end(client):
    """District War (`troops: 2`): each seat to act sends the first order it is listed;
    the match finishes (DW-3's rules decide every listed cell)."""
    match = HttpMatch(client, "district_war", config={"troops": 2})
    for _ in range(20):
        owing = [s for s in (1, 2) if listed(client, match, s)["owes"]]
        if not owing:
            break
        first = listed(client, match, owing[0])["orders"][0]
        assert match.order(owing[0], first["json"]).status_code == 201
    assert client.get(f"/matches/{match.id}").get_json()["status"] == "finished"
    assert listed(client, match, 1)["why"] == "finished"


def test_drts_v2_the_answer_is_over_the_standing_order_merged_per_piece(client):
    """DRTS-4, DRTS-21 under v2's merge (a later order replaces the standing one's operations
    piece by piece): after "water 1>7 blackhole; fire 2>8 star" the answer counts water and
    fire as ordered, leaves no Blackhole and 3 Stars, and still lists fire's Blackhole
    (ordering water anew gives its Blackhole back); a plant operation alone is refused (a
    third), "water 1>2; fire 2>8 blackhole" stands and moves the Blackhole to fire."""
    match = HttpMatch(client, "drts_team23", DRTS_SEATS)
    before = listed(client, match, 1)
    assert (before["order_policy"], before["standing"]) == ("merge", None)
    assert before["combining"]["ordered"] == {}
    sent = match.order(1, "water 1>7 blackhole; fire 2>8 star").get_json()
    body = listed(client, match, 1)
    assert body["standing"] == sent["standing"] and body["orders_sent"] == 1
    assert body["combining"]["ordered"] == {"water": {"blackhole": 1}, "fire": {"star": 1}}
    assert body["combining"]["stock"] == {"star": 3, "deathstar": 2, "blackhole": 0}
    assert body["pieces"] == before["pieces"]  # every listed command may still be sent
    assert "fire 2>8 blackhole" in piece(body, "fire")
    plant = piece(body, "plant")[0]
    assert match.order(1, plant).status_code == 422  # DRTS-4: a third operation
    assert match.order(1, "fire 2>8 blackhole").status_code == 422  # DRTS-21: none left
    receipt = match.order(1, "water 1>2; fire 2>8 blackhole").get_json()
    assert receipt["refused"] == []
    after = listed(client, match, 1)["combining"]
    assert after["ordered"] == {"water": {}, "fire": {"blackhole": 1}}
    assert after["stock"] == {"star": 4, "deathstar": 2, "blackhole": 0}


def test_b_chess_the_answer_is_over_the_orders_sent_this_turn(client):
    """BC-6 under accumulate (every order of the Turn counts): after two purchases (0 + 10
    macks) one more is paid for and 40 macks are left; after a third none more, and the
    purchase is no longer listed; BC-3: the King moved earlier is `ordered`, a further
    move of it being tried only if that one cannot be carried out."""
    match = HttpMatch(client, "b_chess")
    body = listed(client, match, 1)
    king = next(p for p in body["pieces"] if p["piece"].startswith("K"))
    first = king["commands"][0]["text"]
    assert match.order(1, f"{first}\npurchase").status_code == 201
    assert match.order(1, "purchase").status_code == 201
    body = listed(client, match, 1)
    assert body["order_policy"] == "accumulate" and len(body["standing"]) == 2
    rule = body["combining"]
    assert (rule["repeats"], rule["stock"]) == ({"purchase": 1}, {"macks": 40})
    assert rule["ordered"] == {king["piece"]: {}} and piece(body, "purchase") == ["purchase"]
    assert match.order(1, "purchase").status_code == 201
    spent = listed(client, match, 1)
    assert spent["combining"]["repeats"] == {"purchase": 0}
    assert spent["combining"]["stock"] == {"macks": 20}
    assert "purchase" not in [p["piece"] for p in spent["pieces"]]


@pytest.mark.parametrize(
    ("game", "version", "names", "first", "then"),
    [
        ("shades", 2, ("alice", "bob"), None, None),
        ("drts_team23", 1, DRTS_SEATS, "water 1>7", "fire 2>8"),
    ],
)
def test_where_a_later_order_replaces_the_earlier_the_lists_stay_whole(
    client, game, version, names, first, then
):
    """SH-4 and DRTS-4 in v1: a later order replaces the standing one whole
    (`order_policy: "replace"`), so the lists and the rule stay the position's: nothing is
    `ordered`, and anything listed may be sent instead."""
    config = {"turns": 3} if game == "shades" else {}
    match = HttpMatch(client, game, names, config=config, ruleset_version=version)
    before = listed(client, match, 1)
    if first is None:  # Shades: the first listed command of the first shade, then its last
        commands = before["pieces"][0]["commands"]
        first, then = commands[0]["text"], commands[-1]["text"]
    assert match.order(1, first).status_code == 201
    body = listed(client, match, 1)
    assert (body["order_policy"], body["orders_sent"]) == ("replace", 1)
    assert body["pieces"] == before["pieces"] and body["combining"] == before["combining"]
    assert body["combining"]["ordered"] == {}
    receipt = match.order(1, then).get_json()
    assert listed(client, match, 1)["standing"] == receipt["standing"]


def test_only_the_seat_and_the_referee_see_its_standing_order_and_the_look_is_recorded(client):
    """Secrecy (docs/api.md): seat 2's answer holds nothing of seat 1's standing order; the
    referee asking for seat 1 sees it, and that look is a SecretViewed event."""
    match = HttpMatch(client, "drts_team23", DRTS_SEATS)
    standing = match.order(1, "water 1>7 blackhole").get_json()["standing"]
    other = listed(client, match, 2)
    assert other["standing"] is None and other["combining"]["ordered"] == {}
    assert other["combining"]["stock"]["blackhole"] == 1  # its own, untouched
    assert json.dumps(standing["operations"][0]) not in json.dumps(other)
    assert "1>7" not in str(other)
    looks = client.get(f"/matches/{match.id}/events").get_json()["items"]
    assert [e for e in looks if e["type"] == "SecretViewed"] == []
    seen = legal(client, match, match.referee, 1).get_json()
    assert seen["combining"]["ordered"] == {"water": {"blackhole": 1}}
    looks = client.get(f"/matches/{match.id}/events").get_json()["items"]
    assert [e["data"]["what"] for e in looks if e["type"] == "SecretViewed"] == ["open orders"]
