"""The state JSON: exact round trip, documented shape, clear refusals (InvalidStateError)."""

import copy

import pytest

from domain.errors import InvalidStateError
from domain.rules.drts_team23.state import dump_state, load_state
from tests.unit.rules.drts_team23.support import DEFAULT_TEAMS, position


def sample():
    return position(
        {"1F": 14, "1W": 20, "4P": 22},
        out={"4W": 9},
        teams=DEFAULT_TEAMS,
        scores={1: 3, 4: -2},
        team_scores=(3, 0, 1),
        movement=8,
    )


def test_a_state_round_trips_exactly():
    """load_state(dump_state(s)) == s."""
    assert load_state(dump_state(sample())) == sample()


def test_the_dump_has_the_documented_shape():
    """docs/games/drts_team23.md, "State JSON"."""
    dumped = dump_state(sample())
    assert sorted(dumped) == ["board_items", "config", "movement", "seats", "team_scores"]
    assert dumped["seats"]["1"] == {
        "team": "green",
        "score": 3,
        "forfeited": False,
        "items": {"stars": 4, "deathstars": 2, "blackholes": 1},
        "pieces": {"water": 20, "fire": 14},
        "out": {"plant": 1},
    }
    assert dumped["seats"]["4"]["out"] == {"water": 9, "fire": 1}
    assert dumped["team_scores"] == {"green": 3, "yellow": 0, "blue": 1}


def broken(change):
    dumped = copy.deepcopy(dump_state(sample()))
    change(dumped)
    return dumped


def test_a_missing_key_is_refused_by_name():
    """Every key is required."""
    with pytest.raises(InvalidStateError, match="missing keys \\['movement'\\]"):
        load_state(broken(lambda d: d.pop("movement")))


def test_a_piece_listed_twice_is_refused():
    """Each kind is either on the board or out."""
    with pytest.raises(InvalidStateError, match="seat 1 must list water, fire and plant once"):
        load_state(broken(lambda d: d["seats"]["1"]["out"].update({"fire": 3})))


def test_a_square_off_the_board_is_refused():
    """DRTS-1: squares are 1..42."""
    with pytest.raises(InvalidStateError, match=r"seat 1 fire must be an integer in 1\.\.42"):
        load_state(broken(lambda d: d["seats"]["1"]["pieces"].update({"fire": 43})))


def test_a_boolean_score_is_refused():
    """true is not a number of points."""
    with pytest.raises(InvalidStateError, match="seat 2 score"):
        load_state(broken(lambda d: d["seats"]["2"].update({"score": True})))


def test_a_team_over_capacity_is_refused():
    """DRTS-19: 3 seats a team at most."""
    with pytest.raises(InvalidStateError, match="team green has 4 members"):
        load_state(broken(lambda d: d["seats"]["4"].update({"team": "green"})))


def test_board_items_are_refused_in_this_version():
    """DRTS-11, DRTS-13: DeathStars and Blackholes come with the items."""
    item = {"kind": "deathstar", "seat": 1, "square": 14, "corner": 1}
    with pytest.raises(InvalidStateError, match="not supported by drts_team23 v1"):
        load_state(broken(lambda d: d["board_items"].append(item)))


def test_a_bad_config_in_the_state_is_refused():
    """The state's config obeys the config's typed fields (one validator, one message shape)."""
    with pytest.raises(
        InvalidStateError,
        match="state config: config option 'movements' must be an integer from 1 to 1000, got 0",
    ):
        load_state(broken(lambda d: d["config"].update({"movements": 0})))


def test_a_movement_past_the_last_possible_one_is_refused():
    """DRTS-20: the match never goes beyond max_movements."""
    with pytest.raises(InvalidStateError, match=r"'movement' must be an integer in 1\.\.41"):
        load_state(broken(lambda d: d.update({"movement": 42})))


def test_a_seat_missing_from_the_state_is_refused():
    """DRTS-3: 8 seats."""
    with pytest.raises(InvalidStateError, match="'seats': missing keys \\['8'\\]"):
        load_state(broken(lambda d: d["seats"].pop("8")))
