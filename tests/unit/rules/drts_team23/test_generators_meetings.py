"""Generators (DRTS-15) and meetings (DRTS-17) of DRTS Team 23 v2 in units: the order
syntax, what a Generator may not do, the state JSON with both (old v2 states included),
recovery squares (DRTS-18) and the meeting rules the scenarios do not show."""

import json

import pytest

from domain.errors import IllegalOrderError, InvalidOrderError, InvalidStateError
from domain.rules.drts_team23 import RULESET_V2
from domain.rules.drts_team23.board import recovery_squares
from domain.rules.drts_team23.meetings import count_meetings, meetings_held
from domain.rules.drts_team23.merge import screen_order
from domain.rules.drts_team23.moves import Action, Operation
from domain.rules.drts_team23.state import (
    Item,
    Kind,
    Meeting,
    MeetingKind,
    Team,
    recovery_blocked,
)
from domain.rules.rng import Rng

parse, fmt = RULESET_V2.parse_order, RULESET_V2.format_order


def start():
    return RULESET_V2.initial_state(RULESET_V2.validate_config({}), 8, Rng("gen", 0))


def green_yellow_blue(data):
    """Puts seats 1-3 in green, 4-6 in yellow, 7-8 in blue in a dumped state."""
    for seat in range(1, 9):
        data["seats"][str(seat)]["team"] = ("green", "yellow", "blue")[(seat - 1) // 3]
    return data


def with_generator(seat=1, kind="fire", counter=2):
    data = green_yellow_blue(RULESET_V2.dump_state(start()))
    data["seats"][str(seat)]["generators"] = {kind: counter}
    return data


@pytest.mark.parametrize(
    ("text", "operation"),
    [
        ("fire 4>10 generator", Operation(Action.MOVE, Kind.FIRE, 10, 4, Item.GENERATOR)),
        ("water hold generator", Operation(Action.HOLD, Kind.WATER, item=Item.GENERATOR)),
    ],
)
def test_drts_15_a_move_or_a_hold_invokes_a_generator_in_text_and_json(text, operation):
    order = parse(text)
    assert order.operations == (operation,)
    assert parse(fmt(order)) == order == parse(RULESET_V2.dump_order(order))
    assert RULESET_V2.dump_order(order)["operations"][0]["item"] == "generator"


def test_drts_15_a_recovery_cannot_invoke_a_generator_and_no_stock_is_needed():
    data = RULESET_V2.dump_state(start())
    data["seats"]["1"]["items"] = {"stars": 0, "deathstars": 0, "blackholes": 0}
    data["seats"]["1"]["pieces"].pop("plant")
    data["seats"]["1"]["out"] = {"plant": 1}
    state = RULESET_V2.load_state(data)
    RULESET_V2.check_order(state, 1, parse("water hold generator; fire 2>8 generator"))
    with pytest.raises(IllegalOrderError, match="a recovery cannot invoke a generator"):
        RULESET_V2.check_order(state, 1, parse("plant recover 21 generator"))


def test_drts_15_a_generator_cannot_act_and_has_no_operation_to_choose():
    state = RULESET_V2.load_state(with_generator())
    for text in ("fire 2>8", "fire hold", "fire hold star"):
        with pytest.raises(IllegalOrderError, match="is a Generator on 2: it cannot act"):
            RULESET_V2.check_order(state, 1, parse(text))
    screened = screen_order(state, 1, [], "fire 2>8; water 1>7")
    assert [part.part for part in screened.refused] == ["fire 2>8"]
    orders = [RULESET_V2.random_order(state, 1, Rng("r", n)) for n in range(30)]
    pieces = {op.piece for order in orders for op in order.operations}
    assert pieces == {Kind.WATER, Kind.PLANT}  # never the Generator


def test_drts_6_15_a_diagonal_step_onto_an_enemy_generator_is_an_attack():
    """Every piece captures a Generator (DRTS-7): yellow's Water on 22 may step diagonally
    onto green's Plant on 15 once it is a Generator, not while it is a Plant."""
    data = green_yellow_blue(RULESET_V2.dump_state(start()))
    data["seats"]["1"]["pieces"]["plant"] = 15
    data["seats"]["4"]["pieces"]["water"] = 22
    plain = RULESET_V2.load_state(data)
    with pytest.raises(IllegalOrderError, match="diagonal step"):
        RULESET_V2.check_order(plain, 4, parse("water 22>15"))
    data["seats"]["1"]["generators"] = {"plant": 1}
    RULESET_V2.check_order(RULESET_V2.load_state(data), 4, parse("water 22>15"))


def test_drts_18_own_and_ally_generators_block_recovery_squares_enemy_ones_do_not():
    data = with_generator()
    seat1 = data["seats"]["1"]
    seat1["pieces"]["fire"] = 19
    state = RULESET_V2.load_state(data)
    assert recovery_blocked(state, 2) == {19}
    assert recovery_blocked(state, 4) == frozenset()
    assert 19 not in recovery_squares(recovery_blocked(state, 2))


def test_the_state_json_carries_generators_and_meetings_and_round_trips():
    data = with_generator(seat=3, kind="plant", counter=4)
    for seat, kind in ((1, "water"), (2, "fire"), (3, "water")):
        data["seats"][str(seat)]["pieces"][kind] = 20
    data["meetings"] = [
        {"meeting": "players", "square": 20, "team": "green", "counter": 2},
        {"meeting": "kinds", "square": 20, "counter": 1},
    ]
    data["seats"]["3"]["pieces"]["plant"] = 20
    data["seats"]["3"]["generators"] = {}
    data["seats"]["1"]["pieces"]["plant"] = 20
    state = RULESET_V2.load_state(data)
    assert state.meetings == (
        Meeting(MeetingKind.KINDS, 20, 1),
        Meeting(MeetingKind.PLAYERS, 20, 2, Team.GREEN),
    )
    assert RULESET_V2.load_state(RULESET_V2.dump_state(state)) == state
    gen = RULESET_V2.load_state(with_generator(seat=3, kind="plant", counter=4))
    assert gen.piece(3, Kind.PLANT).generator == 4
    assert RULESET_V2.dump_state(gen)["seats"]["3"]["generators"] == {"plant": 4}
    assert RULESET_V2.load_state(RULESET_V2.dump_state(gen)) == gen


def test_a_v2_state_stored_before_generators_loads_and_dumps_to_the_same_bytes():
    """New keys are optional: a state without Generators or meetings has no such keys."""
    data = RULESET_V2.dump_state(start())
    assert "meetings" not in data and "generators" not in data["seats"]["1"]
    again = RULESET_V2.dump_state(RULESET_V2.load_state(json.loads(json.dumps(data))))
    assert json.dumps(again, sort_keys=True) == json.dumps(data, sort_keys=True)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["seats"]["1"].update(generators={"fire": -1}), "generators"),
        (lambda d: d["seats"]["1"].update(generators={"air": 1}), "water, fire or plant"),
        (lambda d: d["seats"]["1"].update(stars={"fire": 5}), "Star status"),
        (lambda d: d.update(meetings={"square": 1}), "'meetings' must be a list"),
        (
            lambda d: d.update(meetings=[{"meeting": "kinds", "square": 30, "counter": 1}]),
            "does not hold",
        ),
        (
            lambda d: d.update(meetings=[{"meeting": "party", "square": 30, "counter": 1}]),
            "players or kinds",
        ),
        (
            lambda d: d.update(meetings=[{"meeting": "players", "square": 30, "counter": 1}]),
            "missing keys",
        ),
    ],
)
def test_a_bad_generator_or_meeting_in_the_state_json_is_named(change, message):
    data = with_generator()
    change(data)
    with pytest.raises(InvalidStateError, match=message):
        RULESET_V2.load_state(data)


def test_a_captured_generator_is_out_and_no_longer_one():
    data = with_generator()
    data["seats"]["1"]["pieces"].pop("fire")
    data["seats"]["1"]["out"] = {"fire": 3}
    with pytest.raises(InvalidStateError, match="is out: it is no Generator"):
        RULESET_V2.load_state(data)


def test_drts_17_generators_do_not_count_in_a_meeting_and_teamless_seats_hold_none():
    data = with_generator(seat=3, kind="plant", counter=1)
    data["seats"]["3"]["pieces"]["plant"] = 20
    data["seats"]["1"]["pieces"]["water"] = 20
    data["seats"]["2"]["pieces"]["fire"] = 20
    assert meetings_held(RULESET_V2.load_state(data)) == {}
    data["seats"]["3"].pop("generators")
    held = meetings_held(RULESET_V2.load_state(data))
    assert sorted(m.kind for m in held.values()) == [MeetingKind.KINDS, MeetingKind.PLAYERS]
    for seat in (1, 2, 3):
        data["seats"][str(seat)]["team"] = None
    teamless = meetings_held(RULESET_V2.load_state(data))
    assert [m.kind for m in teamless.values()] == [MeetingKind.KINDS]


def test_drts_17_step_4_starts_a_meeting_at_1_and_counts_a_running_one():
    data = green_yellow_blue(RULESET_V2.dump_state(start()))
    for seat, kind in ((1, "water"), (1, "fire"), (2, "plant")):
        data["seats"][str(seat)]["pieces"][kind] = 20
    state = RULESET_V2.load_state(data)
    counted, steps = count_meetings(state)
    assert counted.meetings == (Meeting(MeetingKind.KINDS, 20, 1),)
    again, _ = count_meetings(counted)
    assert again.meetings == (Meeting(MeetingKind.KINDS, 20, 2),)
    assert steps[0].rule == "DRTS-17" and steps[0].text.endswith("counts 1")


def test_drts_15_a_generator_word_in_json_must_be_an_item():
    with pytest.raises(InvalidOrderError, match="star, deathstar, blackhole or generator"):
        parse({"operations": [{"op": "hold", "piece": "water", "item": "gen"}]})


def test_the_public_display_shows_generators_and_meetings():
    data = with_generator(seat=1, kind="fire", counter=2)
    for seat, kind in ((2, "water"), (2, "fire"), (3, "plant")):
        data["seats"][str(seat)]["pieces"][kind] = 20
    data["meetings"] = [{"meeting": "kinds", "square": 20, "counter": 2}]
    text = RULESET_V2.display(RULESET_V2.load_state(data))
    assert "1F#" in text
    assert "Generator: Fire of seat 1 on 2, counter 2" in text
    assert "Meeting: kinds on 20, counter 2" in text
