"""The order syntax: text and JSON forms (DRTS-4 operations, DRTS-19 team requests)."""

import pytest

from domain.errors import InvalidOrderError
from domain.rules.drts_team23.orders import (
    Action,
    Operation,
    Order,
    dump_order,
    format_order,
    parse_order,
)
from domain.rules.drts_team23.state import Kind, Team


def test_a_move_names_the_piece_its_square_and_the_target():
    """DRTS-4: "fire 14>15" moves the Fire from 14 to 15."""
    assert parse_order("fire 14>15") == Order((Operation(Action.MOVE, Kind.FIRE, 15, 14),))


def test_the_origin_of_a_move_may_be_left_out():
    """ "fire 15" moves the Fire to 15, wherever it stands."""
    assert parse_order("fire 15") == Order((Operation(Action.MOVE, Kind.FIRE, 15),))


def test_pieces_may_be_abbreviated_and_case_and_spaces_do_not_matter():
    """A mail client may capitalise or space the order."""
    assert parse_order("  F 14 > 15 ") == parse_order("fire 14>15")


def test_a_hold_names_the_piece():
    """DRTS-8: "water hold" keeps the Water where it is."""
    assert parse_order("water hold") == Order((Operation(Action.HOLD, Kind.WATER),))


def test_a_recovery_names_the_piece_and_the_square():
    """DRTS-18: "plant recover 21"."""
    assert parse_order("plant recover 21") == Order((Operation(Action.RECOVER, Kind.PLANT, 21),))


def test_a_team_request_names_the_team_or_its_number():
    """DRTS-19: green is team 1, yellow 2, blue 3."""
    assert parse_order("team green").team is Team.GREEN
    assert parse_order("team 2").team is Team.YELLOW


def test_clauses_are_separated_by_semicolons_or_new_lines():
    """DRTS-4: two operations and a team request in one order."""
    order = parse_order("fire 14>15; plant recover 21\nteam blue")
    assert [op.action for op in order.operations] == [Action.MOVE, Action.RECOVER]
    assert order.team is Team.BLUE


def test_an_empty_order_or_hold_holds_every_piece():
    """DRTS-22: an order with no operation is the same as silence."""
    assert parse_order("") == parse_order("hold") == Order()


def test_hold_may_come_with_a_team_request():
    """ "hold; team green" asks for green and moves nothing."""
    assert parse_order("hold; team green") == Order((), Team.GREEN)


def test_hold_cannot_come_with_operations():
    """ "hold" says every piece holds, which an operation contradicts."""
    with pytest.raises(InvalidOrderError, match="goes with no operation"):
        parse_order("hold; fire 14>15")


def test_a_square_off_the_board_is_a_syntax_error():
    """DRTS-1: squares are 1..42."""
    with pytest.raises(InvalidOrderError, match="square 43 is not on the board"):
        parse_order("fire 42>43")


def test_an_unknown_piece_is_a_syntax_error():
    """Pieces are water, fire and plant."""
    with pytest.raises(InvalidOrderError, match="must start with water, fire, plant or team"):
        parse_order("rock 14>15")


def test_two_team_requests_are_a_syntax_error():
    """DRTS-19: a seat asks for one team."""
    with pytest.raises(InvalidOrderError, match="one team request"):
        parse_order("team green; team blue")


@pytest.mark.parametrize(
    "text", ["fire 14>15 star", "water hold generator", "plant 3>9 deathstar 1", "blackhole"]
)
def test_item_invocations_are_refused_as_unsupported(text):
    """DRTS-4: invocations belong to the items, which this version does not have."""
    with pytest.raises(InvalidOrderError, match="not supported by this ruleset version"):
        parse_order(text)


def test_an_item_in_the_json_form_is_refused_as_unsupported():
    """DRTS-4: the JSON form reserves item keys just as the text reserves words."""
    data = {"operations": [{"op": "move", "piece": "fire", "to": 8, "item": "star"}]}
    with pytest.raises(InvalidOrderError, match="not supported by this ruleset version"):
        parse_order(data)


def test_the_json_form_holds_operations_and_a_team():
    """The JSON form of "fire 14>15; plant recover 21; team green"."""
    order = parse_order("fire 14>15; plant recover 21; team green")
    assert dump_order(order) == {
        "operations": [
            {"op": "move", "piece": "fire", "from": 14, "to": 15},
            {"op": "recover", "piece": "plant", "to": 21},
        ],
        "team": "green",
    }
    assert parse_order(dump_order(order)) == order


def test_a_json_text_is_read_as_the_json_form():
    """An e-mail may carry the JSON form as text."""
    assert parse_order('{"operations": [{"op": "hold", "piece": "water"}]}') == parse_order(
        "water hold"
    )


def test_an_unknown_json_key_is_refused_by_name():
    """A typo cannot make part of an order vanish."""
    with pytest.raises(InvalidOrderError, match="'too'"):
        parse_order({"operations": [{"op": "move", "piece": "fire", "too": 15}]})


def test_a_json_square_must_be_a_number():
    """true is not a square."""
    with pytest.raises(InvalidOrderError, match="'to' must be a square number"):
        parse_order({"operations": [{"op": "move", "piece": "fire", "to": True}]})


def test_the_canonical_text_reads_back_as_the_same_order():
    """format_order and parse_order are a pair."""
    order = parse_order("F 14>15;P RECOVER 21;team 3")
    assert format_order(order) == "fire 14>15; plant recover 21; team blue"
    assert parse_order(format_order(order)) == order


def test_the_canonical_text_of_an_empty_order_is_hold():
    """DRTS-22."""
    assert format_order(Order()) == "hold"
