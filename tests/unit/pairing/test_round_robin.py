"""Round robin by the circle method (service/pairing/round_robin.py): one rule a test."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from service.pairing import pair_next, round_robin, standings_of
from service.pairing.history import History
from tests.support.tournaments import SEED, played, players

ONE_LEG = {"seats": [2, 2], "legs": 1}
TWO_LEGS = {"seats": [2, 2], "legs": 2}


def tournament(count: int, options: dict, withdrawn: frozenset[str] = frozenset()) -> History:
    history = History(players(count), SEED, (), withdrawn)
    while (pairing := pair_next("round_robin", 1, history, options)) is not None:
        history = played(history, pairing)
    return history


def meetings(history: History) -> Counter[frozenset[str]]:
    return Counter(frozenset(t) for record in history.rounds for t in record.tables)


def test_round_robin_of_four_meets_everyone_once_in_three_rounds() -> None:
    """One leg of 4: 3 rounds of 2 tables, each of the 6 pairs once."""
    history = tournament(4, ONE_LEG)
    assert len(history.rounds) == 3
    assert all(len(record.tables) == 2 for record in history.rounds)
    assert len(meetings(history)) == 6 and set(meetings(history).values()) == {1}


def test_two_legs_meet_everyone_twice_seats_swapped() -> None:
    """Two legs of 4: 6 rounds; round 3 + k is round k with every table's seats swapped."""
    history = tournament(4, TWO_LEGS)
    assert len(history.rounds) == 6 and set(meetings(history).values()) == {2}
    for first, second in zip(history.rounds[:3], history.rounds[3:], strict=True):
        assert second.tables == tuple((b, a) for a, b in first.tables)


def test_round_robin_of_four_balances_seat_order() -> None:
    """One leg of 4: each player sits first once or twice in 3 games."""
    history = tournament(4, ONE_LEG)
    firsts = Counter(t[0] for record in history.rounds for t in record.tables)
    assert all(firsts[p] in (1, 2) for p in players(4))


@given(st.integers(min_value=2, max_value=14), st.text(min_size=1, max_size=8))
def test_seat_order_differs_by_at_most_one_in_a_leg(count: int, seed: str) -> None:
    """Any field, any seed: in one leg no one sits first more than once more than second,
    and in an odd field exactly as often."""
    firsts, seconds = Counter(), Counter()
    for tables in round_robin.schedule(list(players(count)), seed, 1):
        for first, second in tables:
            if round_robin.REST in (first, second):
                continue
            firsts[first] += 1
            seconds[second] += 1
    for player in players(count):
        assert abs(firsts[player] - seconds[player]) <= (count + 1) % 2


def test_an_odd_field_rests_each_player_once_a_leg() -> None:
    """One leg of 5: 5 rounds, each with one bye, each player resting once."""
    history = tournament(5, ONE_LEG)
    byes = [p for record in history.rounds for p in record.byes]
    assert len(history.rounds) == 5 and sorted(byes) == list(players(5))


def test_a_rest_scores_nothing() -> None:
    """A scheduled rest in an odd field is worth no points."""
    history = tournament(3, ONE_LEG)
    standing = {
        s.player_id: s.points
        for s in standings_of("round_robin", history, ("points", "draw"), ONE_LEG)
    }
    assert sum(standing.values()) == 3 * 2  # three games of 2 points, no bye counted


def test_a_withdrawn_player_s_opponent_has_a_bye_scored_as_a_win() -> None:
    """p4 withdraws before round 1 of 4: whoever meets p4 has a walkover bye, worth 2."""
    history = tournament(4, ONE_LEG, frozenset({"p4"}))
    for record in history.rounds:
        assert all("p4" not in table for table in record.tables) and len(record.byes) == 1
        assert round_robin.walkovers(history, record.number, 1) == set(record.byes)
    standing = {
        s.player_id: s for s in standings_of("round_robin", history, ("points", "draw"), ONE_LEG)
    }
    assert standing["p4"].withdrawn and standing["p4"].points == 0
    assert standing["p3"].points == 2  # lost to p1 and p2, the walkover against p4


def test_the_tournament_ends_after_the_last_round() -> None:
    """pair_next returns None once every round of the legs is played."""
    assert pair_next("round_robin", 1, tournament(4, ONE_LEG), ONE_LEG) is None
