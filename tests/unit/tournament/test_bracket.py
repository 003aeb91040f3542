"""An elimination's bracket as the tournament page draws it (service/tournaments/bracket.py):
the pairing's own bracket (service/pairing/elimination.py), slot by slot, from the seeds
and the rounds a tournament records. One behaviour a test."""

from __future__ import annotations

from typing import Any

from service.pairing import elimination
from service.pairing.history import History
from service.tournaments.bracket import EMPTY, PLAYER, UNDECIDED, Bracket, bracket
from tests.support.tournaments import SEED, players


def slots(drawn: Bracket) -> list[list[tuple[str | None, str | None]]]:
    """Returns each round's matches as their two slots' players (None: no player)."""
    return [[(m.first.player_id, m.second.player_id) for m in column] for column in drawn.rounds]


def record(number: int, tables: list[list[str]], byes: list[str], **rest: Any) -> dict[str, Any]:
    """Returns a round as the aggregate records it (RoundPaired, then its links)."""
    links = rest.get("links", [[f"m{number}-{t}"] for t in range(1, len(tables) + 1)])
    advancing = rest.get("advancing", [])
    return {
        "round": number,
        "tables": tables,
        "byes": byes,
        "links": links,
        "completed": bool(advancing),
        "advancing": advancing,
    }


def test_before_round_1_the_bracket_is_drawn_from_the_seeds_with_the_top_seeds_byes() -> None:
    """Six players in a bracket of eight (1 8 4 5 2 7 3 6): seeds 1 and 2 meet empty slots
    and go on by a bye, as the pairing gives them; the rest is undecided."""
    field = players(6)
    drawn = bracket(field, [])
    assert slots(drawn) == [
        [("p1", None), ("p4", "p5"), ("p2", None), ("p3", "p6")],
        [("p1", None), ("p2", None)],
        [(None, None)],
    ]
    first, second, final = drawn.rounds
    assert [(m.winner, m.by) for m in first] == [
        ("p1", "bye"),
        (None, None),
        ("p2", "bye"),
        (None, None),
    ]
    assert second[0].second.kind == UNDECIDED and final[0].first.kind == UNDECIDED
    assert first[0].second.kind == EMPTY and first[0].first.seed == 1
    pairing = elimination.pair(History(field, SEED), 3)
    assert pairing is not None and pairing.byes == ("p1", "p2")  # the pairing agrees


def test_a_paired_round_names_each_match_s_table_and_its_linked_matches() -> None:
    field = players(4)
    drawn = bracket(field, [record(1, [["p1", "p4"], ["p2", "p3"]], [])])
    assert [(m.table, m.match_ids) for m in drawn.rounds[0]] == [(1, ("m1-1",)), (2, ("m1-2",))]
    assert all(m.winner is None for m in drawn.rounds[0])  # not complete: nobody goes on yet


def test_who_goes_on_comes_from_the_completed_round_by_result_bye_or_seed() -> None:
    """A withdrawn seed 4's opponent goes on by a bye (its table is never played); a table
    drawn four times goes to the higher seed; the final then pairs those two."""
    field = players(4)
    rounds = [
        record(
            1,
            [["p2", "p3"]],
            ["p1"],
            links=[["a", "b", "c", "d"]],
            advancing=[
                {"player_id": "p2", "table": 1, "by": "seed"},
                {"player_id": "p1", "table": 0, "by": "bye"},
            ],
        )
    ]
    drawn = bracket(field, rounds)
    first, final = drawn.rounds
    assert [(m.winner, m.by) for m in first] == [("p1", "bye"), ("p2", "seed")]
    assert first[0].table is None and first[1].match_ids == ("a", "b", "c", "d")
    assert slots(drawn)[1] == [("p1", "p2")]
    assert (final[0].first.seed, final[0].second.seed) == (1, 2)
    assert final[0].first.kind == PLAYER and final[0].winner is None


def test_a_field_of_one_or_none_has_no_bracket() -> None:
    assert bracket(players(1), []).rounds == () == bracket((), []).rounds
