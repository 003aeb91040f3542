"""Resolution of a movement: simultaneity (DRTS-5), silence (DRTS-22), step order, steps."""

import pytest

from domain.errors import IllegalOrderError
from domain.rules.contract import OrderPolicy
from domain.rules.drts_team23 import RULESET
from domain.rules.drts_team23.orders import parse_order
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
