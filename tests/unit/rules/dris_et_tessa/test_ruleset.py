"""Dris et-Tessa as a ruleset: start, clock, forfeit, outcome, state JSON, Public Display and
the position notation."""

from __future__ import annotations

import pytest

from domain.errors import InvalidConfigError, InvalidStateError, MovementClosedError
from domain.rules.contract import Result, Silence
from domain.rules.dris_et_tessa import RULESET
from domain.rules.dris_et_tessa.engine import START
from domain.rules.dris_et_tessa.notation import (
    START_TEXT,
    format_position,
    parse_order,
    parse_position,
)
from domain.rules.dris_et_tessa.state import State
from domain.rules.rng import Rng

RNG = Rng("ruleset", 0)


def new(config=None) -> State:
    return RULESET.initial_state(RULESET.validate_config(config or {}), 2, RNG)


def play(state: State, *orders: str) -> State:
    for text in orders:
        seat = RULESET.to_move(state).seats[0]
        state, _ = RULESET.resolve(state, [(seat, parse_order(text))], RNG)
    return state


def test_dt2_the_game_starts_with_an_empty_board_and_nine_pieces_in_each_hand():
    state = new()
    assert state.position == START and state.turn == 0
    assert RULESET.dump_state(state)["position"] == START_TEXT
    with pytest.raises(InvalidConfigError, match="dris_et_tessa is played by exactly 2 seats"):
        RULESET.initial_state(RULESET.validate_config({}), 3, RNG)


def test_each_turn_is_a_movement_of_a_day_that_a_silent_seat_loses_by_default():
    policy = RULESET.to_move(new()).policy
    assert RULESET.to_move(new()).seats == (1,)
    assert (policy.deadline_seconds, policy.silence, policy.close_early) == (
        86400,
        Silence.LOSS,
        True,
    )


def test_the_clock_and_the_timeout_are_configurable():
    config = {"turn_seconds": 300, "timeout": "strike", "extension_seconds": 60, "max_strikes": 2}
    policy = RULESET.to_move(new(config)).policy
    assert (policy.deadline_seconds, policy.silence) == (300, Silence.STRIKE)
    assert (policy.extension_seconds, policy.max_strikes) == (60, 2)
    live = RULESET.configure({}, "live")
    assert RULESET.to_move(new(live)).policy.silence is Silence.STRIKE


def test_a_forfeit_gives_the_match_to_the_other_seat_and_ends_it():
    state, steps = RULESET.forfeit(play(new(), "a1"), 2)
    outcome = RULESET.outcome(state)
    assert (outcome.result, outcome.winners, outcome.ranking) == (Result.WIN, (1,), (1, 2))
    assert steps[0].data == {"seat": 2} and RULESET.to_move(state).seats == ()
    with pytest.raises(MovementClosedError, match="the match is finished"):
        RULESET.forfeit(state, 1)


def test_scores_are_the_pieces_each_seat_owns_on_the_board_and_in_hand():
    state = play(new(), "a1", "b2", "a4", "d6", "a7 xb2")
    outcome = RULESET.outcome(state)
    assert outcome.result is Result.ONGOING and dict(outcome.scores) == {1: 9, 2: 8}
    assert outcome.ranking == (1, 2) and outcome.reason == "seat 2 to place a piece (turn 6)"


def test_the_state_json_round_trips_and_names_every_key():
    state = play(new({"draw_turns": 50}), "a1", "b2", "a4", "d6", "a7 xb2", "g7")
    data = RULESET.dump_state(state)
    assert data == {
        "config": {
            "turn_seconds": 86400,
            "timeout": "loss",
            "extension_seconds": 43200,
            "max_strikes": 3,
            "draw_turns": 50,
        },
        "points": {"a1": 1, "a4": 1, "a7": 1, "d6": 2, "g7": 2},
        "hands": {"1": 6, "2": 6},
        "to_move": 1,
        "turn": 6,
        "quiet_turns": 1,
        "forfeited": None,
        "last": "g7",
        "position": "1.2/.2./.../1...../.../.../1.. 1 6 6",
    }
    assert RULESET.load_state(data) == state
    assert RULESET.load_state({k: v for k, v in data.items() if k != "position"}) == state
    assert RULESET.view(state, None) == RULESET.view(state, 1) == data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"points": {"b3": 1}}, "'b3' is not a point of the board"),
        ({"points": {"a1": 3}}, "a1 holds 3; a seat is 1 or 2"),
        ({"points": []}, "state points must be an object"),
        ({"hands": {"1": 9}}, "state hands must be"),
        ({"hands": {"1": 10, "2": 9}}, "state hands must be at most 9"),
        ({"points": {"a1": 1}, "hands": {"1": 9, "2": 9}}, "seat 1 owns 10 pieces"),
        ({"to_move": 0}, "state to_move must be 1 or 2"),
        ({"forfeited": 3}, "state forfeited must be 1, 2 or null"),
        ({"turn": -1}, "state turn must be a whole number"),
        ({"quiet_turns": 101}, "state quiet_turns must be at most 100"),
        ({"last": "b3"}, "state last: b3 is not a point"),
        ({"position": START_TEXT.replace(" 1 9", " 2 9")}, "disagrees with its points"),
        ({"config": {"draw_turns": 0}}, "state config: config option 'draw_turns'"),
    ],
)
def test_a_malformed_state_does_not_load(change, message):
    data = {**RULESET.dump_state(new()), **change}
    with pytest.raises(InvalidStateError, match=message):
        RULESET.load_state(data)


def test_the_position_notation_round_trips_and_refuses_what_is_not_a_position():
    for text in (
        START_TEXT,
        "222/.../.../..2.../.1./1.1/222 1 0 0 x",
        "1../.2./.../1...2./.../2../.11 2 5 5",
    ):
        assert format_position(parse_position(text)) == text
    assert parse_position("start") == START
    for bad, message in [
        ("... 1 9 9", "must be 7 rows of 3, 3, 3, 6, 3, 3, 3 points"),
        (".../.../.../....../.../.../..3 1 9 9", "'3' on g1"),
        (START_TEXT.replace(" 1 9", " 3 9"), "seat to move must be 1 to 2"),
        (START_TEXT + " y", "is not '<board> <seat to move>"),
        ("111/.../.../....../.../.../... 1 7 9", "seat 1 owns 10 pieces"),
        (START_TEXT + " x", "seat 1 owes a removal but seat 2 has no piece on the board"),
    ]:
        with pytest.raises(InvalidStateError, match=message):
            parse_position(bad)


def test_the_public_display_draws_the_board_and_says_what_comes_next():
    state = play(new(), "a1", "b2", "a4", "d6", "a7 xb2")
    text = RULESET.display(state)
    lines = text.splitlines()
    assert lines[0] == "7  1-----------.-----------."
    assert lines[6] == "4  1---.---.       .---.---."
    assert lines[12] == "1  1-----------.-----------."
    assert lines[13] == "   a   b   c   d   e   f   g"
    assert "Seat 1: 3 on the board, 6 in hand (9 pieces); mills: a1-a4-a7." in lines
    assert "Last turn: seat 1 a7 xb2." in lines
    assert "Seat 2 to place a piece (turn 6)." in lines
    assert "A mill would remove one of (DT-4, all in mills, so any): a1, a4, a7." in lines
    assert lines[-1] == "Position: 1../.2./.../1...../.../.../1.. 2 6 7"
    assert all(len(line) <= 72 for line in lines)


def test_the_public_display_gives_the_result_once_the_match_is_over():
    state = State(new().settings, parse_position("1../.../.../2.1.../.../.1./221 1 0 0"), 60)
    state = play(state, "c4-b4")
    lines = RULESET.display(state).splitlines()
    assert "Seat 2 cannot move: seat 1 wins (DT-5)." in lines
    assert not any(line.startswith(("Steps", "Placements")) for line in lines)
