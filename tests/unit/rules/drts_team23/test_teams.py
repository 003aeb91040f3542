"""Step 1: team requests, exchanges, free slots and automatic assignment (DRTS-19)."""

from domain.rules.drts_team23 import RULESET
from domain.rules.drts_team23.state import Team
from domain.rules.drts_team23.teams import assign_teams
from domain.rules.rng import Rng
from tests.unit.rules.drts_team23.support import DEFAULT_TEAMS, position

G, Y, B = Team.GREEN, Team.YELLOW, Team.BLUE


def teams_after(state, requests):
    after, _ = assign_teams(state, requests)
    return {seat.number: seat.team for seat in after.seats}


def test_seats_start_teamless():
    """DRTS-19: no seat has a team at the start of the match."""
    state = RULESET.initial_state(RULESET.validate_config({}), 8, Rng("teams", 0))
    assert all(seat.team is None for seat in state.seats)


def test_a_single_request_for_a_team_with_a_free_slot_is_granted():
    """DRTS-19: slot availability."""
    assert teams_after(position(), {3: B})[3] is B


def test_the_higher_score_wins_the_last_free_slot():
    """DRTS-19: fight over a slot: highest seat score."""
    state = position(teams={1: "green", 2: "green"}, scores={4: 1, 5: 3})
    result = teams_after(state, {4: G, 5: G})
    assert (result[4], result[5]) == (None, G)


def test_a_tie_for_the_last_free_slot_goes_to_the_lower_seat_number():
    """DRTS-19: then the lowest seat number."""
    state = position(teams={1: "green", 2: "green"}, scores={5: 3, 6: 3})
    result = teams_after(state, {6: G, 5: G})
    assert (result[5], result[6]) == (G, None)


def test_two_seats_asking_for_each_other_full_teams_exchange():
    """DRTS-19: exchange."""
    result = teams_after(position(teams=DEFAULT_TEAMS), {2: Y, 5: G})
    assert (result[2], result[5]) == (Y, G)


def test_an_exchange_needs_only_one_of_the_two_teams_full():
    """DRTS-19: X asks for full team T while a member of T asks for X's team."""
    teams = {1: "green", 2: "green", 3: "green", 4: "yellow", 5: "yellow"}
    result = teams_after(position(teams=teams), {1: Y, 4: G})
    assert (result[1], result[4]) == (Y, G)


def test_the_higher_score_makes_a_contested_exchange():
    """DRTS-19: fight over an exchange."""
    state = position(teams=DEFAULT_TEAMS, scores={1: 0, 3: 2})
    result = teams_after(state, {1: Y, 3: Y, 4: G})
    assert (result[1], result[3], result[4]) == (G, Y, G)


def test_several_candidates_on_both_sides_pair_up_in_rank_order():
    """DRTS-19: two exchanges between green and yellow in one movement."""
    state = position(teams=DEFAULT_TEAMS, scores={1: 5, 2: 1, 4: 0, 5: 9})
    result = teams_after(state, {1: Y, 2: Y, 4: G, 5: G})
    assert (result[1], result[2], result[4], result[5]) == (Y, Y, G, G)


def test_three_seats_asking_round_in_a_circle_do_not_exchange():
    """DRTS-19: an exchange is between two seats; in a cycle of three only a free slot helps."""
    result = teams_after(position(teams=DEFAULT_TEAMS), {1: Y, 4: B, 7: G})
    assert (result[1], result[4], result[7]) == (G, B, B)


def test_a_full_team_refuses_a_seat_no_member_wants_to_exchange_with():
    """DRTS-19: a full team and no exchange partner."""
    assert teams_after(position(teams=DEFAULT_TEAMS), {7: G})[7] is B


def test_a_slot_left_in_this_movement_is_free_only_in_the_next():
    """DRTS-19: requests are judged against the memberships at the start of the step."""
    teams = {1: "green", 2: "green", 3: "green", 4: "yellow", 5: "yellow", 6: "blue", 7: "blue"}
    result = teams_after(position(teams=teams), {1: Y, 7: G})
    assert (result[1], result[7]) == (Y, B)


def test_teamless_seats_are_placed_automatically_at_movement_6():
    """DRTS-19: fewest members first, lowest team number on ties, in seat order."""
    state = position(teams={1: "green", 2: "green", 4: "yellow"}, movement=6)
    result = teams_after(state, {})
    assert result == {1: G, 2: G, 3: B, 4: Y, 5: Y, 6: B, 7: G, 8: Y}


def test_no_seat_is_placed_automatically_at_movement_5():
    """DRTS-19: the assignment happens at movement 6, not before."""
    assert teams_after(position(movement=5), {})[1] is None


def test_no_seat_is_placed_automatically_after_movement_6():
    """DRTS-19: the assignment happens once (a constructed teamless seat stays teamless)."""
    assert teams_after(position(movement=7), {})[1] is None


def test_a_request_at_movement_6_is_served_before_the_automatic_assignment():
    """DRTS-19: a seat asking for a team with a free slot gets its choice."""
    state = position(teams={1: "green", 2: "green", 4: "yellow"}, movement=6)
    assert teams_after(state, {3: G})[3] is G


def test_team_points_stay_with_the_team_a_seat_leaves():
    """DRTS-19: team points belong to the team."""
    state = position(teams={1: "green"}, team_scores=(5, 0, 0))
    after, _ = assign_teams(state, {1: B})
    assert after.team_scores == (5, 0, 0)
