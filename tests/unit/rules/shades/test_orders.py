"""Orders: the protocol's reply shape (SH-11) and the text syntax; what parses is legal, and
the commands are judged at resolution (SH-4)."""

import pytest

from domain.errors import IllegalOrderError, InvalidOrderError, UnknownSeatError
from domain.rules.rng import Rng
from domain.rules.shades import RULESET
from domain.rules.shades.orders import (
    MAX_COMMANDS,
    Command,
    Direction,
    Order,
    dump_order,
    format_order,
    parse_order,
    random_order,
)
from tests.unit.rules.shades.support import position

REPLY = {"data": [{"id": 7, "target": {"x": 3, "y": 4}}, {"id": 9, "target": {"x": 0, "y": 0}}]}


def test_the_protocols_reply_parses():
    """SH-11: {"data": [{"id", "target": {"x", "y"}}, ...]}, as the contest's bots send it."""
    assert parse_order(REPLY) == Order((Command(7, (3, 4)), Command(9, (0, 0))))
    assert dump_order(parse_order(REPLY)) == REPLY


@pytest.mark.parametrize(
    ("text", "commands"),
    [
        ("7 3,4", (Command(7, (3, 4)),)),
        ("#7 to (3, 4)", (Command(7, (3, 4)),)),
        ("7 > 3 4", (Command(7, (3, 4)),)),
        (
            "9 n; 4 Stay\n2 west",
            (Command(9, Direction.NORTH), Command(4, Direction.STAY), Command(2, Direction.WEST)),
        ),
        ("4 hold", (Command(4, Direction.STAY),)),
        ("hold", ()),
        ("", ()),
        ('{"data": [{"id": 9, "move": "e"}]}', (Command(9, Direction.EAST),)),
    ],
)
def test_the_text_syntax(text, commands):
    assert parse_order(text) == Order(commands)


def test_text_and_json_forms_round_trip():
    order = parse_order("9 n; 7 3,4; 4 stay; 7 -1,0")
    assert format_order(order) == "9 N; 7 3,4; 4 stay; 7 -1,0"
    assert parse_order(format_order(order)) == order
    assert parse_order(dump_order(order)) == order
    assert format_order(Order()) == "hold" and dump_order(Order()) == {"data": []}


def test_duplicate_and_invalid_commands_are_kept_for_the_resolution_to_judge():
    """SH-4: a second command for a shade and a far target both parse: they are steps of the
    resolution, not refusals."""
    order = parse_order("1 5,5; 1 n")
    assert len(order.commands) == 2
    RULESET.check_order(position(shades=[(1, 1, 1)]), 1, order)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ({"moves": []}, "protocol's reply"),
        ({"data": {"id": 1}}, "'data' must be a list"),
        ({"data": [{"id": 1}]}, "a command is"),
        ({"data": [{"id": "1", "target": {"x": 1, "y": 1}}]}, "'id' must be an integer"),
        ({"data": [{"id": 1, "target": {"x": 1}}]}, "'target' must be"),
        ({"data": [{"id": 1, "target": {"x": True, "y": 1}}]}, "'x' must be an integer"),
        ({"data": [{"id": 1, "move": "up"}]}, "'move' must be N, E, S, W or stay"),
        ({"data": [{"id": 1, "move": "n", "target": {"x": 1, "y": 1}}]}, "a command is"),
        ("7", "a command is a shade id and a move"),
        ("seven n", "a command is a shade id"),
        ("7 up", "neither a direction nor a square"),
        ("7 3,4,5", "neither a direction nor a square"),
        ("7 99999999999,1", "out of range"),
        ('{"data": [', "not valid JSON"),
    ],
)
def test_a_malformed_order_is_refused_saying_why(source, message):
    """SH-4 over the API: a body that does not parse is refused (422) and may be resent."""
    with pytest.raises(InvalidOrderError, match=message):
        parse_order(source)


def test_an_order_holds_at_most_max_commands():
    with pytest.raises(InvalidOrderError, match="at most"):
        parse_order({"data": [{"id": 1, "move": "n"}] * (MAX_COMMANDS + 1)})


def test_check_order_refuses_an_unknown_seat_and_a_finished_match():
    state = position(shades=[(1, 1, 1)], turns=1, turn=1)
    with pytest.raises(IllegalOrderError, match="finished"):
        RULESET.check_order(state, 1, Order())
    with pytest.raises(UnknownSeatError, match=r"shades has no seat 3 \(seats 1\.\.2\)"):
        RULESET.check_order(state, 3, Order())


def test_a_random_order_moves_only_the_seats_shades_and_only_validly():
    """Random orders (playouts, bots): each of the seat's shades stays or takes a valid step."""
    state = position(shades=[(1, 2, 0), (1, 0, 0), (2, 4, 2)])
    board = state.settings.board
    for turn in range(30):
        order = random_order(state, 1, Rng("random", turn))
        for command in order.commands:
            shade = next(s for s in state.shades if s.id == command.shade)
            assert shade.owner == 1 and board.is_open(command.to)
            assert abs(command.to[0] - shade.x) + abs(command.to[1] - shade.y) == 1
