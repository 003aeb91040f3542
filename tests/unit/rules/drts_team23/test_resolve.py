"""Resolution of a movement: simultaneity (DRTS-5), silence (DRTS-22), step order, steps."""

import pytest

from domain.errors import IllegalOrderError
from domain.rules.contract import OrderPolicy, resolution_of
from domain.rules.drts_team23 import RULESET
from domain.rules.drts_team23.orders import parse_order
from domain.rules.drts_team23.resolve import resolve_phases
from domain.rules.drts_team23.state import Team
from domain.rules.rng import Rng
from domain.table import Table
from tests.unit.rules.drts_team23.support import DEFAULT_TEAMS, play, position, rules, square_of


def test_every_operation_is_applied_at_once():
    """DRTS-5: a piece moves onto the square another leaves in the same movement, no battle."""
    state = position({"1F": 14, "4P": 15}, teams=DEFAULT_TEAMS)
    after, steps = play(state, {1: "fire 14>15", 4: "plant 15>16"})
    assert (square_of(after, "1F"), square_of(after, "4P")) == (15, 16)
    assert "DRTS-9" not in rules(steps)


def test_a_silent_seat_holds_all_its_pieces():
    """DRTS-22: no order, no move."""
    state = position({"1F": 14, "1W": 20}, teams=DEFAULT_TEAMS)
    after, steps = play(state, {})
    assert after.pieces == state.pieces and steps == ()


def test_a_later_order_of_a_seat_replaces_its_earlier_one():
    """The contract: orders in arrival order, the last one of a seat counts (OrderPolicy.REPLACE,
    applied by the Table before resolve, which sees one order a seat)."""
    table = Table(RULESET, "resolve", position({"1F": 14}))
    table.submit(1, "fire 14>15")
    table.submit(1, "fire 14>13")
    assert RULESET.info.order_policy is OrderPolicy.REPLACE
    assert table.orders_for_resolution() == [(1, parse_order("fire 14>13"))]
    table.pass_deadline()
    assert square_of(table.state, "1F") == 13


def test_an_illegal_order_is_refused_by_resolve_too():
    """DRTS-5: resolve judges every order against the start of the movement."""
    with pytest.raises(IllegalOrderError, match="16 is not next to 14"):
        play(position({"1F": 14}), {1: "fire 14>16"})


def test_the_movement_counter_advances():
    """DRTS-2: one movement resolved, the next one open."""
    after, _ = play(position(movement=4), {})
    assert after.movement == 5


def test_steps_follow_the_text_order_moves_then_teams_then_battles():
    """DRTS-5: operations, then step 1 (teams), then step 6 (battles and points)."""
    state = position({"1F": 14, "4P": 15}, teams={4: "yellow"})
    _, steps = play(state, {1: "fire 14>15; team green"})
    assert rules(steps) == ["DRTS-6", "DRTS-19", "DRTS-9", "DRTS-10"]


def test_a_capture_step_names_the_pieces_the_square_and_the_points():
    """DRTS-9, DRTS-10: the step a referee reads."""
    state = position({"3F": 13, "5P": 14}, teams={3: "green", 5: "yellow"})
    _, steps = play(state, {3: "fire 13>14"})
    capture = steps[1]
    assert (
        capture.text == "Fire of seat 3 captures Plant of seat 5 on square 14; seat 3 +1, green +1"
    )
    assert capture.data["seat_points"] == {"3": 1} and capture.data["team_points"] == {"green": 1}


def test_a_finished_match_resolves_silence_to_nothing():
    """DRTS-20: after the end, a passed deadline changes nothing."""
    state = position(team_scores=(1, 0, 0), movement=21)
    assert play(state, {}) == (state, ())


def test_the_match_ends_with_a_drts_20_step():
    """DRTS-20: the last movement's steps say who won."""
    _, steps = play(position(teams=DEFAULT_TEAMS, team_scores=(2, 1, 0), movement=20), {})
    assert steps[-1].rule == "DRTS-20" and "green wins (seats 1, 2, 3)" in steps[-1].text


def test_the_phases_are_the_operations_the_ten_steps_and_the_end_of_the_movement():
    """DRTS-5: the state after each step of the text, in its order (issue 11: phases)."""
    state = position({"1F": 14, "4P": 15}, teams={4: "yellow"})
    orders = [(1, parse_order("fire 14>15; team green"))]
    phases = resolve_phases(state, orders, Rng("tests", 1))
    names = [phase.name for phase in phases]
    assert len(phases) == 12 and names[0].startswith("operations")
    assert [name.split(":")[0] for name in names[1:11]] == [f"step {n}" for n in range(10)]
    assert names[-1].startswith("end of the movement")
    operations, teams, battles, end = phases[0], phases[2], phases[7], phases[11]
    assert square_of(operations.state, "1F") == 15 and operations.state.seat(1).team is None
    assert teams.state.seat(1).team is Team.GREEN and square_of(teams.state, "4P") == 15
    assert square_of(battles.state, "4P") is None and battles.state.seat(1).score == 1
    assert end.state.movement == 2 and battles.state.movement == 1
    assert rules(operations.steps + teams.steps + battles.steps) == [
        "DRTS-6",
        "DRTS-19",
        "DRTS-9",
        "DRTS-10",
    ]


def test_the_item_steps_change_nothing_in_this_version():
    """DRTS v1 plays without items: steps 0, 2-5 and 7-9 leave the state as it was."""
    state = position({"1F": 14, "4P": 15}, teams={4: "yellow"})
    phases = resolve_phases(state, [(1, parse_order("fire 14>15"))], Rng("tests", 1))
    for number in (0, 2, 3, 4, 5, 7, 8, 9):
        phase, before = phases[number + 1], phases[number]
        assert "no items" in phase.name and phase.state == before.state and phase.steps == ()


def test_resolve_is_the_last_phase_and_every_phases_steps():
    """Issue 11: resolve is derived from its phases, so tracing cannot change it."""
    state = position({"3F": 13, "5P": 14}, teams={3: "green", 5: "yellow"})
    orders = [(3, parse_order("fire 13>14"))]
    phases = resolve_phases(state, orders, Rng("tests", 1))
    assert play(state, {3: "fire 13>14"}) == resolution_of(phases)


def test_a_finished_match_has_one_phase_that_changes_nothing():
    """DRTS-20: after the end, a passed deadline changes nothing."""
    state = position(team_scores=(1, 0, 0), movement=21)
    (phase,) = resolve_phases(state, [], Rng("tests", 21))
    assert phase.state == state and phase.steps == ()
