"""Dris et-Tessa orders: Morris notation and JSON, refusals with their reasons, legal orders."""

from __future__ import annotations

import pytest

from domain.errors import IllegalOrderError, InvalidOrderError, UnknownSeatError
from domain.rules.dris_et_tessa import RULESET
from domain.rules.dris_et_tessa.engine import START
from domain.rules.dris_et_tessa.notation import Order, parse_position
from domain.rules.dris_et_tessa.orders import check_order, legal_orders, random_order
from domain.rules.dris_et_tessa.state import State
from domain.rules.rng import Rng
from tests.unit.rules.dris_et_tessa import simple
from tests.unit.rules.dris_et_tessa.support import random_position, to_simple

SETTINGS = RULESET.initial_state({}, 2, Rng("s", 0)).settings


def at(position: str, **fields) -> State:
    """Returns a state between turns at the given position notation."""
    return State(SETTINGS, parse_position(position), **fields)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("d7", Order("d7")),
        ("  PLACE   D7 ", Order("d7")),
        ("d7-d6", Order("d6", "d7")),
        ("d7 - d6", Order("d6", "d7")),
        ("a1 xb2", Order("a1", None, "b2")),
        ("A1XB2", Order("a1", None, "b2")),
        ("a1 x b2", Order("a1", None, "b2")),
        ("d7-d6 xg4", Order("d6", "d7", "g4")),
        ('{"place": "a1", "remove": "b2"}', Order("a1", None, "b2")),
        ('{"from": "D7", "to": "d6"}', Order("d6", "d7")),
    ],
)
def test_orders_are_read_in_morris_notation_and_json(text, order):
    assert RULESET.parse_order(text) == order


@pytest.mark.parametrize(
    ("order", "text", "data"),
    [
        (Order("d7"), "d7", {"place": "d7"}),
        (Order("d6", "d7"), "d7-d6", {"from": "d7", "to": "d6"}),
        (Order("a1", None, "b2"), "a1 xb2", {"place": "a1", "remove": "b2"}),
        (Order("d6", "d7", "g4"), "d7-d6 xg4", {"from": "d7", "to": "d6", "remove": "g4"}),
    ],
)
def test_the_canonical_text_and_the_json_form_read_back_to_the_order(order, text, data):
    assert RULESET.format_order(order) == text
    assert RULESET.dump_order(order) == data
    assert RULESET.parse_order(text) == RULESET.parse_order(data) == order


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("", "empty order"),
        ("xg4", "cannot read order 'xg4'"),
        ("d7-", "cannot read order"),
        ("a1 xb2 xd6", "cannot read order"),
        ("d8", "no point 'd8' on the board"),
        ("b3", "b3 is not a point of the board (DT-1): row 3 has c3, d3, e3"),
        ("a1-b1", "b1 is not a point of the board"),
        ({"place": 1}, "a JSON order is"),
        ({"place": "a1", "to": "b2"}, "a JSON order is"),
        ('{"place": "a1"', "order is not valid JSON"),
        ("[1]", "cannot read order"),
    ],
)
def test_a_malformed_order_is_refused_saying_what_is_wrong(bad, message):
    with pytest.raises(InvalidOrderError, match=message.replace("(", r"\(").replace(")", r"\)")):
        RULESET.parse_order(bad)


def test_an_order_out_of_turn_is_refused():
    state = at(".../.../.../....../.../.../... 1 9 9")
    with pytest.raises(IllegalOrderError, match="not your turn: seat 1 is to move"):
        check_order(state, 2, Order("a1"))
    with pytest.raises(UnknownSeatError, match=r"dris_et_tessa has no seat 3 \(seats 1\.\.2\)"):
        check_order(state, 3, Order("a1"))


def test_no_order_is_taken_once_the_match_is_over():
    blocked = at("1../.../.../21..../.../.1./221 2 0 0")  # seat 2 shut in (DT-5)
    with pytest.raises(IllegalOrderError, match="the match is finished"):
        check_order(blocked, 2, Order("b4", "a4"))
    assert legal_orders(blocked, 1) == legal_orders(blocked, 2) == ()


def test_a_removal_a_mill_cannot_have_is_refused_when_the_enemy_has_no_piece_on_the_board():
    """Only in a set-up position: seat 1 forms a mill while seat 2 has all its pieces in hand;
    there is nothing to remove, so the order names no removal and the turn ends."""
    state = at(".../.../.../1...../.../.../1.. 1 7 9")
    with pytest.raises(
        IllegalOrderError, match="forms a mill but seat 2 has no piece on the board"
    ):
        check_order(state, 1, Order("a7", None, "b2"))
    check_order(state, 1, Order("a7"))
    assert Order("a7") in legal_orders(state, 1)


def test_legal_orders_from_the_start_are_the_24_placements_in_alphabetical_order():
    state = RULESET.initial_state({}, 2, Rng("s", 0))
    orders = legal_orders(state, 1)
    assert [RULESET.format_order(o) for o in orders][:4] == ["a1", "a4", "a7", "b2"]
    assert len(orders) == 24 and legal_orders(state, 2) == ()


def test_legal_orders_are_every_turn_the_simple_generator_finds():
    """A turn is one ply, or two when the first forms a mill (placement or step + removal)."""
    for n in range(20):
        position = random_position(f"orders-{n}", 150)
        if position.removal:
            continue
        state = State(SETTINGS, position)
        turns = set()
        for ply in simple.legal_plies(to_simple(position)):
            after = simple.apply(to_simple(position), ply)
            removals = simple.legal_plies(after) if after.removal else [None]
            turns |= {(ply, removal) for removal in removals}
        listed = legal_orders(state, position.mover)
        assert len(listed) == len(turns), position
        for order in listed:
            check_order(state, position.mover, order)


def test_a_random_order_is_always_listed():
    rng = Rng("random", 0)
    for n in range(20):
        position = random_position(f"random-{n}", 150)
        if position.removal or not legal_orders(State(SETTINGS, position), position.mover):
            continue
        state = State(SETTINGS, position)
        listed = legal_orders(state, position.mover)
        for _ in range(5):
            assert random_order(state, position.mover, rng) in listed


def test_the_start_position_is_seat_1_to_place():
    assert at(".../.../.../....../.../.../... 1 9 9").position == START
