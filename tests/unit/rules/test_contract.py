"""Helpers of the ruleset contract that every game shares: seat checks and the default
Public Display."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from domain.errors import InvalidConfigError, UnknownSeatError
from domain.rules.contract import check_seat_count, check_seat_number
from domain.rules.rng import Rng
from tests.support.toy_ruleset import RULESET as TOY


@pytest.mark.parametrize("seat", [0, 5, -1, True, "2"])
def test_a_seat_outside_the_game_is_an_unknown_seat_named_with_the_range(seat):
    with pytest.raises(UnknownSeatError, match=rf"^toy has no seat {seat!r} \(seats 1\.\.4\)$"):
        check_seat_number("toy", seat, 4)


def test_a_seat_of_the_game_passes():
    assert check_seat_number("toy", 4, 4) is None


def test_a_seat_count_outside_the_range_says_what_the_game_takes():
    with pytest.raises(InvalidConfigError, match=r"^toy is played by 2 to 4 seats, not 5$"):
        check_seat_count(TOY.info, 5)
    exact = replace(TOY.info, min_seats=2, max_seats=2)
    with pytest.raises(InvalidConfigError, match=r"^toy is played by exactly 2 seats, not 1$"):
        check_seat_count(exact, 1)


def test_a_game_without_a_display_of_its_own_shows_its_public_view_as_json():
    """The contract's default for `display` (None): the spectator's view, indented."""
    state = TOY.initial_state(TOY.validate_config({}), 2, Rng("display", 0))
    plain = replace(TOY, display=None)
    text = plain.public_display(state)
    assert json.loads(text) == TOY.view(state, None) and text.endswith("\n")
    assert TOY.public_display(state) == "Round 1 of 3.\nSeat 1: 0 points\nSeat 2: 0 points\n"
