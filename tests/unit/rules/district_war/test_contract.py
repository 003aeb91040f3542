"""District War's optional contract parts: presets, the list of legal orders, the Public
Display, and the shared errors (docs/rulesets.md). Docstrings name the ruling applied."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.errors import InvalidConfigError, UnknownSeatError
from domain.rules.district_war import RULESET
from domain.rules.district_war.orders import ChooseFirst, Place
from domain.rules.district_war.state import State
from domain.rules.rng import Rng


def position(*placements: str, first: int | None = 1, **config: object) -> State:
    start = RULESET.initial_state(RULESET.validate_config(config), 2, Rng("contract", 0))
    return replace(start, first=first, placements=placements)


def test_the_postal_preset_gives_a_day_per_placement_and_half_a_day_per_strike():
    """DW-6: "All three figures are configurable per match"; the preset sets two of them."""
    config = RULESET.configure({}, "postal")
    assert (config["placement_seconds"], config["extension_seconds"]) == (86400, 43200)
    assert config["max_strikes"] == 3 and config["board"] == RULESET.validate_config({})["board"]


def test_options_given_with_a_preset_override_its_values():
    """A preset fills options; the ones the creator names win."""
    assert RULESET.configure({"extension_seconds": 600}, "postal")["extension_seconds"] == 600


def test_a_clock_figure_beyond_a_year_and_a_day_is_refused_naming_the_range():
    """DW-6 figures are configurable, within sane bounds: 10**12 seconds is a typo."""
    with pytest.raises(
        InvalidConfigError,
        match=r"'placement_seconds' must be an integer from 1 to 31622400, got 1000000000000",
    ):
        RULESET.validate_config({"placement_seconds": 10**12})


def test_a_bad_board_is_refused_naming_the_option():
    """DW-1: the board is validated; the message names the option it is in."""
    with pytest.raises(InvalidConfigError, match="config option 'board': board has 1 rows"):
        RULESET.validate_config({"board": ["AAAAAAA"]})


def test_the_dmo_lists_its_two_choices_and_the_other_seat_nothing():
    """DW-2: movement 1 is the DMO's choice of who places first."""
    state = position(first=None)
    assert RULESET.legal_orders(state, 2) == (ChooseFirst(1), ChooseFirst(2))
    assert RULESET.legal_orders(state, 1) == ()


def test_the_first_troop_lists_every_cell_outside_districts_of_size_3_or_less():
    """DW-3: the first troop of the game avoids districts of size 3 or less (C, F)."""
    listed = RULESET.legal_orders(position(), 1)
    assert {order.cell for order in listed if isinstance(order, Place)} == {
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "a2", "b2", "e2", "f2", "g2",
        "a3", "b3", "e3", "f3", "g3", "a4", "b4", "c4", "e4", "f4", "g4",
        "a5", "b5", "c5", "d5", "e5", "f5", "g5", "a6", "b6", "c6", "d6", "e6", "f6", "g6",
        "a7", "b7", "c7", "d7", "e7", "f7", "g7",
    }  # fmt: skip


def test_a_later_troop_lists_the_row_and_column_of_the_last_troop_outside_its_district():
    """DW-3: a later troop goes in the row or column of the opponent's last troop."""
    listed = RULESET.legal_orders(position("c5", "a5", "a1"), 2)
    assert [order.cell for order in listed if isinstance(order, Place)] == [
        "d1", "e1", "f1", "g1", "a3", "a4", "a6", "a7",
    ]  # fmt: skip
    assert RULESET.legal_orders(position("c5", "a5", "a1"), 1) == ()


def test_a_finished_match_lists_no_order():
    """DW-4: the game ends when every troop is placed."""
    state = position("c5", "a5", "a1", "a3", troops=2)
    assert RULESET.legal_orders(state, 1) == RULESET.legal_orders(state, 2) == ()


def test_a_seat_other_than_1_and_2_is_an_unknown_seat_everywhere():
    """Rule text: a Death Match between two seats."""
    state = position("c5")
    for call in (
        lambda: RULESET.forfeit(state, 3),
        lambda: RULESET.check_order(state, 3, Place("a5")),
        lambda: RULESET.legal_orders(state, 0),
    ):
        with pytest.raises(UnknownSeatError, match="district_war has no seat"):
            call()


def test_the_public_display_shows_the_board_districts_points_and_next_cells():
    """DW-1..DW-4: the whole position, as a postal player needs it."""
    assert RULESET.display(position("c5", "a5", "a1")) == DISPLAY_AFTER_THREE_TROOPS


def test_the_public_display_of_a_finished_match_gives_the_result_and_no_next_cells():
    """DW-4: the seat with more points wins."""
    text = RULESET.display(position("c5", "a5", "a1", "a3", troops=2))
    assert "Seat 1 wins on points, 12 to 5 (DW-4)." in text
    assert "Allowed cells" not in text and "E2*" in text and "A1*" not in text


DISPLAY_AFTER_THREE_TROOPS = """\
Seat 2 is the DMO; seat 1 places first (DW-2).

     a   b   c   d   e   f   g
 1   A1* A.  A.  B.  B.  B.  B.
 2   A.  A.  C.  C.  D.  B.  B.
 3   E.  E.  F.  F.  D.  D.  D.
 4   E.  E.  G.  F.  H.  H.  I.
 5   E2  G.  G1  G.  H.  H.  I.
 6   J.  G.  G.  G.  K.  I.  I.
 7   J.  J.  J.  K.  K.  K.  I.
A1 = a troop of seat 1 in district A, A. = an empty cell of district A,
* = the last troop placed; row 1 is the top row.

district  size  seat 1  seat 2  held by (DW-4)
A            5       1       0  seat 1
B            6       0       0  nobody
C            2       0       0  nobody
D            4       0       0  nobody
E            5       0       1  seat 2
F            3       0       0  nobody
G            7       1       0  seat 1
H            4       0       0  nobody
I            5       0       0  nobody
J            4       0       0  nobody
K            4       0       0  nobody

Troops placed: seat 1 2 of 11, seat 2 1 of 11.
Points: seat 1 12, seat 2 5.
Seat 2 to place troop 4.
Allowed cells (DW-3, row or column of the opponent's last troop, outside
its district): d1, e1, f1, g1, a3, a4, a6, a7.
"""
