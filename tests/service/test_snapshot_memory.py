"""A match saved at a version due for a snapshot is snapshotted as it is in memory, not
reloaded (issue 30): the snapshot is byte for byte the one the checked events give, and
this process trusts it (service/store/application.py `_take_snapshots`, docs/integrity.md: a
snapshot is used only once checked against the events, never taken from an unchecked
one)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from eventsourcing.domain import Snapshot

from domain.match import Match
from service.matches import SNAPSHOT_INTERVAL, Matches
from service.store import loading
from service.store.transcodings import snapshot_of
from tests.support.matches import started
from tests.support.snapshots import counting_event_rows, fresh_process

pytestmark = pytest.mark.usefixtures("toy_rulesets")


def reloaded_snapshot_bytes(matches: Matches, row: Any) -> bytes:
    """Returns the stored bytes of the snapshot that folding the match's checked events up
    to the row's version gives, with the row's timestamp (the time it was taken)."""
    match_id = UUID(str(row.originator_id))
    events = loading.checked_events(matches.store, match_id, None, row.originator_version)
    folded = loading.fold(match_id, events)
    assert isinstance(folded, Match) and folded.version == row.originator_version
    taken = snapshot_of(folded)
    again = Snapshot(  # type: ignore[call-arg]
        originator_id=taken.originator_id,
        originator_version=taken.originator_version,
        timestamp=matches.store.mapper.to_domain_event(row).timestamp,
        topic=taken.topic,
        state=taken.state,
    )
    return bytes(matches.store.snapshot_mapper.to_stored_event(again).state)


def assert_every_snapshot_is_the_reloaded_one_and_trusted(matches: Matches, match_id: UUID):
    assert matches.store.snapshots is not None
    rows = matches.store.snapshots.recorder.select_events(match_id)
    assert rows
    for row in rows:
        assert bytes(row.state) == reloaded_snapshot_bytes(matches, row), row.originator_version
        assert matches.store.snapshot_trust.trusted(row)


def play_varied(matches: Matches) -> UUID:
    """Plays a toy match to its end with changed, refused and closing orders; returns its id."""
    new, alice, bob = started(matches, {"rounds": 4})
    for picked in ("1", "2", "3", "2"):
        matches.submit_order(new.match_id, alice.token, "3")
        matches.submit_order(new.match_id, alice.token, picked)  # a changed order
        with pytest.raises(Exception):  # noqa: B017 - any refusal is recorded alike
            matches.submit_order(new.match_id, bob.token, "not a number")
        matches.submit_order(new.match_id, bob.token, "1")  # closes and resolves
    return new.match_id


def test_every_snapshot_taken_in_memory_is_byte_for_byte_the_one_a_reload_gives(matches):
    """Issue 30, 46: with a snapshot due at every version, each save is snapshotted at its
    last version from memory, a resolution's several events once at its end, never by
    reloading; each is what the checked events give, and trusted."""
    matches.store.snapshotting_intervals = {Match: 1}
    saved: list[int] = []
    save = matches.store.save

    def spied(*objs: Any, **kwargs: Any) -> Any:
        recordings = save(*objs, **kwargs)
        saved.append(recordings[-1].domain_event.originator_version)
        return recordings

    def reload(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a snapshot was taken by reloading the match")

    matches.store.save = spied  # type: ignore[method-assign]
    matches.store.take_snapshot = reload  # type: ignore[method-assign]
    match_id = play_varied(matches)
    version = matches.get_match(match_id).version
    assert matches.store.snapshots is not None
    snapshots = matches.store.snapshots.recorder.select_events(match_id)
    assert [row.originator_version for row in snapshots] == saved
    assert saved[-1] == version and len(saved) < version  # resolutions save several events
    assert_every_snapshot_is_the_reloaded_one_and_trusted(matches, match_id)


def test_a_drts_match_snapshotted_in_memory_loads_the_same_in_a_fresh_process(matches):
    """Issue 30: DRTS Team 23 (states, steps, sealed orders) at the usual interval."""
    new = matches.create_match("drts_team23", {"close_early": True}, seed="test-seed")
    tokens = [matches.join(new.match_id, f"p{seat}").token for seat in range(1, 9)]
    assert new.referee_token is not None
    matches.start(new.match_id, new.referee_token)
    while matches.get_match(new.match_id).version < 2 * SNAPSHOT_INTERVAL + 3:
        for token in tokens:
            matches.submit_order(new.match_id, token, "hold")
    assert_every_snapshot_is_the_reloaded_one_and_trusted(matches, new.match_id)
    other = fresh_process(matches)
    try:
        assert other.get_match(new.match_id) == matches.get_match(new.match_id)
    finally:
        other.close()


def test_a_load_starts_from_the_snapshot_taken_in_memory(matches, monkeypatch):
    """Trusted as taken: a load reads its anchor event and the events after it only."""
    new, alice, _ = started(matches, {"close_early": False})
    while matches.get_match(new.match_id).version < SNAPSHOT_INTERVAL + 3:
        matches.submit_order(new.match_id, alice.token, "1")
    version = matches.get_match(new.match_id).version
    rows_read = counting_event_rows(matches, monkeypatch)
    assert matches.get_match(new.match_id).version == version
    assert rows_read() == 1 + version - SNAPSHOT_INTERVAL
