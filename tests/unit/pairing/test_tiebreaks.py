"""Standings and their tie-breaks (service/pairing/tiebreaks.py), computed by hand."""

from __future__ import annotations

from service.pairing import standings_of
from service.pairing.draw import draw_key
from service.pairing.history import Game, History, RoundRecord
from tests.support.tournaments import SEED

SWISS = ("points", "buchholz", "sonneborn_berger", "draw")
ROUND_ROBIN = ("points", "head_to_head", "sonneborn_berger", "draw")
TABLES = ("points", "total_score", "draw")
TWO = {"seats": [2, 2], "legs": 1}


def win(a: str, b: str) -> Game:
    return Game((a, b), {a: 2, b: 0}, {a: 1, b: 0})


def draw(a: str, b: str) -> Game:
    return Game((a, b), {a: 1, b: 1}, {a: 0, b: 0})


def history(players: str, *rounds: list[Game]) -> History:
    return History(
        tuple(players),
        SEED,
        tuple(
            RoundRecord(n, tuple(g.players for g in games), (), tuple((g,) for g in games))
            for n, games in enumerate(rounds, 1)
        ),
    )


def order(
    format: str, h: History, tie_breaks: tuple[str, ...], options: dict | None = None
) -> list[str]:
    return [s.player_id for s in standings_of(format, h, tie_breaks, options or TWO)]


def test_buchholz_ranks_the_player_with_stronger_opponents_higher() -> None:
    """Round 1: A beats B, C draws D; round 2: A beats C, B beats D. Points A 4, B 2, C 1,
    D 1. C and D tie on 1: Buchholz C = D 1 + A 4 = 5, D = C 1 + B 2 = 3: C above D."""
    h = history("ABCD", [win("A", "B"), draw("C", "D")], [win("A", "C"), win("B", "D")])
    standing = standings_of("swiss", h, SWISS, TWO)
    assert [s.player_id for s in standing] == ["A", "B", "C", "D"]
    assert {s.player_id: s.tie_breaks["buchholz"] for s in standing} == {
        "A": 3,
        "B": 5,
        "C": 5,
        "D": 3,
    }


def test_sonneborn_berger_decides_when_buchholz_ties() -> None:
    """Round 1: A beats B, C draws D; round 2: A draws C, B beats D. Points A 3, B 2, C 2,
    D 1. B and C: Buchholz B = A 3 + D 1 = 4, C = D 1 + A 3 = 4, level; Sonneborn-Berger
    B = 0 (lost to A) + 2 x 1 (beat D) = 2, C = 1 x 1 (drew D) + 1 x 3 (drew A) = 4: C
    above B."""
    h = history("ABCD", [win("A", "B"), draw("C", "D")], [draw("A", "C"), win("B", "D")])
    standing = {s.player_id: s for s in standings_of("swiss", h, SWISS, TWO)}
    assert standing["B"].tie_breaks["buchholz"] == standing["C"].tie_breaks["buchholz"] == 4
    assert (
        standing["B"].tie_breaks["sonneborn_berger"],
        standing["C"].tie_breaks["sonneborn_berger"],
    ) == (2, 4)
    assert order("swiss", h, SWISS) == ["A", "C", "B", "D"]


def test_the_draw_from_the_seed_settles_a_tie_on_everything_else() -> None:
    """A beats B, C beats D: A and C level on points 2, Buchholz 0, Sonneborn-Berger 0;
    the lower draw key (SHA-256 of seed, "standing", player) ranks first."""
    h = history("ABCD", [win("A", "B"), win("C", "D")])
    expected = sorted("AC", key=lambda p: draw_key(SEED, "standing", p))
    assert order("swiss", h, SWISS)[:2] == expected


def test_head_to_head_comes_before_sonneborn_berger_in_a_round_robin() -> None:
    """A beats B and C, D beats A; B beats C and D; C beats D. Points A 4, B 4, C 2, D 2.
    Head-to-head: A beat B (A first); C beat D (C third), though Sonneborn-Berger would
    put D (2 x 4, beating A) above C (2 x 2, beating D)."""
    h = history(
        "ABCD",
        [win("A", "B"), win("C", "D")],
        [win("A", "C"), win("B", "D")],
        [win("D", "A"), win("B", "C")],
    )
    standing = {s.player_id: s for s in standings_of("round_robin", h, ROUND_ROBIN, TWO)}
    assert (
        standing["D"].tie_breaks["sonneborn_berger"] > standing["C"].tie_breaks["sonneborn_berger"]
    )
    assert order("round_robin", h, ROUND_ROBIN) == ["A", "B", "C", "D"]


def test_tables_break_ties_on_points_by_total_score() -> None:
    """Two tables of three: first places score 4 each; the one with the higher game score
    (30 against 12) ranks first."""
    one = Game(("A", "B", "C"), {"A": 4, "B": 2, "C": 0}, {"A": 30, "B": 20, "C": 10})
    two = Game(("D", "E", "F"), {"D": 4, "E": 2, "F": 0}, {"D": 12, "E": 11, "F": 1})
    h = History(
        tuple("ABCDEF"), SEED, (RoundRecord(1, (one.players, two.players), (), ((one,), (two,))),)
    )
    assert order("tables", h, TABLES, {"seats": [3, 3]}) == ["A", "D", "B", "E", "C", "F"]


def test_a_swiss_bye_counts_as_a_win_in_the_standing() -> None:
    """A bye in Swiss is worth 2 points; it adds nothing to Buchholz."""
    h = History(tuple("ABC"), SEED, (RoundRecord(1, (("A", "B"),), ("C",), ((win("A", "B"),),)),))
    standing = {s.player_id: s for s in standings_of("swiss", h, SWISS, TWO)}
    assert standing["C"].points == 2 and standing["C"].tie_breaks["buchholz"] == 0


def test_the_standing_json_is_what_finished_records() -> None:
    """rank, player_id, points, tie_breaks by name, withdrawn."""
    h = history("AB", [win("A", "B")])
    entry = standings_of("swiss", h, SWISS, TWO)[0].to_json()
    assert entry["rank"] == 1 and entry["player_id"] == "A" and entry["points"] == 2
    assert set(entry["tie_breaks"]) == set(SWISS) and entry["withdrawn"] is False
