"""The process's cache of tournaments (service/tournaments/cache.py), on SQLite and
PostgreSQL: a tournament read again is brought up to date with what another process
wrote, a reader's unsaved change never reaches the next reader, and the index of links
finds a match linked after its first lookup."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from service.matches import Matches
from service.settings import Settings
from service.tournaments import Tournaments
from tests.support.tournament_games import OPERATOR, entered, latest_matches


def opened(database_url: str, clock: Any) -> Matches:
    return Matches(
        env=Settings(database_url).event_store_env(), clock=clock, operator_token=OPERATOR
    )


@pytest.fixture
def two(database_url: str, clock: Any) -> Iterator[tuple[Tournaments, Tournaments]]:
    """Two processes' services on the same database (each with its own cache)."""
    first, second = opened(database_url, clock), opened(database_url, clock)
    yield Tournaments(first), Tournaments(second)
    first.close()
    second.close()


def test_a_cached_tournament_shows_what_another_process_wrote(
    two: tuple[Tournaments, Tournaments],
) -> None:
    mine, theirs = two
    tid = mine.create("Cup", "round_robin", "district_war").tournament_id
    entered(mine, tid, ["ada", "bo"])
    assert len(mine.get(tid).players) == 2  # now cached here
    entered(theirs, tid, ["cy"])
    assert len(mine.get(tid).players) == 3
    assert mine.get(tid).version == theirs.get(tid).version


def test_a_readers_unsaved_change_stays_its_own(two: tuple[Tournaments, Tournaments]) -> None:
    mine, _ = two
    tid = mine.create("Cup", "round_robin", "district_war").tournament_id
    entered(mine, tid, ["ada", "bo"])
    read = mine.get(tid)
    read.pause("not saved", mine.store.clock())
    assert read.paused is not None
    assert mine.get(tid).paused is None


def test_a_match_linked_after_a_first_lookup_is_found(
    two: tuple[Tournaments, Tournaments],
) -> None:
    mine, theirs = two
    tid = mine.create("Cup", "round_robin", "district_war").tournament_id
    entered(mine, tid, ["ada", "bo"])
    assert mine.tournament_of("00000000-0000-0000-0000-000000000000") is None
    theirs.advance(tid)
    (match_id,) = latest_matches(theirs, tid)
    assert mine.tournament_of(match_id) == tid
