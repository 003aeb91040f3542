"""A later audit re-derives every round from the recorded events (issue 45): the pairing
takes plain data that `history_before` folds from a tournament's events, up to the round
it pairs, so a result corrected afterwards does not change a round paired before it."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain.tournament import Tournament
from domain.tournament.chain import public_item
from service.pairing import UnknownPairingVersionError, pair_next
from service.pairing.history import history_before
from tests.support.tournaments import HEAD, SEED, T0, new_tournament, players


def play_swiss(count: int, rounds: int) -> Tournament:
    """Runs a Swiss through the aggregate: each round paired from the events so far, each
    table won by the player registered earlier."""
    tournament = new_tournament("swiss", players=players(count), rounds=rounds)
    for number in range(1, rounds + 1):
        items = [public_item(e) for e in tournament.pending_events]
        pairing = pair_next(
            "swiss", 1, history_before(items, number, SEED), tournament.options, rounds
        )
        assert pairing is not None
        tournament.pair_round(number, pairing.tables, pairing.byes, T0)
        for index, table in enumerate(pairing.tables, 1):
            match = str(uuid4())
            tournament.link_match(number, index, match, T0)
            winner, loser = sorted(table, key=tournament.players.index)
            tournament.record_result(
                match,
                HEAD,
                {winner: 1, loser: 2},
                {winner: 2, loser: 0},
                {winner: 1, loser: 0},
                1,
                T0,
            )
        tournament.complete_round(number, [], T0)
    return tournament


def test_every_recorded_round_is_re_derived_from_the_events_before_it() -> None:
    """Swiss of 9 over 4 rounds: the pairing of round n from the events before its
    RoundPaired equals the recorded one."""
    tournament = play_swiss(9, 4)
    items = [public_item(e) for e in tournament.pending_events]
    for item in (i for i in items if i["type"] == "RoundPaired"):
        number = item["data"]["round"]
        derived = pair_next(
            "swiss",
            item["data"]["pairing_version"],
            history_before(items, number, SEED),
            tournament.options,
            4,
        )
        assert derived is not None
        assert derived.to_json() == {k: item["data"][k] for k in ("round", "tables", "byes")}


def test_a_correction_after_the_next_pairing_leaves_that_pairing_derivable() -> None:
    """A round 1 result corrected after round 2 was paired: round 2 still re-derives from
    the events before it (the correction is recorded later)."""
    tournament = play_swiss(8, 2)
    match = tournament.rounds[0]["links"][0][0]
    a, b = tournament.rounds[0]["tables"][0]
    tournament.record_result(match, HEAD, {a: 2, b: 1}, {a: 0, b: 2}, {a: 0, b: 1}, 2, T0)
    items = [public_item(e) for e in tournament.pending_events]
    recorded = next(i for i in items if i["type"] == "RoundPaired" and i["data"]["round"] == 2)
    derived = pair_next("swiss", 1, history_before(items, 2, SEED), tournament.options, 2)
    assert derived is not None and [list(t) for t in derived.tables] == recorded["data"]["tables"]


def test_an_unknown_pairing_version_is_refused() -> None:
    """A tournament recorded under a pairing version this drts lacks is not re-paired."""
    with pytest.raises(UnknownPairingVersionError, match="pairing version 9 of 'swiss'"):
        pair_next("swiss", 9, history_before([], 1, SEED), {"seats": [2, 2]})
