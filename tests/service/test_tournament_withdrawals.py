"""Withdrawals during an event (issue 45: "withdraw a player (their later games are
forfeits or byes as the format says)"), through the Tournaments facade on SQLite and
PostgreSQL: a round robin whose round holds only walkovers still plays it, and a Swiss
that withdrawals leave unpairable without a repeat meeting finishes early instead of
waiting for ever. Both tournaments finish, reveal their seed and verify."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from service.matches import Matches
from service.settings import Settings
from service.tournaments import Tournaments
from tests.support.tournament_games import OPERATOR, entered, forfeit, latest_matches


@pytest.fixture
def app(database_url: str, clock: Any) -> Iterator[Matches]:
    matches = Matches(
        env=Settings(database_url).event_store_env(), clock=clock, operator_token=OPERATOR
    )
    yield matches
    matches.close()


def run_to_the_end(app: Matches, tournaments: Tournaments, tid: UUID) -> list[str]:
    """Advances the tournament, each round's matches won by their first seat, until
    nothing is due; returns every step taken."""
    steps: list[str] = []
    for _ in range(40):
        if tournaments.get(tid).rounds:
            for match_id in latest_matches(tournaments, tid):
                if not app.get_match(match_id).finished:
                    forfeit(app, match_id)
        taken = tournaments.advance(tid)
        if not taken:
            return steps
        steps += taken
    raise AssertionError(f"the tournament never settled: {steps}")


def test_a_round_robin_round_of_walkovers_alone_is_played(app: Matches) -> None:
    tournaments = Tournaments(app)
    new = tournaments.create("Spring", "round_robin", "district_war")
    tid = new.tournament_id
    made = entered(tournaments, tid, ["ada", "bo", "cy", "di"])
    tournaments.advance(tid)
    first_round = tournaments.get(tid).rounds[0]["tables"]
    for name in (made[first_round[1][0]].name, made[first_round[1][1]].name):
        tournaments.withdraw(tid, name, new.organiser_token, "left")
    steps = run_to_the_end(app, tournaments, tid)
    rounds = tournaments.get(tid).rounds
    assert len(rounds) == 3 and all(r["completed"] for r in rounds)
    # the two left met in round 1; each of rounds 2 and 3 pairs each of them with one
    # who withdrew: walkovers alone
    assert [len(r["tables"]) for r in rounds] == [1 + 1, 0, 0]
    assert all(sorted(r["byes"]) == sorted(first_round[0]) for r in rounds[1:])
    assert "finished" in steps and "seed revealed" in steps
    assert tournaments.verify(tid).ok


def test_a_swiss_left_unpairable_by_withdrawals_finishes_early(app: Matches) -> None:
    tournaments = Tournaments(app)
    new = tournaments.create("Open", "swiss", "district_war", rounds=2)
    tid = new.tournament_id
    made = entered(tournaments, tid, ["ada", "bo", "cy", "di"])
    tournaments.advance(tid)
    first_round = tournaments.get(tid).rounds[0]["tables"]
    for name in (made[first_round[1][0]].name, made[first_round[1][1]].name):
        tournaments.withdraw(tid, name, new.organiser_token, "left")
    steps = run_to_the_end(app, tournaments, tid)
    found = tournaments.get(tid)
    assert len(found.rounds) == 1 and found.finished
    assert "finished early: round 2 cannot be paired without a repeat meeting" in steps
    points = {entry["player_id"]: entry["points"] for entry in found.standing}
    winner, loser = first_round[0]  # the first seat won each match
    assert points[winner] == max(points.values()) > points[loser] == 0
    assert tournaments.verify(tid).ok


def test_a_swiss_with_one_player_left_finishes_early(app: Matches) -> None:
    tournaments = Tournaments(app)
    new = tournaments.create("Open", "swiss", "district_war", rounds=2)
    tid = new.tournament_id
    made = entered(tournaments, tid, ["ada", "bo", "cy"])
    tournaments.advance(tid)
    first = tournaments.get(tid).rounds[0]
    for player in first["tables"][0]:
        tournaments.withdraw(tid, made[player].name, new.organiser_token, "left")
    steps = run_to_the_end(app, tournaments, tid)
    assert "finished early: round 2 cannot be paired: 1 player is left" in steps
    assert tournaments.get(tid).finished and tournaments.verify(tid).ok
