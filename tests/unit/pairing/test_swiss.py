"""Swiss pairing, a simplified Dutch system (service/pairing/swiss.py): one rule a test."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from service.pairing import swiss
from service.pairing.history import History
from service.pairing.result import PairingError
from tests.support.tournaments import SEED, played, players


def swiss_of(count: int, rounds: int) -> list[History]:
    """Returns the history before each round of a Swiss of `count` over `rounds` rounds,
    and after the last: the earlier registered wins every game."""
    histories = [History(players(count), SEED)]
    for _ in range(rounds):
        histories.append(played(histories[-1], swiss.pair(histories[-1])))
    return histories


def test_round_one_pairs_the_top_half_against_the_bottom_half() -> None:
    """Rule 4 (Dutch fold), round 1 of 8: 1 v 5, 2 v 6, 3 v 7, 4 v 8, higher-ranked first."""
    pairing = swiss.pair(History(players(8), SEED))
    assert pairing.tables == (("p1", "p5"), ("p2", "p6"), ("p3", "p7"), ("p4", "p8"))
    assert pairing.byes == ()


def test_swiss_of_nine_gives_the_bye_to_the_lowest_ranked_without_one() -> None:
    """Rule 2, Swiss of 9 over 4 rounds: each round's bye is the lowest-ranked player who
    has not had one, and no one has two."""
    histories = swiss_of(9, 4)
    for before, after in itertools.pairwise(histories):
        had = {p for record in before.rounds for p in record.byes}
        lowest = next(p for p in reversed(swiss.ranked(before)) if p not in had)
        assert after.rounds[-1].byes == (lowest,)
    byes = [record.byes[0] for record in histories[-1].rounds]
    assert len(set(byes)) == 4


def test_swiss_of_nine_repeats_no_pairing_over_four_rounds() -> None:
    """Rule 1: no two players meet twice in 4 rounds of 9."""
    meetings = Counter(
        frozenset(table) for record in swiss_of(9, 4)[-1].rounds for table in record.tables
    )
    assert set(meetings.values()) == {1}


def test_every_active_player_is_paired_or_has_the_bye_each_round() -> None:
    """Each round of 9 seats 8 players at 4 tables and gives 1 the bye."""
    for record in swiss_of(9, 4)[-1].rounds:
        seated = [p for table in record.tables for p in table] + list(record.byes)
        assert sorted(seated) == sorted(players(9))


def test_round_two_pairs_within_score_groups_with_one_floater() -> None:
    """Rule 3, round 2 of 9: after round 1 five players have 2 points (four winners and
    the bye) and four have 0; the bye goes to the lowest 0, so one 2-point player floats
    down, the lowest of his group (p9, the bye) against the top of the group below (p5)."""
    before = swiss_of(9, 1)[-1]
    points = swiss.points(before)
    tables = swiss.pair(before).tables
    crossing = [table for table in tables if points[table[0]] != points[table[1]]]
    assert [set(table) for table in crossing] == [{"p9", "p5"}]


def test_a_bye_scores_a_win() -> None:
    """Rule 2: the bye is worth 2 points, a win's."""
    after = swiss_of(9, 1)[-1]
    assert swiss.points(after)["p9"] == 2


def test_seat_order_is_balanced_over_four_rounds() -> None:
    """Rule 5, Swiss of 8 over 4 rounds: no player sits first (or second) more than twice
    more than in the other seat, nor three rounds running in the same seat."""
    rounds = swiss_of(8, 4)[-1].rounds
    for player in players(8):
        seats = [
            table.index(player) for record in rounds for table in record.tables if player in table
        ]
        assert abs(seats.count(0) - seats.count(1)) <= 2
        assert all(len(set(seats[i : i + 3])) == 2 for i in range(len(seats) - 2))


def test_the_player_with_fewer_first_seats_sits_first() -> None:
    """Rule 5: in round 2, p1 (first in round 1) against p3 (first too) falls to the
    round's parity; p5 (second) against p7 (second) likewise; a first against a second
    always gives the first seat to the one who sat second."""
    before = swiss_of(8, 1)[-1]
    for first, second in swiss.pair(before).tables:
        balance = {p: 0 for p in (first, second)}
        for table in before.rounds[0].tables:
            for p in balance:
                if p in table:
                    balance[p] = 1 if table[0] == p else -1
        assert balance[first] <= balance[second]


def test_a_withdrawn_player_is_not_paired() -> None:
    """A withdrawn player has no table and no bye; the field of 8 left pairs in full."""
    history = swiss_of(9, 1)[-1]
    history = History(history.players, history.seed, history.rounds, frozenset({"p3"}))
    pairing = swiss.pair(history)
    seated = {p for table in pairing.tables for p in table}
    assert "p3" not in seated and pairing.byes == () and len(seated) == 8


def test_a_round_that_can_only_repeat_is_refused() -> None:
    """Rule 1: two players who have met cannot be paired again."""
    history = played(History(players(2), SEED), swiss.pair(History(players(2), SEED)))
    with pytest.raises(PairingError, match="round 2 cannot be paired without a repeat"):
        swiss.pair(history)
