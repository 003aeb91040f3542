"""Ratings (issue 45): placement from an outcome, the OpenSkill fold, its determinism."""

from __future__ import annotations

from uuid import UUID

from openskill.models import PlackettLuce

from service.queries.ratings import RatedMatch, placement, rate

M1, M2, M3 = (UUID(int=n) for n in (1, 2, 3))


def won(winner: int, scores: dict[int, int], **extra: object) -> dict[str, object]:
    return {
        "result": "win",
        "scores": {str(s): v for s, v in scores.items()},
        "winners": [winner],
        **extra,
    }


def test_one_win_between_two_new_players_is_what_openskill_gives_rounded_to_6_places():
    tables = rate([RatedMatch(M1, "toy", 1, (("alice",), ("bob",)), (1, 2))])
    model = PlackettLuce()
    [[alice], [bob]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    table = tables[("toy", 1)]
    assert [p.player_id for p in table.players] == ["alice", "bob"]
    a, b = table.of("alice"), table.of("bob")
    assert a is not None and b is not None
    assert (a.mu, a.sigma) == (round(alice.mu, 6), round(alice.sigma, 6)) == (27.635389, 8.065901)
    assert (b.mu, b.sigma) == (round(bob.mu, 6), round(bob.sigma, 6))
    assert a.ordinal == round(a.mu - 3 * a.sigma, 6)
    (change,) = a.history
    assert (change.match_id, change.mu_before, change.sigma_before) == (M1, 25.0, 8.333333)
    assert (change.mu_after, change.sigma_after) == (a.mu, a.sigma)


def test_a_draw_leaves_two_new_players_level():
    table = rate([RatedMatch(M1, "toy", 1, (("alice",), ("bob",)), (1, 1))])[("toy", 1)]
    a, b = table.of("alice"), table.of("bob")
    assert a is not None and b is not None
    assert a.mu == b.mu == 25.0 and a.sigma == b.sigma < 8.333333


def test_each_match_starts_from_the_ratings_the_last_one_left_rounded():
    first = RatedMatch(M1, "toy", 1, (("alice",), ("bob",)), (1, 2))
    second = RatedMatch(M2, "toy", 1, (("bob",), ("carol",)), (1, 2))
    table = rate([first, second])[("toy", 1)]
    bob = table.of("bob")
    assert bob is not None
    assert [c.match_id for c in bob.history] == [M1, M2]
    assert bob.history[1].mu_before == bob.history[0].mu_after
    model = PlackettLuce()
    start = model.rating(mu=bob.history[0].mu_after, sigma=bob.history[0].sigma_after)
    [[after], _] = model.rate([[start], [model.rating()]], ranks=[1, 2])
    assert bob.mu == round(after.mu, 6)


def test_the_order_of_the_matches_decides_and_the_same_order_gives_the_same_table():
    first = RatedMatch(M1, "toy", 1, (("alice",), ("bob",)), (1, 2))
    second = RatedMatch(M2, "toy", 1, (("bob",), ("alice",)), (1, 2))
    assert rate([first, second]) == rate([first, second])
    assert rate([first, second]) != rate([second, first])


def test_tables_are_kept_per_ruleset_name_and_version():
    tables = rate(
        [
            RatedMatch(M1, "toy", 1, (("alice",), ("bob",)), (1, 2)),
            RatedMatch(M2, "toy", 2, (("alice",), ("bob",)), (2, 1)),
            RatedMatch(M3, "other", 1, (("alice",), ("bob",)), (1, 2)),
        ]
    )
    assert set(tables) == {("toy", 1), ("toy", 2), ("other", 1)}
    assert tables[("toy", 1)].players[0].player_id == "alice"
    assert tables[("toy", 2)].players[0].player_id == "bob"


def test_teams_are_rated_as_teams_like_openskill_does():
    match = RatedMatch(M1, "drts_team23", 1, (("a", "b"), ("c", "d")), (2, 1))
    table = rate([match])[("drts_team23", 1)]
    model = PlackettLuce()
    fresh = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    [[a, _], [c, _]] = model.rate(fresh, ranks=[2, 1])
    assert table.of("a").mu == table.of("b").mu == round(a.mu, 6)  # type: ignore[union-attr]
    assert table.of("c").mu == round(c.mu, 6)  # type: ignore[union-attr]
    assert [p.player_id for p in table.players][:2] == ["c", "d"]


def test_placement_puts_the_winner_first_then_the_others_by_score():
    outcome = won(2, {1: 5, 2: 3, 3: 5, 4: 1})
    assert placement(outcome, None, [1, 2, 3, 4]) == [([1], 2), ([2], 1), ([3], 2), ([4], 3)]


def test_placement_ties_every_seat_in_a_draw_without_winners():
    outcome = {"result": "draw", "scores": {"1": 4, "2": 2}, "winners": []}
    assert placement(outcome, None, [1, 2]) == [([1], 1), ([2], 1)]


def test_placement_of_a_team_game_ranks_the_final_teams_by_team_score():
    state = {
        "seats": {
            "1": {"team": "green", "score": 9},
            "2": {"team": "yellow", "score": 0},
            "3": {"team": "green", "score": 0},
            "4": {"team": "blue", "score": 2},
            "5": {"team": None, "score": 4},
        }
    }
    outcome = won(
        1,
        {1: 9, 2: 0, 3: 0, 4: 2, 5: 4},
        team_scores={"green": 3, "yellow": 5, "blue": 3},
        winning_teams=["yellow"],
    )
    sides = placement(outcome, state, [1, 2, 3, 4, 5])
    assert sorted(sides) == [([1, 3], 2), ([2], 1), ([4], 2), ([5], 3)]
