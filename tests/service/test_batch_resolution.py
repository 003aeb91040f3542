"""A batch of due movements resolved together (issue 31): each match in its own
transaction, one that fails counted and quarantined while the others resolve (DESIGN.md
Isolation), exactly once, on SQLite and PostgreSQL.

`toy_fragile` (tests/service/test_match_quarantine.py) is the toy whose resolution raises.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID, uuid4

import pytest

from domain.rules import registry
from service.clock import ManualClock
from service.matches import Matches
from service.readmodels.recorders import FAILURES
from service.results import DueMovement
from service.settings import Settings
from service.store.logguard import LogGuard
from service.usecases import batches
from service.usecases.resolution import SETTLING
from tests.support.quarantine import FIXED, started

pytestmark = pytest.mark.usefixtures("toy_rulesets", "fragile")


def due_batch(matches: Matches, clock: ManualClock) -> list[DueMovement]:
    """Lets every deadline pass; returns what the sweep finds due, as it would batch it."""
    clock.advance(61)
    return matches.due_movements()


def resolved(matches: Matches, match_id: UUID) -> int:
    return sum(item["type"] == "MovementResolved" for item in matches.event_log(match_id))


def test_a_batch_resolves_each_match_once_and_a_failing_one_holds_back_none(
    matches: Matches, clock: ManualClock
) -> None:
    good = [started(matches)[0] for _ in range(3)]
    bad, _ = started(matches, "toy_fragile")
    batch = due_batch(matches, clock)
    assert {due.match_id for due in batch} == {*good, bad}
    closings = matches.resolve_batch(batch)
    by_match = {due.match_id: closing for due, closing in zip(batch, closings, strict=True)}
    assert by_match[bad] is None
    assert all(by_match[match_id] is not None for match_id in good)
    assert [matches.summary(match_id).movement for match_id in good] == [2, 2, 2]
    assert matches.summary(bad).movement == 1
    assert matches.resolve_batch(batch) == [None] * 4  # again: nothing due, nothing twice
    assert [resolved(matches, match_id) for match_id in good] == [1, 1, 1]


def test_a_match_failing_in_three_batches_is_quarantined_and_left_out_of_the_next(
    matches: Matches, clock: ManualClock
) -> None:
    good = started(matches)[0]
    bad, _ = started(matches, "toy_fragile")
    for _ in range(3):
        matches.resolve_batch(due_batch(matches, clock))
    [listed] = matches.quarantined_matches()
    assert (listed.match_id, listed.movement, listed.failures) == (bad, 1, 3)
    assert [due.match_id for due in due_batch(matches, clock)] == [good]
    assert resolved(matches, good) == 3 and resolved(matches, bad) == 0


def failure_rows(matches: Matches) -> list[UUID]:
    rows = matches.read_models.view("deadlines").query(f"SELECT match_id FROM {{{FAILURES}}}")
    return [row["match_id"] for row in rows]


def test_a_success_in_a_batch_forgets_the_failures_counted_for_its_match(
    matches: Matches, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad, _ = started(matches, "toy_fragile")
    other = started(matches)[0]
    matches.resolve_batch(due_batch(matches, clock))
    assert failure_rows(matches) == [bad]
    monkeypatch.setitem(registry.REGISTRY, "toy_fragile", {1: FIXED})  # the fix is deployed
    closings = matches.resolve_batch(due_batch(matches, clock))
    assert {closing.match_id for closing in closings if closing} == {bad, other}
    assert failure_rows(matches) == []


def test_a_batch_on_time_settles_once_past_its_latest_deadline(
    matches: Matches, clock: ManualClock
) -> None:
    waits: list[float] = []
    matches.resolution.sleep = waits.append  # type: ignore[method-assign]
    first = started(matches)[0]
    clock.advance(1)
    second = started(matches)[0]
    latest = matches.get_match(second).deadline
    assert latest is not None
    clock.now = latest + timedelta(milliseconds=30)
    batch = matches.due_movements()
    assert [due.match_id for due in batch] == [first, second]
    matches.resolve_batch(batch)
    assert waits == [pytest.approx((SETTLING - timedelta(milliseconds=30)).total_seconds())]


def test_a_batch_on_time_loads_its_matches_while_it_settles_and_sees_a_later_order(
    matches: Matches, clock: ManualClock, database_url: str
) -> None:
    """The settling wait loads the batch's matches (`warm`); an order stored meanwhile by
    another process, received before the deadline, is still in the resolution: the
    loaded match is fast-forwarded over it (service/store/matchcache.py)."""
    new = matches.create_match("toy", {"close_early": False, "rounds": 100})
    tokens = [matches.join(new.match_id, name).token for name in ("alice", "bob")]
    matches.start(new.match_id, new.referee_token)
    deadline = matches.get_match(new.match_id).deadline
    assert deadline is not None
    clock.now = deadline + timedelta(milliseconds=30)
    batch = matches.due_movements()
    matches.store.kept.take(new.match_id)  # as a worker that never saw the match
    other = Matches(env=Settings(database_url).event_store_env(), clock=clock)

    def settle(seconds: float) -> None:
        assert matches.store.kept.holds(new.match_id)  # loaded before the wait
        other.submit_order(
            new.match_id, tokens[0], "2", received_at=deadline - timedelta(milliseconds=1)
        )

    matches.resolution.sleep = settle
    try:
        [closing] = matches.resolve_batch(batch)
    finally:
        other.close()
    assert closing is not None and closing.resolved
    steps = [str(step["text"]) for step in matches.movement(new.match_id, 1).steps]
    assert "seat 1 picks 2" in steps


def test_warming_stops_at_its_time_skips_kept_matches_and_matches_it_cannot_load(
    matches: Matches, clock: ManualClock
) -> None:
    first, second, third = (started(matches)[0] for _ in range(3))
    for match_id in (first, second, third):
        matches.store.kept.take(match_id)
    until = clock.now + timedelta(seconds=1)
    assert matches.warm([first, uuid4(), second], until) == 2  # the unknown id is skipped
    assert matches.store.kept.holds(first) and matches.store.kept.holds(second)
    assert matches.warm([first, second], until) == 0  # both kept already
    clock.now = until
    assert matches.warm([third], until) == 0
    assert not matches.store.kept.holds(third)


def recorded_writes(matches: Matches, monkeypatch: pytest.MonkeyPatch) -> list[set[UUID]]:
    """Returns a list that gets the matches of each write to the store from now on."""
    writes: list[set[UUID]] = []
    insert = matches.store.recorder.insert_events

    def counted(stored_events: Any, **kwargs: Any) -> Any:
        writes.append({event.originator_id for event in stored_events})
        return insert(stored_events, **kwargs)

    monkeypatch.setattr(matches.store.recorder, "insert_events", counted)
    return writes


def test_a_batch_is_saved_in_one_transaction(
    matches: Matches, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One commit (and, on PostgreSQL, one table lock) for the batch's resolutions."""
    good = [started(matches)[0] for _ in range(3)]
    writes = recorded_writes(matches, monkeypatch)
    closings = matches.resolve_batch(due_batch(matches, clock))
    assert writes == [set(good)]
    assert {closing.match_id for closing in closings if closing} == set(good)


def test_a_joint_save_that_loses_a_race_resolves_each_on_its_own_exactly_once(
    matches: Matches, clock: ManualClock, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process resolves one of the batch's matches while the batch is in memory:
    the joint save fails whole, and each match is then resolved on its own; the raced
    one finds its movement closed."""
    first, raced, third = (started(matches)[0] for _ in range(3))
    batch = due_batch(matches, clock)
    other = Matches(env=Settings(database_url).event_store_env(), clock=clock)
    save = matches.store.save

    def racing_save(*objs: Any, **kwargs: Any) -> Any:
        if len(objs) > 1:  # the joint save: the other process gets there first
            other.resolve(raced, 1)
        return save(*objs, **kwargs)

    monkeypatch.setattr(matches.store, "save", racing_save)
    try:
        closings = matches.resolve_batch(batch)
    finally:
        other.close()
    by_match = {due.match_id: closing for due, closing in zip(batch, closings, strict=True)}
    assert by_match[raced] is None and by_match[first] and by_match[third]
    assert [resolved(matches, match_id) for match_id in (first, raced, third)] == [1, 1, 1]
    assert matches.summary(raced).movement == 2


def test_a_movement_queued_twice_in_a_batch_is_resolved_once(
    matches: Matches, clock: ManualClock
) -> None:
    match_id = started(matches)[0]
    [due] = due_batch(matches, clock)
    closings = matches.resolve_batch([due, due])
    assert closings[0] is not None and closings[1] is None
    assert resolved(matches, match_id) == 1


def test_a_batch_larger_than_a_joint_save_is_saved_in_groups_each_match_once(
    matches: Matches, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batches, "JOINT_SAVE", 2)
    good = [started(matches)[0] for _ in range(5)]
    writes = recorded_writes(matches, monkeypatch)
    batch = due_batch(matches, clock)
    order = [due.match_id for due in batch]
    assert set(order) == set(good)
    closings = matches.resolve_batch(batch)
    assert writes == [set(order[:2]), set(order[2:4]), {order[4]}]
    assert [closing and closing.match_id for closing in closings] == order
    assert [resolved(matches, match_id) for match_id in good] == [1] * 5


def test_a_batch_asks_for_the_next_countdowns_once_every_group_is_saved(
    database_url: str, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sending a countdown task costs about a millisecond: a batch saves all its groups
    first (`Matches.countdowns_held`); each resolved match's next deadline is asked for."""
    monkeypatch.setattr(batches, "JOINT_SAVE", 2)
    seen: list[list[int]] = []
    matches = Matches(env=Settings(database_url).event_store_env(), clock=clock)

    class Watching:
        def deadline_set(self, match_id: UUID, movement: int, deadline: Any, now: Any) -> None:
            seen.append([resolved(matches, m) for m in good])

    try:
        good = [started(matches)[0] for _ in range(5)]
        matches.store.scheduler = Watching()
        closings = matches.resolve_batch(due_batch(matches, clock))
    finally:
        matches.close()
    assert all(closing is not None for closing in closings)
    assert seen == [[1] * 5] * 5  # five tasks asked for, all after the last group's save


def test_held_countdowns_are_asked_for_at_the_outer_end_even_when_the_block_raises(
    matches: Matches, clock: ManualClock
) -> None:
    calls: list[UUID] = []

    class Recording:
        def deadline_set(self, match_id: UUID, movement: int, deadline: Any, now: Any) -> None:
            calls.append(match_id)

    matches.store.scheduler = Recording()
    with pytest.raises(RuntimeError), matches.countdowns_held():
        with matches.countdowns_held():
            first = started(matches)[0]  # its start stores movement 1's deadline
        assert calls == []  # the inner block's end waits for the outer one's
        raise RuntimeError("the worker's batch failed")
    assert calls == [first]


def test_kept_matches_are_fast_forwarded_from_one_read_ahead_on_postgresql(
    matches: Matches, clock: ManualClock, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch's kept matches read the events stored since in one query a group on
    PostgreSQL (service/store/fastforward.py), checked as any fast-forward; an order stored
    after they were kept is in the resolution. SQLite reads them match by match."""
    first, second = (matches.create_match("toy", {"close_early": False}) for _ in range(2))
    tokens = [matches.join(first.match_id, name).token for name in ("alice", "bob")]
    for name in ("alice", "bob"):
        matches.join(second.match_id, name)
    for new in (first, second):
        matches.start(new.match_id, new.referee_token)
    other = Matches(env=Settings(database_url).event_store_env(), clock=clock)
    try:  # another process stores an order; this one keeps its older copy
        other.submit_order(first.match_id, tokens[0], "3")
    finally:
        other.close()
    assert matches.store.kept.version_of(first.match_id) is not None
    selects: list[UUID] = []
    select = LogGuard.select  # a command's read of its match's newest rows (issue 42)

    def counted(guard: LogGuard, originator_id: Any, **kwargs: Any) -> Any:
        selects.append(originator_id)
        return select(guard, originator_id, **kwargs)

    batch = due_batch(matches, clock)
    monkeypatch.setattr(LogGuard, "select", counted)
    closings = matches.resolve_batch(batch)
    monkeypatch.setattr(LogGuard, "select", select)
    assert all(closing is not None and closing.resolved for closing in closings)
    steps = [str(step["text"]) for step in matches.movement(first.match_id, 1).steps]
    assert "seat 1 picks 3" in steps
    if database_url.startswith("postgresql"):
        assert selects == []
    else:
        assert sorted(selects) == sorted([first.match_id, second.match_id])
