"""Version 2 of DRTS Team 23 in units: the item syntax (DRTS-4), the per-piece merge, the
state JSON with Stars and board items, DeathStar areas (DRTS-11) and v1 left as it was."""

import pytest

from domain.errors import IllegalOrderError, InvalidOrderError, InvalidStateError
from domain.rules.drts_team23 import RULESET_V1, RULESET_V2
from domain.rules.drts_team23.board import deathstar_area
from domain.rules.drts_team23.merge import merge_orders, screen_order
from domain.rules.drts_team23.moves import Action, Operation
from domain.rules.drts_team23.orders import Order
from domain.rules.drts_team23.state import BoardItem, Item, Kind, Team
from domain.rules.rng import Rng

parse, fmt = RULESET_V2.parse_order, RULESET_V2.format_order


def start():
    return RULESET_V2.initial_state(RULESET_V2.validate_config({}), 8, Rng("v2", 0))


@pytest.mark.parametrize(
    "text",
    [
        "fire 14>15 star",
        "water hold star",
        "plant 20>21 deathstar 37",
        "fire 15 blackhole",
        "clear; fire 14>15; team blue",
        "hold; water 1>7",
    ],
)
def test_drts_4_item_invocations_round_trip_through_text_and_json(text):
    order = parse(text)
    assert parse(fmt(order)) == order == parse(RULESET_V2.dump_order(order))


def test_drts_11_a_deathstar_names_a_corner():
    operation = parse("water 20>21 deathstar 6").operations[0]
    assert (operation.item, operation.corner) == (Item.DEATHSTAR, 6)
    with pytest.raises(InvalidOrderError, match="names the corner"):
        parse("water 20>21 deathstar")
    with pytest.raises(InvalidOrderError, match="corner 1, 6, 37 or 42"):
        parse("water 20>21 deathstar 7")
    with pytest.raises(InvalidOrderError, match="corner"):
        parse({"operations": [{"op": "move", "piece": "water", "to": 21, "item": "deathstar"}]})


def test_drts_4_a_recovery_or_a_hold_builds_nothing():
    state = start()
    with pytest.raises(IllegalOrderError, match="a hold cannot invoke a deathstar"):
        RULESET_V2.check_order(state, 1, parse("water hold deathstar 1"))


def test_drts_15_v2_parses_generators_and_v1_still_refuses_items():
    assert parse("plant hold generator").operations[0].item is Item.GENERATOR
    for text in ("fire 14>15 star", "plant hold generator"):
        with pytest.raises(InvalidOrderError, match="not supported by this ruleset version"):
            RULESET_V1.parse_order(text)


def test_drts_4_merge_per_piece():
    move = Operation(Action.MOVE, Kind.FIRE, 15, 14)
    other = Operation(Action.MOVE, Kind.FIRE, 8, 14)
    water = Operation(Action.HOLD, Kind.WATER, item=Item.STAR)
    first = Order((move, water), Team.BLUE)
    assert merge_orders(first, Order((other,))) == Order((water, other), Team.BLUE)
    assert merge_orders(first, Order(team=Team.GREEN)) == Order((move, water), Team.GREEN)
    assert merge_orders(first, Order(clear=True)) == Order()
    assert merge_orders(first, Order(hold_all=True)) == Order((), Team.BLUE)


def test_drts_21_the_stock_counts_over_the_standing_order():
    """Seat 8 has one Blackhole: a second one, in a later message, is refused."""
    state = start()
    earlier = [parse("water 40>34 blackhole")]
    screened = screen_order(state, 8, earlier, "fire 41>35 blackhole; team blue")
    assert [part.part for part in screened.refused] == ["fire 41>35 blackhole"]
    assert "1 blackhole(s) left" in screened.refused[0].reason
    assert screened.order == Order((), Team.BLUE)


def test_drts_11_deathstar_areas_towards_each_corner_and_the_ray():
    assert deathstar_area(14, 1) == (7, 8, 13)
    assert deathstar_area(14, 42) == (15, 20, 21)
    assert deathstar_area(1, 1) == ()  # clipped at the edges
    assert deathstar_area(22, 1, ray=True) == (1, 8, 15)
    assert deathstar_area(22, 6, ray=True) == (12, 17)  # 22 is in column 4: clipped


def test_the_v2_state_json_carries_stars_and_board_items():
    state = start()
    data = RULESET_V2.dump_state(state)
    data["seats"]["1"]["stars"] = {"fire": 3}
    data["board_items"] = [
        {"item": "blackhole", "square": 20, "seat": 2},
        {"item": "deathstar", "square": 14, "seat": 3, "corner": 1},
    ]
    loaded = RULESET_V2.load_state(data)
    assert loaded.piece(1, Kind.FIRE).star_until == 3
    assert loaded.board_items == (
        BoardItem(Item.DEATHSTAR, 14, 3, 1),
        BoardItem(Item.BLACKHOLE, 20, 2),
    )
    assert RULESET_V2.load_state(RULESET_V2.dump_state(loaded)) == loaded
    data["board_items"].append({"item": "blackhole", "square": 14, "seat": 1})
    with pytest.raises(InvalidStateError, match="two items on one square"):
        RULESET_V2.load_state(data)
    data["board_items"] = [{"item": "deathstar", "square": 14, "seat": 3, "corner": 2}]
    with pytest.raises(InvalidStateError, match="corner"):
        RULESET_V2.load_state(data)


def test_the_v1_state_json_is_unchanged():
    state = RULESET_V1.initial_state(RULESET_V1.validate_config({}), 8, Rng("v1", 0))
    data = RULESET_V1.dump_state(state)
    assert "stars" not in data["seats"]["1"] and "deathstar_area" not in data["config"]
    with pytest.raises(InvalidStateError, match="not supported by drts_team23 v1"):
        RULESET_V1.load_state({**data, "board_items": [{"item": "blackhole"}]})


@pytest.mark.parametrize("text", ["blackhole", "star", "fire 14>15; Blackhole"])
def test_drts_4_an_item_word_alone_names_no_piece(text):
    """Found by the parser fuzz: an item word with no piece before it is an unreadable
    operation (InvalidOrderError naming the pieces), not an IndexError."""
    with pytest.raises(InvalidOrderError, match="must start with water, fire, plant or team"):
        parse(text)
