"""Rounds of tables for games of more than two seats (service/pairing/tables.py)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from domain.rules.registry import get_ruleset
from service.pairing import tables
from service.pairing.history import History
from service.pairing.points import placement_points, team_placements
from tests.support.tournaments import SEED, played, players


def seats_of(ruleset: str) -> tuple[int, int]:
    info = get_ruleset(ruleset).info
    return info.min_seats, info.max_seats


def test_an_eight_seat_drts_round_seats_eight_at_one_table() -> None:
    """DRTS Team 23 takes exactly 8 seats: 8 players make one table, no bye."""
    pairing = tables.pair(History(players(8), SEED), *seats_of("drts_team23"))
    assert pairing is not None
    assert len(pairing.tables) == 1 and sorted(pairing.tables[0]) == sorted(players(8))
    assert pairing.byes == ()


def test_ten_drts_players_leave_two_byes() -> None:
    """10 DRTS players: one table of 8, the 2 left over have a bye."""
    pairing = tables.pair(History(players(10), SEED), *seats_of("drts_team23"))
    assert pairing is not None
    assert [len(t) for t in pairing.tables] == [8] and len(pairing.byes) == 2


def test_ten_shades_players_at_tables_of_five() -> None:
    """10 Shades players, tables of 5: two tables of 5; 11 players: one bye."""
    pairing = tables.pair(History(players(10), SEED), 5, 5)
    assert pairing is not None and [len(t) for t in pairing.tables] == [5, 5]
    assert pairing.byes == ()
    eleven = tables.pair(History(players(11), SEED), 5, 5)
    assert eleven is not None and len(eleven.byes) == 1


def test_tables_are_filled_as_evenly_as_the_seat_counts_allow() -> None:
    """Shades' 2 to 8 seats: 10 players make 5 + 5, 17 make 6 + 6 + 5; tables of 5 to 6
    with 7 players seat 6 and leave 1."""
    assert tables.table_sizes(10, *seats_of("shades")) == [5, 5]
    assert tables.table_sizes(17, *seats_of("b_chess")) == [6, 6, 5]
    assert tables.table_sizes(7, 5, 6) == [6]
    assert tables.table_sizes(3, 4, 8) == []


def test_the_bye_goes_to_the_lowest_ranked_without_one() -> None:
    """10 DRTS players over 5 rounds: 2 byes a round, each player exactly one."""
    history = History(players(10), SEED)
    for _ in range(5):
        pairing = tables.pair(history, 8, 8)
        assert pairing is not None
        order = tables.standing_order(history)
        had = {p for record in history.rounds for p in record.byes}
        assert set(pairing.byes) == set([p for p in reversed(order) if p not in had][:2])
        history = played(history, pairing)
    assert sorted(p for record in history.rounds for p in record.byes) == sorted(players(10))


def test_seats_rotate_every_seat_once_in_eight_rounds() -> None:
    """8 DRTS players over 8 rounds: each player sits in each of the 8 seats once."""
    history = History(players(8), SEED)
    for _ in range(8):
        pairing = tables.pair(history, 8, 8)
        assert pairing is not None
        history = played(history, pairing)
    for player in players(8):
        seats = [record.tables[0].index(player) for record in history.rounds]
        assert sorted(seats) == list(range(8))


def test_later_rounds_seat_the_leaders_together() -> None:
    """Round 2 of 10 Shades players at tables of 5: the five with most points at table 1."""
    history = History(players(10), SEED)
    first = tables.pair(history, 5, 5)
    assert first is not None
    history = played(history, first)
    points, _ = tables.totals(history)
    second = tables.pair(history, 5, 5)
    assert second is not None
    top = sorted(points.values(), reverse=True)[:5]
    assert sorted((points[p] for p in second.tables[0]), reverse=True) == top


def test_a_table_is_scored_by_placement() -> None:
    """2 per player placed below, 1 per player level: places 1, 2, 2, 4 score 6, 3, 3, 0."""
    assert placement_points({"a": 1, "b": 2, "c": 2, "d": 4}) == {"a": 6, "b": 3, "c": 3, "d": 0}


@given(st.integers(min_value=0, max_value=30), st.integers(2, 8), st.integers(0, 6))
def test_every_player_is_seated_or_has_a_bye_once(count: int, low: int, span: int) -> None:
    """Any field and seat bounds: each active player once, tables within the bounds and
    differing by at most one."""
    high = min(8, low + span)
    pairing = tables.pair(History(players(count), SEED), low, high)
    if pairing is None:
        assert count < low
        return
    seated = Counter(p for t in pairing.tables for p in t) + Counter(pairing.byes)
    assert sorted(seated) == sorted(players(count)) and set(seated.values()) == {1}
    sizes = [len(t) for t in pairing.tables]
    assert all(low <= s <= high for s in sizes) and max(sizes) - min(sizes) <= 1


def test_a_drts_seat_is_placed_by_its_team_then_its_own_score() -> None:
    """DRTS Team 23: the team's result first (red 5 beats blue 3), then the seat's score;
    a seat of the winning team with a low score still places above every losing seat."""
    team_of = {"a": "red", "b": "red", "c": "blue", "d": "blue"}
    placements = team_placements(team_of, {"red": 5, "blue": 3}, {"a": 1, "b": 4, "c": 9, "d": 9})
    assert placements == {"b": 1, "a": 2, "c": 3, "d": 3}
