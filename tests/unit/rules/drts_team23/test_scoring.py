"""Battle points (DRTS-10), the capture penalty (DRTS-18) and the end of the match (DRTS-20)."""

from domain.rules.contract import Result
from domain.rules.drts_team23.scoring import is_finished, outcome
from domain.rules.drts_team23.state import Kind
from tests.unit.rules.drts_team23.support import DEFAULT_TEAMS, play, position


def test_a_capture_gives_the_capturer_seat_and_team_a_point_each():
    """DRTS-10: capturer's seat +1, capturer's team +1, victim's seat -1."""
    after, _ = play(position({"1F": 14, "4P": 15}, teams=DEFAULT_TEAMS), {1: "fire 14>15"})
    assert (after.seat(1).score, after.seat(4).score, after.team_scores) == (1, -1, (1, 0, 0))


def test_the_victim_team_loses_nothing():
    """DRTS-10: only the victim's seat pays."""
    state = position({"1F": 14, "4P": 15}, teams=DEFAULT_TEAMS, team_scores=(0, 5, 0))
    after, _ = play(state, {1: "fire 14>15"})
    assert after.team_scores == (1, 5, 0)


def test_a_teamless_capturer_earns_no_team_point():
    """DRTS-10: a teamless seat earns no team points."""
    after, _ = play(position({"1F": 14, "4P": 15}), {1: "fire 14>15"})
    assert (after.seat(1).score, after.team_scores) == (1, (0, 0, 0))


def test_a_victim_of_two_captures_loses_one_point():
    """DRTS-10: the victim's seat -1 once per battle."""
    state = position({"1F": 14, "2F": 16, "4P": 15}, teams=DEFAULT_TEAMS)
    after, _ = play(state, {1: "fire 14>15", 2: "fire 16>15"})
    assert (after.seat(4).score, after.team_scores) == (-1, (2, 0, 0))


def test_a_captured_piece_still_scores_its_own_capture():
    """DRTS-9: in a battle of three teams every capturer scores though captured."""
    state = position({"1W": 14, "4F": 16, "7P": 21}, teams=DEFAULT_TEAMS)
    after, _ = play(state, {1: "water 14>15", 4: "fire 16>15", 7: "plant 21>15"})
    assert [after.seat(n).score for n in (1, 4, 7)] == [0, 0, 0]
    assert after.team_scores == (1, 1, 1)


def test_a_captured_piece_may_be_recovered_from_the_third_movement_after():
    """DRTS-18: captured in movement 7, out in 8 and 9, back from 10."""
    state = position({"1F": 14, "4P": 15}, teams=DEFAULT_TEAMS, movement=7)
    after, _ = play(state, {1: "fire 14>15"})
    assert after.piece(4, Kind.PLANT).recover_from == 10


def test_seat_scores_may_go_below_zero():
    """DRTS-10: the text sets no floor."""
    after, _ = play(position({"1F": 14, "4P": 15}, teams=DEFAULT_TEAMS), {1: "fire 14>15"})
    assert after.seat(4).score == -1


def test_the_match_goes_on_before_the_last_regular_movement():
    """DRTS-20: a lead before movement 20 ends nothing."""
    assert not is_finished(position(team_scores=(5, 0, 0), movement=20))


def test_a_strict_leader_after_movement_20_wins_with_its_seats():
    """DRTS-20: winners are the seats of the winning team."""
    result = outcome(position(teams=DEFAULT_TEAMS, team_scores=(3, 2, 2), movement=21))
    assert (result.result, result.winning_teams) == (Result.WIN, ("green",))
    assert result.winners == (1, 2, 3)


def test_a_tie_after_movement_20_means_a_golden_point_movement():
    """DRTS-20: tied leaders play on."""
    result = outcome(position(teams=DEFAULT_TEAMS, team_scores=(3, 3, 2), movement=21))
    assert result.result is Result.ONGOING


def test_the_first_strict_lead_in_an_extra_movement_wins():
    """DRTS-20: the golden point ends the match."""
    result = outcome(position(teams=DEFAULT_TEAMS, team_scores=(3, 4, 2), movement=24))
    assert (result.result, result.winning_teams) == (Result.WIN, ("yellow",))


def test_a_tie_after_movement_40_is_a_draw_between_the_tied_teams():
    """DRTS-20: the tied teams share the draw; their seats are listed."""
    result = outcome(position(teams=DEFAULT_TEAMS, team_scores=(3, 3, 2), movement=41))
    assert (result.result, result.winning_teams) == (Result.DRAW, ("green", "yellow"))
    assert result.winners == (1, 2, 3, 4, 5, 6)


def test_a_team_without_members_can_win_with_no_winning_seat():
    """DRTS-19, DRTS-20: team points stay with the team, even an empty one."""
    result = outcome(position(teams={1: "green"}, team_scores=(0, 0, 4), movement=21))
    assert (result.winning_teams, result.winners) == (("blue",), ())


def test_the_outcome_gives_every_seat_and_team_score():
    """Outcome: seat scores, team scores keyed by name, ranking by seat score then number."""
    state = position(teams=DEFAULT_TEAMS, scores={3: 2, 5: 2, 1: -1}, team_scores=(1, 2, 3))
    result = outcome(state)
    assert result.team_scores == {"green": 1, "yellow": 2, "blue": 3}
    assert result.scores[3] == 2 and result.scores[1] == -1
    assert result.ranking == (3, 5, 2, 4, 6, 7, 8, 1)
