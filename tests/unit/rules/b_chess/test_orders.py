"""B-Chess's order syntax and screening (BC-11): one action a line, in the order written; a
line that does not stand is refused on its own, naming it."""

from __future__ import annotations

import pytest

from domain.errors import IllegalOrderError, InvalidOrderError
from domain.rules.b_chess import RULESET
from domain.rules.b_chess.orders import (
    MoveAction,
    Order,
    PurchaseAction,
    parse_order,
    screen_order,
)
from tests.unit.rules.b_chess.support import position

STATE = position([("K1", 1, 0, 0), ("K2", 2, 10, 10), ("Q3", 1, 5, 5)])


@pytest.mark.parametrize(
    "text",
    ["Q3 to 3,12", "q3 to 3,12", "move Q3 to (3, 12)", "Q3 3,12", "  Q3   TO 3 , 12. "],
)
def test_bc_11_a_move_line_names_the_object_and_the_square(text):
    assert parse_order(text) == Order((MoveAction("Q3", (3, 12)),))


def test_bc_11_a_message_holds_several_lines_in_the_order_written():
    order = parse_order("purchase\n\nK1 to 1,1\nQ3 to 5,9\n")
    assert order.actions == (PurchaseAction(), MoveAction("K1", (1, 1)), MoveAction("Q3", (5, 9)))
    assert RULESET.format_order(order) == "purchase\nK1 to 1,1\nQ3 to 5,9"
    assert RULESET.dump_order(order) == {
        "actions": [
            {"action": "purchase"},
            {"action": "move", "piece": "K1", "to": [1, 1]},
            {"action": "move", "piece": "Q3", "to": [5, 9]},
        ]
    }
    assert parse_order(RULESET.dump_order(order)) == order


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Q3 to 3,20", "off the Field"),
        ("X3 to 1,1", "is not an action"),
        ("", "holds no action"),
        ('{"actions": [{"action": "fly"}]}', "an action is"),
        ('{"moves": []}', '{"actions": [...]}'),
    ],
)
def test_a_line_that_does_not_parse_is_refused_naming_it(text, reason):
    with pytest.raises(InvalidOrderError, match=reason.replace("[", r"\[").replace("]", r"\]")):
        parse_order(text)


def test_bc_11_lines_that_do_not_stand_are_refused_one_by_one_and_the_others_stand():
    screened = screen_order(STATE, 1, [], "Q3 to 5,9\nbanana\nK2 to 10,11\npurchase")
    assert screened.order == Order((MoveAction("Q3", (5, 9)), PurchaseAction()))
    assert [r.part for r in screened.refused] == ["banana", "K2 to 10,11"]
    assert "is not an action" in screened.refused[0].reason
    assert "belongs to seat 2" in screened.refused[1].reason


def test_bc_11_the_json_form_is_screened_item_by_item():
    sent = {"actions": ["Q3 to 5,9", {"action": "move", "piece": "Q3", "to": [0, 19]}]}
    screened = screen_order(STATE, 1, [], sent)
    assert screened.order == Order((MoveAction("Q3", (5, 9)),))
    assert "cannot reach 0,19" in screened.refused[0].reason


def test_a_message_with_no_line_standing_is_refused_whole_naming_every_line():
    with pytest.raises(IllegalOrderError, match=r"no line stands: .*belongs.*not an action"):
        screen_order(STATE, 1, [], "K2 to 10,11\nbanana")
    with pytest.raises(InvalidOrderError, match="no line stands"):
        screen_order(STATE, 1, [], "banana\napple")


def test_a_line_naming_an_object_by_the_wrong_kind_is_refused():
    with pytest.raises(IllegalOrderError, match="no R3 on the Field"):
        RULESET.check_order(STATE, 1, parse_order("R3 to 5,6"))
