"""The board drawings: pure functions of a game's state JSON (api/pages/boards). Each
gives one well-formed SVG with a <title>, and draws every piece of the state, each
with a text label and its own <title> besides its colour."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from api.pages import boards
from domain.rules.registry import get_ruleset
from domain.rules.rng import Rng
from domain.table import Table
from tests.pages.games import GAMES, SEATS

NS = {"svg": "http://www.w3.org/2000/svg"}


def public_state(game: str, movements: int, seed: str = "boards") -> dict[str, Any]:
    """Returns the public state JSON of a game after `movements` movements of random
    legal orders (the game's own random_order, from the seed's Rng)."""
    ruleset = get_ruleset(game)
    table = Table.start(ruleset, {}, SEATS[game], seed)
    for _ in range(movements):
        if table.outcome().finished:
            break
        rng = Rng(seed, table.movement, "boards-test")
        for seat in table.to_move().seats:
            table.submit(seat, ruleset.dump_order(ruleset.random_order(table.state, seat, rng)))
        table.close()
    state: dict[str, Any] = json.loads(json.dumps(ruleset.view(table.state, None)))
    return state


def pieces_of(game: str, state: dict[str, Any]) -> int:
    """Returns how many pieces the state holds, counted from its JSON (docs/games/)."""
    if game == "district_war":
        return len(state["cells"])
    if game == "drts_team23":
        return sum(len(seat["pieces"]) for seat in state["seats"].values())
    if game == "shades":
        return len(state["shades"]) + len(state["humans"]) + len(state["tombs"])
    if game == "dris_et_tessa":
        return len(state["points"])
    return len(state["priority_list"])


PIECE_CLASSES = {
    "district_war": ("troop",),
    "drts_team23": ("piece",),
    "shades": ("shade", "human", "tomb"),
    "dris_et_tessa": ("piece",),
    "b_chess": ("object",),
}


@pytest.mark.parametrize("game", GAMES)
def test_a_board_is_svg_with_a_title_and_every_piece_labelled(game):
    state = public_state(game, 6)
    drawn = boards.draw(game, state, f"{game} <at> movement 7")
    root = ET.fromstring(drawn)
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("role") == "img"
    assert root.find("svg:title", NS).text == f"{game} <at> movement 7"  # escaped, read back
    groups = [
        g for g in root.iter("{http://www.w3.org/2000/svg}g")
        if g.get("class", "").split()[0] in PIECE_CLASSES[game]
    ]  # fmt: skip
    assert len(groups) == pieces_of(game, state) > 0
    for group in groups:  # what it is, as data the matrix compares with /state (issue 40)
        assert group.get("data-square") and group.get("data-kind"), group.get("class")
        assert group.find("svg:title", NS).text.strip()
        labels = [t.text for t in group.iter("{http://www.w3.org/2000/svg}text")]
        assert any(label and label.strip() for label in labels), group.get("class")


@pytest.mark.parametrize("game", GAMES)
def test_a_board_is_the_same_for_the_same_state(game):
    state = public_state(game, 3)
    assert boards.draw(game, state, "t") == boards.draw(game, json.loads(json.dumps(state)), "t")


def test_district_war_draws_each_troop_on_its_cell_and_rings_the_last():
    """DW-1 names cells a1 (top left) to g7; DW-3 places one troop a movement."""
    state = public_state("district_war", 1)
    state.update(cells={"a1": 1, "g7": 2}, placements=["a1", "g7"])
    root = ET.fromstring(boards.draw("district_war", state, "t"))
    troops = {g.find("svg:title", NS).text: g for g in root.iter("{http://www.w3.org/2000/svg}g")}
    assert set(troops) == {"troop of seat 1 on a1", "troop of seat 2 on g7 (the last placed)"}
    first = troops["troop of seat 1 on a1"].find("svg:circle", NS)
    last = troops["troop of seat 2 on g7 (the last placed)"].findall("svg:circle", NS)
    assert float(first.get("cx")) < float(last[-1].get("cx"))
    assert len(last) == 2  # the ring and the troop


def test_drts_team23_shares_a_square_and_shows_items_and_pieces_out():
    """DRTS-1: squares row by row from the top left; pieces out wait for a movement."""
    state = public_state("drts_team23", 0)
    for seat in state["seats"].values():
        seat["pieces"], seat["out"] = {}, {"water": 3, "fire": 3, "plant": 3}
    state["seats"]["1"]["pieces"], state["seats"]["1"]["out"] = {"fire": 42}, {"water": 9}
    state["seats"]["2"]["pieces"] = {"plant": 42}
    state["board_items"] = [{"item": "blackhole", "square": 7, "seat": 4}]
    drawn = boards.draw("drts_team23", state, "t")
    assert "the Fire of seat 1" in drawn and "on square 42" in drawn
    assert ">1F<" in drawn and ">2P<" in drawn and ">BH4<" in drawn
    assert "Water (back m9)" in drawn


def test_drts_team23_marks_a_generator_with_its_counter():
    """DRTS-15: a Generator is labelled with # (as the Public Display) and its counter."""
    state = public_state("drts_team23", 0)
    state["seats"]["3"]["generators"] = {"plant": 4}
    square = state["seats"]["3"]["pieces"]["plant"]
    drawn = boards.draw("drts_team23", state, "t")
    assert ">3P#<" in drawn
    assert (
        "the Plant of seat 3 (" in drawn and f"on square {square}, a Generator (counter 4)" in drawn
    )
    assert ">3F<" in drawn  # its other pieces are no Generators


def test_b_chess_lists_the_priority_list_top_first():
    """BC-4: the Priority List, top first, below the Field."""
    state = public_state("b_chess", 2)
    drawn = boards.draw("b_chess", state, "t")
    first, second = state["priority_list"][0]["id"], state["priority_list"][1]["id"]
    assert drawn.index(f"1. {first} ") < drawn.index(f"2. {second} ")


def test_shades_marks_water_and_a_razed_tomb():
    """SH-1 water squares; SH-5 a razed tomb is crossed out."""
    state = public_state("shades", 1)
    state["tombs"][0]["razed"] = 1
    drawn = boards.draw("shades", state, "t")
    assert drawn.count('fill="url(#water)"') == sum(
        row.count("~") for row in state["config"]["map"]
    )
    assert "razed" in drawn


def test_a_game_without_a_drawing_or_a_match_not_started_has_no_board():
    assert boards.draw("toy", {"anything": 1}, "t") is None
    assert boards.draw("district_war", None, "t") is None


@pytest.mark.parametrize(
    ("last", "reached", "left"),
    [("g7", "g7", None), ("b4-a4", "a4", "b4"), ("d7-d6 xg4", "d6", "d7")],
)
def test_dris_et_tessa_rings_the_point_the_last_turn_reached(last, reached, left):
    """DT-1, DT-2: `last` is the last turn's text: a placement (`g7`) or a step from one
    point to another (`b4-a4`), with the removal after a mill (DT-3); the point the turn
    reached is ringed, the point a step left marked (issue 40: a step was read as a point)."""
    state = public_state("dris_et_tessa", 0)
    state.update(points={reached: 1}, last=last)
    root = ET.fromstring(boards.draw("dris_et_tessa", state, "t"))
    circles = root.iter("{http://www.w3.org/2000/svg}circle")
    rings = {c.get("class"): c for c in circles if c.get("class") in ("last", "left")}
    groups = root.iter("{http://www.w3.org/2000/svg}g")
    piece = next(g for g in groups if g.get("class") == "piece seat-1")
    assert rings["last"].get("cx") == piece.find("svg:circle", NS).get("cx")
    assert ("left" in rings) == (left is not None)


def test_b_chess_labels_each_object_with_its_id_as_orders_name_it():
    """BC-3: an order names the object by its id (`K3 > 4,5`); the board labels it so, the
    owner in its colour and its title (issue 40: K3 of seat 1 was drawn "K" and "1")."""
    state = public_state("b_chess", 0)
    state["priority_list"] = [{"id": "K3", "owner": 1, "square": [2, 2]},
                              {"id": "P12", "owner": 2, "square": [3, 3]}]  # fmt: skip
    root = ET.fromstring(boards.draw("b_chess", state, "t"))
    objects = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "object" in g.get("class")]
    labels = [[t.text for t in g.iter("{http://www.w3.org/2000/svg}text")] for g in objects]
    assert labels == [["K3"], ["P12"]]
    assert objects[0].find("svg:title", NS).text == "K3: a King of seat 1 on 2,2"
