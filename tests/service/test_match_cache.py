"""The matches a process keeps between commands (service/store/matchcache.py, issue 30): a kept
match is the stored one, brought up to date from the store before each command, so that
several processes (here: several applications on one store) still decide on the match as
stored, and a lost race still retries from the store."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import DrtsError
from domain.integrity import commitment
from domain.match import Match
from service.matches import Matches
from service.settings import Settings
from service.store.matchcache import MatchCache, cache_size
from tests.support.matches import started

pytestmark = pytest.mark.usefixtures("toy_rulesets")


def kept(app: Matches, match_id: Any) -> Match | None:
    """Returns the match the application keeps, leaving it kept."""
    match = app.store.kept.take(match_id)
    if match is not None:
        app.store.kept.put(match)
    return match


def second_process(database_url: str, clock: Any, **env: str) -> Matches:
    """Another application on the same store: what another API or worker process is."""
    return Matches(env={**Settings(database_url).event_store_env(), **env}, clock=clock)


def test_a_kept_match_equals_the_match_loaded_from_the_store(matches):
    new, alice, bob = started(matches, {"rounds": 5})
    matches.submit_order(new.match_id, alice.token, "1")
    with pytest.raises(DrtsError):  # a refused order is recorded, and the match kept
        matches.submit_order(new.match_id, alice.token, "not a number")
    matches.submit_order(new.match_id, bob.token, "2")  # ready: the movement resolves
    stored = matches.get_match(new.match_id)
    assert stored.movement == 2
    assert kept(matches, new.match_id) == stored


def test_a_command_sees_what_another_process_stored_since(matches, database_url, clock):
    new, alice, bob = started(matches, {"rounds": 5})
    matches.submit_order(new.match_id, alice.token, "1")
    before = kept(matches, new.match_id)
    assert before is not None
    other = second_process(database_url, clock)
    try:
        other.submit_order(new.match_id, bob.token, "2")  # resolves movement 1 over there
    finally:
        other.close()
    receipt = matches.submit_order(new.match_id, alice.token, "3")
    assert receipt.movement == 2  # decided on the match as stored, not as kept
    assert kept(matches, new.match_id) == matches.get_match(new.match_id)


def test_a_race_lost_under_a_kept_match_retries_from_the_store(matches, database_url, clock):
    new, alice, bob = started(matches, {"rounds": 5})
    matches.submit_order(new.match_id, alice.token, "1")
    other = second_process(database_url, clock)
    attempts: list[int] = []

    def submit_after_the_other(match: Match) -> int:
        attempts.append(match.version)
        if len(attempts) == 1:  # the other process saves between our load and our save
            other.submit_order(new.match_id, bob.token, "2")
        match.submit_order(commitment(bob.token), "3", "salt", clock())
        return match.version

    try:
        version = matches.store.retrying(new.match_id, submit_after_the_other)
    finally:
        other.close()
    assert len(attempts) == 2 and attempts[1] > attempts[0]  # the retry loaded newer events
    stored = matches.get_match(new.match_id)
    assert stored.version == version
    assert kept(matches, new.match_id) == stored
    orders = [e["type"] for e in matches.event_log(new.match_id)].count("OrderSubmitted")
    assert orders == 3  # alice's, the other process's, ours: each exactly once


def test_a_command_that_fails_leaves_no_match_kept(matches):
    new, alice, _ = started(matches, {"rounds": 5})
    matches.submit_order(new.match_id, alice.token, "1")

    def fails(match: Match) -> None:
        match.movement = 99  # a half-done change, never saved
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        matches.store.retrying(new.match_id, fails)
    assert kept(matches, new.match_id) is None
    assert matches.get_match(new.match_id).movement == 1


def test_the_cache_keeps_at_most_its_size(database_url, clock):
    app = second_process(database_url, clock, DRTS_MATCH_CACHE_SIZE="1")
    try:
        first, _, _ = started(app)
        second, _, _ = started(app)
        assert len(app.store.kept) == 1
        assert kept(app, second.match_id) is not None and kept(app, first.match_id) is None
    finally:
        app.close()


def test_size_zero_keeps_nothing(database_url, clock):
    app = second_process(database_url, clock, DRTS_MATCH_CACHE_SIZE="0")
    try:
        started(app)
        assert len(app.store.kept) == 0
    finally:
        app.close()


def test_the_size_is_read_from_the_environment():
    assert cache_size({}) == 1_000
    assert cache_size({"DRTS_MATCH_CACHE_SIZE": "5"}) == 5
    with pytest.raises(ValueError, match="DRTS_MATCH_CACHE_SIZE"):
        cache_size({"DRTS_MATCH_CACHE_SIZE": "-1"})


def test_a_match_with_unsaved_events_is_not_kept(matches):
    new, _, _ = started(matches)
    match = matches.get_match(new.match_id)
    match.trigger_event(Match.SecretViewed, viewer="referee", what="x", chain="")  # never saved
    cache = MatchCache(5)
    cache.put(match)
    assert len(cache) == 0
