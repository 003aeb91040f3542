"""Battles of step 6 (DRTS-9) and capturability (DRTS-7)."""

import pytest

from domain.rules.drts_team23.battle import Case, battles, can_capture
from domain.rules.drts_team23.state import Kind
from tests.unit.rules.drts_team23.support import DEFAULT_TEAMS, play, position, rules, square_of


def captures_of(state, moved=()):
    sides = [seat.side for seat in state.seats]
    return [(c.capturer, c.victim, c.case) for c in battles(state.pieces, sides, set(moved))]


@pytest.mark.parametrize(
    ("attacker", "target"),
    [(Kind.PLANT, Kind.WATER), (Kind.WATER, Kind.FIRE), (Kind.FIRE, Kind.PLANT)],
)
def test_each_kind_captures_the_one_it_beats(attacker, target):
    """DRTS-7: Plant beats Water, Water beats Fire, Fire beats Plant."""
    assert can_capture(attacker, target) and not can_capture(target, attacker)


def test_a_kind_can_capture_its_own_kind():
    """DRTS-7: the same kind is capturable."""
    assert can_capture(Kind.FIRE, Kind.FIRE)


def test_the_winning_kind_captures_the_losing_one():
    """DRTS-9: kind advantage; index 0 is seat 1's Water, 10 seat 4's Fire."""
    state = position({"1W": 15, "4F": 15}, teams=DEFAULT_TEAMS)
    assert captures_of(state, moved={0}) == [(0, 10, Case.KIND)]


def test_the_winning_kind_captures_even_when_it_holds():
    """DRTS-9: who moved matters only between pieces of one kind."""
    state = position({"1W": 15, "4F": 15}, teams=DEFAULT_TEAMS)
    assert captures_of(state, moved={10}) == [(0, 10, Case.KIND)]


def test_one_kind_moving_in_together_capture_each_other():
    """DRTS-9: same kind, both moved in: both are captured."""
    state = position({"1F": 15, "4F": 15}, teams=DEFAULT_TEAMS)
    assert captures_of(state, moved={1, 10}) == [(1, 10, Case.SAME_KIND), (10, 1, Case.SAME_KIND)]


def test_one_kind_both_holding_capture_each_other():
    """DRTS-9: same kind, neither moved in (after a team change): both are captured."""
    state = position({"1F": 15, "4F": 15}, teams=DEFAULT_TEAMS)
    assert captures_of(state) == [(1, 10, Case.SAME_KIND), (10, 1, Case.SAME_KIND)]


def test_the_mover_captures_a_holder_of_its_kind():
    """DRTS-8, DRTS-9: exactly one moved in: it captures the holder."""
    state = position({"1F": 15, "4F": 15}, teams=DEFAULT_TEAMS)
    assert captures_of(state, moved={10}) == [(10, 1, Case.MOVER)]


def test_pieces_of_one_team_do_not_fight():
    """DRTS-9: only pairs of different teams are evaluated."""
    state = position({"1W": 15, "2F": 15}, teams=DEFAULT_TEAMS)
    assert captures_of(state, moved={0}) == []


def test_teamless_seats_are_each_their_own_team():
    """DRTS-9: a teamless seat is its own team."""
    state = position({"1W": 15, "2F": 15})
    assert captures_of(state, moved={0}) == [(0, 4, Case.KIND)]


def test_every_pair_of_three_teams_fights_at_once():
    """DRTS-9: Water, Fire and Plant of three teams each capture one and are captured."""
    state = position({"1W": 15, "4F": 15, "7P": 15}, teams=DEFAULT_TEAMS)
    assert captures_of(state, moved={0, 10, 20}) == [
        (0, 10, Case.KIND),
        (20, 0, Case.KIND),
        (10, 20, Case.KIND),
    ]


def test_swapping_pieces_do_not_fight():
    """DRTS-5: pieces that swap squares pass each other."""
    state = position({"1W": 14, "4F": 15}, teams=DEFAULT_TEAMS)
    after, steps = play(state, {1: "water 14>15", 4: "fire 15>14"})
    assert (square_of(after, "1W"), square_of(after, "4F")) == (15, 14)
    assert "DRTS-9" not in rules(steps)


def test_a_recovered_piece_moves_in():
    """DRTS-18: a recovered Fire captures an enemy Fire holding on its square."""
    state = position({"1F": 21}, teams=DEFAULT_TEAMS)
    after, _ = play(state, {4: "fire recover 21"})
    assert (square_of(after, "1F"), square_of(after, "4F")) == (None, 21)
