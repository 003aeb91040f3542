"""Elimination and its bonus (SH-6, SH-7), both scoring modes and both bonus options (SH-6),
the end (SH-9)."""

from fractions import Fraction

from domain.rules.contract import Result
from domain.rules.shades import RULESET
from domain.rules.shades.scoring import eliminations, end_reason, outcome_of
from tests.conformance.playout import new_table, submit_random_orders
from tests.unit.rules.shades.support import play, position, steps_of


def test_a_seat_without_shades_or_stored_humans_is_eliminated():
    """The text's elimination: no shade and nothing to spawn; the survivor gets +1 (SH-6)."""
    after, steps = eliminations(position(shades=[(1, 1, 1)]))
    assert after.seat(2).eliminated is not None and after.seat(2).eliminated.turn == 0
    assert after.seat(1).score == 3 and after.seat(2).score == 2
    assert [step.rule for step in steps] == ["SH-7", "SH-6"]


def test_a_seat_without_shades_but_with_stored_humans_and_a_tomb_stays_in():
    """It can still spawn: not eliminated."""
    after, steps = eliminations(position(shades=[(1, 1, 1)], stored={2: 1}))
    assert after.seat(2).alive and steps == ()


def test_a_seat_with_stored_humans_but_no_standing_tomb_is_eliminated():
    """The text: "all their tombs are destroyed, or no stored humans" - either is enough."""
    state = position(shades=[(1, 1, 1)], stored={2: 4}, razed={2: 0, 4: 0}, turn=1)
    after, _ = eliminations(state)
    assert after.seat(2).eliminated is not None


def test_seats_eliminated_in_one_turn_get_nothing_from_each_other():
    """SH-6: seats 2 and 3 both fall in turn 0; only seat 1, alive after it, gets +2."""
    tombs = [(1, 0, 0), (2, 6, 0), (3, 0, 4)]
    after, steps = eliminations(position(seats=3, tombs=tombs, shades=[(1, 1, 1)]))
    assert [s.score for s in after.seats] == [3, 1, 1]
    assert steps_of(steps, "SH-6")[0].data == {"eliminated": [2, 3], "points": {"1": 2}}


def test_a_seat_forfeited_earlier_in_the_turn_counts_among_its_eliminations():
    """SH-4 and SH-6: seat 3 was forfeited at the deadline of turn 0, seat 2 falls in the
    elimination phase: each of the two pays seat 1, not each other."""
    tombs = [(1, 0, 0), (2, 6, 0), (3, 0, 4)]
    state = position(
        seats=3, tombs=tombs, shades=[(1, 1, 1), (3, 5, 3)], eliminated={3: (0, "forfeit")}
    )
    after, _ = eliminations(state)
    assert [s.score for s in after.seats] == [3, 1, 1]


def test_normalised_scoring_splits_100_among_the_survivors():
    """SH-6 option: seat 3 falls; seats 1 and 2 share 100: +50 each; each seat started at 100."""
    tombs = [(1, 0, 0), (2, 6, 0), (3, 0, 4)]
    state = position(seats=3, tombs=tombs, shades=[(1, 1, 1), (2, 5, 3)], scoring="normalised")
    after, steps = eliminations(state)
    assert [s.score for s in after.seats] == [150, 150, 100]
    assert steps_of(steps, "SH-6")[0].data["points"] == {"1": 50, "2": 50}


def test_normalised_scores_are_exact_fractions_and_the_outcome_rounds_them():
    """SH-6 option: three survivors share 100: 100/3 each, kept exact; outcome says 133."""
    tombs = [(1, 0, 0), (2, 6, 0), (3, 0, 4), (4, 6, 4)]
    shades = [(1, 1, 1), (2, 5, 1), (3, 1, 3)]
    state = position(seats=4, tombs=tombs, shades=shades, scoring="normalised")
    after, _ = eliminations(state)
    assert after.seat(1).score == Fraction(400, 3)
    assert outcome_of(after).scores == {1: 133, 2: 133, 3: 133, 4: 100}


def test_the_sequential_option_pays_removal_by_removal_in_seat_order():
    """SH-6 option: seats 2, 3 and 4 fall at one check; removed in seat order, seat 2 pays
    seats 1, 3 and 4, seat 3 pays seats 1 and 4, seat 4 pays seat 1: one step a removal."""
    tombs = [(1, 0, 0), (2, 6, 0), (3, 0, 4), (4, 6, 4)]
    state = position(seats=4, tombs=tombs, shades=[(1, 1, 1)], elimination_bonus="sequential")
    after, steps = eliminations(state)
    assert [s.score for s in after.seats] == [1 + 3, 1, 1 + 1, 1 + 2]
    assert [s.data for s in steps_of(steps, "SH-6")] == [
        {"eliminated": [2], "points": {"1": 1, "3": 1, "4": 1}},
        {"eliminated": [3], "points": {"1": 1, "4": 1}},
        {"eliminated": [4], "points": {"1": 1}},
    ]


def test_under_the_sequential_option_the_last_seats_to_fall_pay_each_other():
    """SH-6 option: both seats fall at one check and nobody is alive after it; seat 1's
    removal still pays seat 2 (normalised: the whole 100), seat 2's removal pays nobody."""
    state = position(scoring="normalised", elimination_bonus="sequential")
    after, steps = eliminations(state)
    assert after.alive == () and [s.score for s in after.seats] == [100, 200]
    assert [s.data for s in steps_of(steps, "SH-6")] == [{"eliminated": [1], "points": {"2": 100}}]


def test_one_elimination_pays_the_same_under_both_bonus_options():
    """SH-6 and its option agree when one seat falls: the survivors share its bonus."""
    tombs = [(1, 0, 0), (2, 6, 0), (3, 0, 4)]
    shades = [(1, 1, 1), (2, 5, 3)]
    scores = []
    for bonus in ("end_of_turn", "sequential"):
        state = position(
            seats=3, tombs=tombs, shades=shades, scoring="normalised", elimination_bonus=bonus
        )
        after, _ = eliminations(state)
        scores.append([s.score for s in after.seats])
    assert scores == [[150, 150, 100], [150, 150, 100]]


def test_a_forfeit_that_ends_the_match_pays_sequentially_under_the_option():
    """SH-4, SH-6 option, SH-9: seat 2 fell at this turn's deadline, then seat 1 is
    forfeited too: nobody is left and the match ends in the forfeit; removed in seat order,
    seat 1's removal pays seat 2, still in at that moment, and seat 2's pays nobody."""
    state = position(
        shades=[(1, 1, 1), (2, 5, 3)],
        eliminated={2: (1, "forfeit")},
        turn=1,
        elimination_bonus="sequential",
    )
    after, steps = RULESET.forfeit(state, 1)
    assert RULESET.outcome(after).finished and [s.score for s in after.seats] == [2, 3]
    assert [s.rule for s in steps] == ["SH-4", "SH-6", "SH-9"]


def test_the_match_ends_when_no_seat_is_alive():
    """SH-9: the last shades of both seats collide, nobody has stored humans: both fall in
    the same turn, nobody gets a bonus, the match ends."""
    state = position(shades=[(1, 2, 2), (2, 4, 2)])
    after, steps = play(state, {1: "1 e", 2: "2 w"})
    assert after.alive == () and end_reason(after) == "no seat is alive"
    assert [s.score for s in after.seats] == [2, 2] and not steps_of(steps, "SH-6")
    assert outcome_of(after).result is Result.DRAW and outcome_of(after).winners == (1, 2)


def test_the_match_ends_when_the_one_seat_alive_owns_every_tomb_left():
    """SH-9: seat 2 is out; seat 1 razes its last tomb: seat 1 wins."""
    state = position(
        shades=[(1, 5, 0), (2, 2, 2)], razed={4: 0}, eliminated={2: (0, "forfeit")}, turn=1
    )
    after, steps = play(state, {1: "1 e"})
    assert end_reason(after) == "seat 1 is the only seat alive and owns every tomb left"
    assert steps[-1].rule == "SH-9"
    outcome = outcome_of(after)
    assert outcome.result is Result.WIN and outcome.winners == (1,)


def test_one_seat_alive_goes_on_while_an_eliminated_seat_keeps_a_tomb():
    """SH-9 (the original server's reading): an eliminated seat's tomb can still be razed,
    so the match goes on until it falls or the turns run out."""
    state = position(shades=[(1, 2, 2)], eliminated={2: (0, "forfeit")}, turn=1)
    after, steps = play(state, {1: "1 e"})
    assert end_reason(after) is None and "SH-9" not in [s.rule for s in steps]


def test_the_match_ends_at_the_turn_limit():
    """SH-9, SH-1: with turns = 3, the match ends after turn 2 (turns count from 0)."""
    state = position(shades=[(1, 1, 1), (2, 5, 3)], turns=3, turn=2)
    after, steps = play(state, {1: "hold", 2: "hold"})
    assert after.turn == 3 and end_reason(after) == "the turn limit of 3 turns is reached"
    assert steps[-1].data["winners"] == [1, 2]


def test_the_ranking_is_by_exact_score_then_seat():
    """Outcome: scores 2, 5, 5 rank seats 2, 3, 1; an ongoing match names no winner."""
    tombs = [(1, 0, 0), (2, 6, 0), (3, 0, 4)]
    state = position(seats=3, tombs=tombs, shades=[(1, 1, 1)], scores={1: 2, 2: 5, 3: 5})
    outcome = outcome_of(state)
    assert outcome.ranking == (2, 3, 1) and outcome.result is Result.ONGOING


def bonus_turns(config: dict[str, object]) -> list[list[list[int]]]:
    """Returns, for each turn of 8-seat random playouts that paid a bonus, the `eliminated`
    of each of its SH-6 steps."""
    turns = []
    for n in range(6):
        table = new_table(RULESET, f"bonus-{n}", config)
        while not table.outcome().finished:
            submit_random_orders(table, "bonus")
            steps = steps_of(table.close(deadline_passed=True).steps, "SH-6")
            if steps:
                turns.append([step.data["eliminated"] for step in steps])
    return turns


def test_random_contest_matches_pay_several_eliminations_one_by_one():
    """SH-6 option under the `contest` preset: in random 8-seat matches, turns where several
    seats fall pay them in several steps of one seat each, in seat order; without the option
    such a turn pays them in one step."""
    contest = bonus_turns(RULESET.configure({}, "contest"))
    assert all(len(eliminated) == 1 for turn in contest for eliminated in turn)
    several = [turn for turn in contest if len(turn) > 1]
    assert several and all(turn == sorted(turn) for turn in several)
    default = bonus_turns({})
    assert any(len(turn[0]) > 1 for turn in default) and all(len(turn) == 1 for turn in default)
