"""A Swiss planned for more rounds than its field is sure to pair is refused before
round 1 (service/pairing/swiss.py `check_field`, called by the running tournament), with
registration still open; the sweep's backstop goes on with the other tournaments. On
SQLite and PostgreSQL, through the Tournaments facade."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from service.matches import Matches
from service.pairing.swiss import FieldTooSmallError
from service.settings import Settings
from service.tournaments import Tournaments
from tests.support.tournament_games import OPERATOR, entered


@pytest.fixture
def app(database_url: str, clock: Any) -> Iterator[Matches]:
    matches = Matches(
        env=Settings(database_url).event_store_env(), clock=clock, operator_token=OPERATOR
    )
    yield matches
    matches.close()


def test_a_swiss_of_five_rounds_waits_for_nine_players(app: Matches) -> None:
    tournaments = Tournaments(app)
    tid = tournaments.create("Open", "swiss", "district_war", rounds=5).tournament_id
    entered(tournaments, tid, [f"p{n}" for n in range(1, 9)])
    with pytest.raises(FieldTooSmallError, match="5 rounds needs at least 9 players"):
        tournaments.advance(tid)
    assert tournaments.get(tid).rounds == []
    entered(tournaments, tid, ["p9"])  # registration is still open
    assert tournaments.advance(tid)[0] == "round 1 paired"


def test_the_sweep_advances_the_other_tournaments_past_a_refused_one(app: Matches) -> None:
    tournaments = Tournaments(app)
    stuck = tournaments.create("Too big", "swiss", "district_war", rounds=3).tournament_id
    entered(tournaments, stuck, ["a1", "a2", "a3", "a4"])
    fine = tournaments.create("Fine", "swiss", "district_war").tournament_id
    entered(tournaments, fine, ["b1", "b2", "b3", "b4"])
    taken = tournaments.advance_all()
    assert str(stuck) not in taken and taken[str(fine)][0] == "round 1 paired"
