"""Reads of a match's past keep what never changes (service/store/pastreads.py, issue 30): the
match at a past version, the head after it, the latest match while nothing was stored
since, and a replay report for the same log head."""

from __future__ import annotations

import pytest

from service.matches import Matches
from service.queries import replays
from service.settings import Settings
from service.store.pastreads import past_cache_size
from tests.support.matches import started

pytestmark = pytest.mark.usefixtures("toy_rulesets")


def played(matches: Matches) -> tuple[str, str, str]:
    """Returns a match in movement 3 (two resolved) and its seats' tokens."""
    new, alice, bob = started(matches, {"rounds": 5})
    for _ in range(2):
        matches.submit_order(new.match_id, alice.token, "1")
        matches.submit_order(new.match_id, bob.token, "2")
    return str(new.match_id), alice.token, bob.token


def test_a_past_state_read_twice_is_the_same_and_loaded_once(matches):
    match_id, _, _ = played(matches)
    first = matches.state(match_id, movement=1)
    loads = len(matches.store.past.versions)
    again = matches.state(match_id, movement=1)
    assert again == first
    assert len(matches.store.past.versions) == loads >= 1
    fresh = Matches(env=matches.env, clock=matches.clock)  # nothing kept: loads from the store
    try:
        assert fresh.state(match_id, movement=1) == first
    finally:
        fresh.close()


def test_a_write_since_is_seen_by_the_next_read(matches, database_url, clock):
    match_id, alice, _ = played(matches)
    before = matches.state(match_id, token=alice)
    other = Matches(env=Settings(database_url).event_store_env(), clock=clock)  # another process
    try:
        other.submit_order(match_id, alice, "3")
    finally:
        other.close()
    after = matches.state(match_id, token=alice)
    assert after.version == before.version + 1  # the order stored over there
    assert after.movement == before.movement == 3
    assert [o["order"] for o in after.orders] != [o["order"] for o in before.orders]


def test_a_replay_is_kept_for_its_log_head_and_made_again_after_a_write(matches):
    match_id, alice, bob = played(matches)
    first = matches.replay(match_id)
    assert matches.replay(match_id) is first  # the same head: the report kept
    matches.submit_order(match_id, alice, "3")
    matches.submit_order(match_id, bob, "1")  # movement 3 resolves
    again = matches.replay(match_id)
    assert again is not first and again.agrees
    assert len(again.frames) == len(first.frames) + 1


def test_a_replay_is_of_the_head_it_read_when_a_write_lands_before_its_rows(
    matches, database_url, clock, monkeypatch
):
    """Issue 46: the replay folds the rows up to the version of the match it read and
    checks against that match, so the report kept under that head is that head's."""
    match_id, alice, _ = played(matches)
    head = matches.state(match_id).version
    the_replay = replays.replay

    def replay_after_a_write(*args, **kwargs):  # another process writes meanwhile
        other = Matches(env=Settings(database_url).event_store_env(), clock=clock)
        try:
            other.submit_order(match_id, alice, "3")
        finally:
            other.close()
        return the_replay(*args, **kwargs)

    monkeypatch.setattr(replays, "replay", replay_after_a_write)
    report = matches.replay(match_id)
    assert (report.events, report.agrees) == (head, True)
    monkeypatch.setattr(replays, "replay", the_replay)
    again = matches.replay(match_id)  # a new head: a new report, with the order
    assert (again.events, again.agrees) == (head + 1, True)


def test_size_zero_keeps_nothing(database_url, clock):
    app = Matches(
        env={**Settings(database_url).event_store_env(), "DRTS_PAST_CACHE_SIZE": "0"}, clock=clock
    )
    try:
        match_id, _, _ = played(app)
        app.state(match_id, movement=1)
        app.replay(match_id)
        assert (
            len(app.store.past.versions),
            len(app.store.past.latest),
            len(app.store.past.replays),
        ) == (0, 0, 0)
    finally:
        app.close()


def test_the_size_is_read_from_the_environment():
    assert past_cache_size({}) == 500
    assert past_cache_size({"DRTS_PAST_CACHE_SIZE": "7"}) == 7
    with pytest.raises(ValueError, match="DRTS_PAST_CACHE_SIZE"):
        past_cache_size({"DRTS_PAST_CACHE_SIZE": "-1"})
