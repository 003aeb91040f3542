"""The match config: the clock (DRTS-2, DRTS-20) and the start (DRTS-3)."""

import pytest

from domain.errors import InvalidConfigError
from domain.rules.drts_team23 import RULESET
from domain.rules.rng import Rng


def test_the_defaults_are_20_movements_of_20_seconds_on_board_up_to_40():
    """DRTS-2, DRTS-3, DRTS-20: the rulings are the defaults."""
    assert RULESET.validate_config({}) == {
        "movements": 20,
        "max_movements": 40,
        "movement_seconds": 20,
        "start": "on_board",
        "close_early": False,
    }


def test_the_clock_is_configurable():
    """DRTS-2: both the number and the length of movements are match options."""
    config = RULESET.validate_config({"movements": 10, "movement_seconds": 60, "max_movements": 12})
    assert config["movements"] == 10
    assert config["movement_seconds"] == 60
    assert config["max_movements"] == 12


def test_the_last_movement_cannot_come_before_the_regular_ones_end():
    """DRTS-20: max_movements is at least movements."""
    with pytest.raises(InvalidConfigError, match="max_movements"):
        RULESET.validate_config({"movements": 20, "max_movements": 19})


def test_a_match_has_at_least_one_movement():
    """DRTS-2: zero movements is no match."""
    with pytest.raises(
        InvalidConfigError,
        match="config option 'movements' must be an integer from 1 to 1000, got 0",
    ):
        RULESET.validate_config({"movements": 0})


def test_a_boolean_is_not_a_number_of_seconds():
    """The config is strict JSON: true is not 1."""
    with pytest.raises(InvalidConfigError, match="movement_seconds"):
        RULESET.validate_config({"movement_seconds": True})


def test_the_start_is_on_board_or_off_board():
    """DRTS-3 and its option."""
    with pytest.raises(InvalidConfigError, match="'on_board', 'off_board'"):
        RULESET.validate_config({"start": "middle"})


def test_there_are_no_item_options_in_this_version():
    """DRTS-21: items come with a later version, so their options are unknown here."""
    with pytest.raises(InvalidConfigError, match=r"unknown config option\(s\) 'stars'"):
        RULESET.validate_config({"stars": 4})


def test_the_game_is_played_by_exactly_eight_seats():
    """DRTS-3: 8 players."""
    with pytest.raises(InvalidConfigError, match="exactly 8 seats, not 7"):
        RULESET.initial_state(RULESET.validate_config({}), 7, Rng("config", 0))
