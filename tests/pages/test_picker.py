"""The seat page's picker (api/pages/picker.py): each legal unit's clicks on the board."""

from __future__ import annotations

from typing import Any

from api.pages.picker import picker


def answer(ruleset: str, orders: Any = None, pieces: Any = None, **more: Any) -> dict[str, Any]:
    return {"ruleset": ruleset, "seat": 3, "owes": True, "orders": orders, "pieces": pieces,
            "combining": None, **more}  # fmt: skip


def paths(found: dict[str, Any] | None) -> dict[str, list[str]]:
    assert found is not None
    return {unit["text"]: unit["path"] for unit in found["units"]}


def test_a_dris_et_tessa_step_closing_a_mill_is_the_piece_the_point_then_the_removal():
    """DT-2 steps, DT-3 and DT-4 removals."""
    orders = [{"text": "d7", "json": {}}, {"text": "d7-d6 xg4", "json": {}}]
    assert paths(picker(answer("dris_et_tessa", orders))) == {
        "d7": ["d7"],
        "d7-d6 xg4": ["d7", "d6", "g4"],
    }


def test_a_district_war_cell_is_clicked_and_the_dmos_choice_is_a_button():
    """DW-2 (the DMO's choice), DW-3 (a cell)."""
    orders = [{"text": "first 1", "json": {"first": 1}}, {"text": "e4", "json": {"place": "e4"}}]
    assert paths(picker(answer("district_war", orders))) == {"first 1": ["first 1"], "e4": ["e4"]}


def test_drts_operations_are_the_seats_piece_its_square_then_an_item_and_two_at_most():
    """DRTS-4 (two operations, the team request free), DRTS-11, DRTS-21."""
    move = {"operations": [{"op": "move", "piece": "water"}]}
    commands = [
        {"text": "water hold", "json": move},
        {"text": "water 20>21 deathstar 1", "json": move, "spends": {"deathstar": 1}},
        {"text": "water recover 15", "json": move},
    ]
    team = [{"text": "team green", "json": {"operations": [], "team": "green"}}]
    combining = {"max_pieces": 2, "free": ["team"], "rule": "DRTS-4"}
    found = picker(
        answer(
            "drts_team23",
            None,
            [{"piece": "water", "commands": commands}, {"piece": "team", "commands": team}],
            combining=combining,
        )
    )
    assert paths(found) == {
        "water hold": ["water@3", "hold"],
        "water 20>21 deathstar 1": ["water@3", "21", "deathstar", "1"],
        "water recover 15": ["water@3", "recover", "15"],
        "team green": ["team green"],
    }
    assert found is not None
    assert (found["whole"], found["max_pieces"], found["free"], found["joiner"]) == (
        False, 2, ["team"], "; ")  # fmt: skip


def test_a_seat_owing_nothing_gets_no_picker():
    assert picker({**answer("shades"), "owes": False}) is None
