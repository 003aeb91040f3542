"""Single elimination with seeding (service/pairing/elimination.py): one rule a test."""

from __future__ import annotations

from service.pairing import elimination
from service.pairing.history import Game, History, RoundRecord
from tests.support.tournaments import SEED, game, played, players


def drawn(table: tuple[str, ...]) -> Game:
    return game(table, dict.fromkeys(table, 1))


def p5_beats_p4(table: tuple[str, ...]) -> dict[str, int]:
    """Returns the placements where p5 beats p4 and otherwise the higher seed wins."""
    winner = "p5" if "p5" in table else table[0]
    return {player: 1 if player == winner else 2 for player in table}


def test_a_bracket_of_eight_is_one_v_eight_four_v_five_two_v_seven_three_v_six() -> None:
    """The standard bracket, higher seed first."""
    pairing = elimination.pair(History(players(8), SEED), 3)
    assert pairing is not None
    assert pairing.tables == (("p1", "p8"), ("p4", "p5"), ("p2", "p7"), ("p3", "p6"))


def test_the_bracket_of_sixteen_is_the_standard_one() -> None:
    """1 16 8 9 4 13 5 12 2 15 7 10 3 14 6 11."""
    assert elimination.bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_byes_go_to_the_top_seeds_when_the_field_is_not_a_power_of_two() -> None:
    """Six players: seeds 1 and 2 have byes, 4 v 5 and 3 v 6 play."""
    pairing = elimination.pair(History(players(6), SEED), 3)
    assert pairing is not None
    assert pairing.byes == ("p1", "p2") and pairing.tables == (("p4", "p5"), ("p3", "p6"))


def test_winners_meet_in_bracket_order_to_the_final() -> None:
    """Eight players, higher seeds winning: 1 v 4 and 2 v 3, then 1 v 2, then done."""
    history = History(players(8), SEED)
    tables = []
    while (pairing := elimination.pair(history, 3)) is not None:
        tables.append(pairing.tables)
        history = played(history, pairing)
    assert tables[1:] == [(("p1", "p4"), ("p2", "p3")), (("p1", "p2"),)]
    assert elimination.rounds_needed(8) == 3


def test_an_upset_winner_goes_on_in_the_loser_s_place() -> None:
    """p5 beats p4: round 2 pairs p1 against p5."""
    history = History(players(8), SEED)
    first = elimination.pair(history, 3)
    assert first is not None
    upset = played(history, first, p5_beats_p4)
    second = elimination.pair(upset, 3)
    assert second is not None and second.tables[0] == ("p1", "p5")


def test_a_drawn_match_is_replayed() -> None:
    """A drawn game decides nothing while replays are left: the table plays again."""
    decision = elimination.decide([drawn(("p4", "p5"))], players(8), 3)
    assert decision.advances is None and decision.replay


def test_a_drawn_district_war_match_is_replayed_by_its_own_rematch() -> None:
    """DW-5: District War's draw is replayed by the match's rematch; other games by a new
    match of the same table."""
    assert elimination.replay_kind("district_war") == "rematch"
    assert elimination.replay_kind("dris_et_tessa") == "new_match"


def test_a_replay_swaps_the_seats() -> None:
    """Attempts 2 and 4 seat the lower seed first, attempt 3 the higher again."""
    assert [elimination.replay_seats(("p4", "p5"), n) for n in (1, 2, 3, 4)] == [
        ("p4", "p5"),
        ("p5", "p4"),
        ("p4", "p5"),
        ("p5", "p4"),
    ]


def test_the_higher_seed_advances_after_three_drawn_replays() -> None:
    """Elimination of 8: p4 v p5 drawn, then drawn in all three replays: p4, the higher
    seed, advances, recorded `by: "seed"`, and meets p1 in round 2."""
    history = History(players(8), SEED)
    first = elimination.pair(history, 3)
    assert first is not None
    games = []
    for table in first.tables:
        if set(table) == {"p4", "p5"}:
            games.append(tuple(drawn(elimination.replay_seats(table, n)) for n in (1, 2, 3, 4)))
        else:
            games.append((game(table, {table[0]: 1, table[1]: 2}),))
    history = History(history.players, SEED, (RoundRecord(1, first.tables, (), tuple(games)),))
    advancing = elimination.advancing(history, 1, 3)
    assert {"player_id": "p4", "table": 2, "by": "seed"} in advancing
    assert [a["player_id"] for a in advancing] == ["p1", "p4", "p2", "p3"]
    second = elimination.pair(history, 3)
    assert second is not None and second.tables[0] == ("p1", "p4")


def test_a_replay_won_decides_the_table() -> None:
    """A draw then a win by the lower seed: the lower seed advances by result."""
    games = [drawn(("p4", "p5")), game(("p5", "p4"), {"p5": 1, "p4": 2})]
    decision = elimination.decide(games, players(8), 3)
    assert (decision.advances, decision.by) == ("p5", "result")


def test_no_replays_allowed_means_the_higher_seed_advances_at_once() -> None:
    """max_replays 0: a drawn match gives the higher seed the table."""
    decision = elimination.decide([drawn(("p5", "p4"))], players(8), 0)
    assert (decision.advances, decision.by) == ("p4", "seed")


def test_a_withdrawn_player_s_opponent_advances_with_a_bye() -> None:
    """p8 withdraws before round 1: p1 has a bye and the other three tables play."""
    pairing = elimination.pair(History(players(8), SEED, (), frozenset({"p8"})), 3)
    assert pairing is not None
    assert pairing.byes == ("p1",) and len(pairing.tables) == 3
