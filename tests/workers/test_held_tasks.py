"""What a worker does with the countdown tasks it holds (issue 31; service/workpolicy.py,
fed by workers/tasks.py's `held_countdowns`): the first due one to run resolves every
held due movement, HELD_BATCH at a time (`resolve_with_held`); an idle sweep warms the
matches of those falling due within WARM_AHEAD_SECONDS, soonest first, as many as the
kept matches hold, for WARM_BUDGET_SECONDS (`warm_held`). A unit test of the policy, with
stand-ins for Celery's held requests and for the Matches application."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any
from uuid import UUID, uuid4

import pytest
from celery.worker import state as worker_state

from service import workpolicy
from service.scheduling import RESOLVE_MOVEMENT, RESOLVE_MOVEMENTS, SWEEP_DUE
from service.workpolicy import WorkPolicy
from workers import tasks

NOW = datetime(2030, 1, 1, tzinfo=UTC)


@dataclass
class Warming:
    """Records what it is asked to warm, and until when."""

    size: int = 1000
    asked: list[tuple[list[UUID], datetime]] = field(default_factory=list)

    @property
    def kept(self) -> Any:
        return SimpleNamespace(size=self.size)

    def clock(self) -> datetime:
        return NOW

    def warm(self, match_ids: list[UUID], until: datetime) -> int:
        self.asked.append((list(match_ids), until))
        return len(match_ids)


def held(monkeypatch: pytest.MonkeyPatch, *tasks_held: tuple[str, Any, Any]) -> None:
    requests = {
        str(index): SimpleNamespace(id=str(index), name=name, args=[arg, 1], eta=eta)
        for index, (name, arg, eta) in enumerate(tasks_held)
    }
    monkeypatch.setattr(worker_state, "requests", requests)


def test_the_countdowns_due_soon_are_warmed_soonest_first_for_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    late, soon, sooner = uuid4(), uuid4(), uuid4()
    ahead = timedelta(seconds=workpolicy.WARM_AHEAD_SECONDS)
    held(
        monkeypatch,
        (RESOLVE_MOVEMENT, str(late), NOW + ahead + timedelta(seconds=1)),  # not yet
        (RESOLVE_MOVEMENT, str(soon), (NOW + ahead).isoformat()),  # an eta as ISO text
        (RESOLVE_MOVEMENT, str(sooner), (NOW + timedelta(seconds=1)).replace(tzinfo=None)),
        (RESOLVE_MOVEMENT, str(uuid4()), NOW),  # due now: its own run resolves it
        (RESOLVE_MOVEMENT, "not a match id", NOW + timedelta(seconds=2)),  # skipped
        (SWEEP_DUE, str(uuid4()), NOW + timedelta(seconds=1)),  # not a countdown
        (RESOLVE_MOVEMENT, str(uuid4()), None),  # no eta
    )
    warming = Warming()
    assert WorkPolicy(tasks.held_countdowns).warm_held(warming, NOW) == 2  # type: ignore[arg-type]
    [(asked, until)] = warming.asked
    assert asked == [sooner, soon]
    assert until == NOW + timedelta(seconds=workpolicy.WARM_BUDGET_SECONDS)


def test_no_more_are_warmed_than_the_kept_matches_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    ids = [uuid4() for _ in range(5)]
    held(
        monkeypatch,
        *((RESOLVE_MOVEMENT, str(m), NOW + timedelta(seconds=i + 1)) for i, m in enumerate(ids)),
    )
    warming = Warming(size=3)
    WorkPolicy(tasks.held_countdowns).warm_held(warming, NOW)  # type: ignore[arg-type]
    assert warming.asked[0][0] == ids[:3]


def test_nothing_held_asks_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    held(monkeypatch)
    warming = Warming()
    assert WorkPolicy(tasks.held_countdowns).warm_held(warming, NOW) == 0  # type: ignore[arg-type]
    assert warming.asked == []


class Batches:
    """Records the batches it is asked to resolve, and resolves nothing; keeps the offers
    in `offered`, which two of them may share as two workers share the database's."""

    def __init__(self, offered: list[Any] | None = None) -> None:
        self.sizes: list[int] = []
        self.batches: list[list[UUID]] = []  # the match ids of each batch, in order
        self.offered = [] if offered is None else offered
        self.sizes_taken: list[tuple[str | None, int]] = []

    def resolve_batch(self, batch: list[Any]) -> list[None]:
        self.sizes.append(len(batch))
        self.batches.append([due.match_id for due in batch])
        return [None] * len(batch)

    def countdowns_held(self) -> Any:
        return contextlib.nullcontext()

    @property
    def read_models(self) -> Any:
        return SimpleNamespace(deferring=contextlib.nullcontext)

    def offer_due(self, dues: list[Any], by: str) -> None:
        self.offered.extend((by, due) for due in dues)

    def take_offered(self, limit: int, offered_by: str | None = None) -> list[Any]:
        mine = [offer for offer in self.offered if offered_by in (None, offer[0])][:limit]
        self.offered[:] = [offer for offer in self.offered if offer not in mine]
        self.sizes_taken.append((offered_by, len(mine)))
        return [due for _, due in mine]


def test_a_countdown_task_drains_every_held_due_movement_in_batches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The held tasks due too are resolved by the first one to run, HELD_BATCH at a time,
    not left to their turns (kombu fires due timers ten at a time): the first batch at
    once, the rest offered to every draining worker and taken back, none left by this
    worker alone; each is taken once."""
    past = datetime.now(UTC) - timedelta(seconds=1)
    malformed = (RESOLVE_MOVEMENT, "not a match id", past)  # skipped, not raised
    held(monkeypatch, malformed, *((RESOLVE_MOVEMENT, str(uuid4()), past) for _ in range(450)))
    policy, batches = WorkPolicy(tasks.held_countdowns), Batches()
    mine = workpolicy.Due(uuid4(), 1, past)
    drained = policy.resolve_with_held(batches, mine, "mine")  # type: ignore[arg-type]
    held_batch = workpolicy.HELD_BATCH
    assert batches.sizes == [held_batch, held_batch, 451 - 2 * held_batch]
    # the worker's log says so: 450 held taken, all but the first batch's 199 offered
    assert drained == workpolicy.Drained(None, 450, 450 - (held_batch - 1), 0)
    assert batches.offered == []
    assert policy.batched == 450  # each held one taken once (the task took its own)


def test_a_draining_worker_takes_the_offers_of_another_after_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 46: a worker holding few of a burst's countdown tasks, its own resolved, takes
    the movements the other worker offered, HELD_BATCH at a time, rather than sit idle."""
    past = datetime.now(UTC) - timedelta(seconds=1)
    held(monkeypatch, *((RESOLVE_MOVEMENT, str(uuid4()), past) for _ in range(10)))
    others = [("other", workpolicy.Due(uuid4(), 1, past)) for _ in range(120)]
    policy = WorkPolicy(tasks.held_countdowns, name="me")
    batches = Batches(offered=list(others))
    drained = policy.resolve_with_held(batches, workpolicy.Due(uuid4(), 1, past), "mine")  # type: ignore[arg-type]
    assert batches.sizes == [11, workpolicy.BATCH_SIZE, workpolicy.BATCH_SIZE, 20]
    assert drained == workpolicy.Drained(None, 10, 0, 0)
    assert batches.offered == []


def test_a_draining_worker_takes_its_own_offers_before_another_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its own offers are matches it warmed: HELD_BATCH at a time, before any other
    worker's (cold here: BATCH_SIZE at a time)."""
    past = datetime.now(UTC) - timedelta(seconds=1)
    held(monkeypatch, *((RESOLVE_MOVEMENT, str(uuid4()), past) for _ in range(260)))
    others = [("other", workpolicy.Due(uuid4(), 1, past)) for _ in range(10)]
    policy = WorkPolicy(tasks.held_countdowns, name="me")
    batches = Batches(offered=list(others))
    policy.resolve_with_held(batches, workpolicy.Due(uuid4(), 1, past), "mine")  # type: ignore[arg-type]
    held_batch = workpolicy.HELD_BATCH
    assert batches.sizes == [held_batch, 261 - held_batch, 10]
    assert [taken for taken in batches.sizes_taken if taken[1]] == [
        ("me", 261 - held_batch),
        (None, 10),
    ]


def held_batch(task_id: str, match_ids: list[UUID], eta: datetime | None) -> SimpleNamespace:
    """A held `resolve_movements` request: with an eta, the countdown of movements due
    together (CeleryScheduler.deadlines_set); without one, the sweep's batch."""
    when = None if eta is None else eta.isoformat()
    due = [[str(match_id), 1, when] for match_id in match_ids]
    return SimpleNamespace(id=task_id, name=RESOLVE_MOVEMENTS, args=[due], eta=eta)


def test_each_movement_of_a_held_countdown_batch_is_a_held_countdown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 46: movements due together are sent as one batch with an eta; a worker
    holding it holds a countdown of each, to warm and to drain; a sweep's batch (no eta)
    is no countdown."""
    countdown, sweep = [uuid4(), uuid4()], [uuid4()]
    requests = {
        "b": held_batch("b", countdown, NOW),
        "s": held_batch("s", sweep, None),
        "m": SimpleNamespace(id="m", name=RESOLVE_MOVEMENT, args=["not an id", 1], eta=NOW),
        "e": SimpleNamespace(id="e", name=RESOLVE_MOVEMENTS, args=[], eta=NOW),  # malformed
    }
    monkeypatch.setattr(worker_state, "requests", requests)
    assert list(tasks.held_countdowns()) == [
        ("b", workpolicy.Due(match_id, 1, NOW)) for match_id in countdown
    ]


def test_a_countdown_batch_resolves_its_movements_with_the_held_due_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its own movements first (those no earlier batch took), then the other held
    countdowns due too, in one batch; its own are not taken twice as held ones."""
    past = datetime.now(UTC) - timedelta(seconds=1)
    own, others = [uuid4() for _ in range(3)], [uuid4() for _ in range(4)]
    requests = {"own": held_batch("own", own, past), "other": held_batch("other", others, past)}
    monkeypatch.setattr(worker_state, "requests", requests)
    policy, batches = WorkPolicy(tasks.held_countdowns, name="me"), Batches()
    policy.take([(str(own[2]), 1)])  # an earlier batch took it
    mine = [workpolicy.Due(match_id, 1, past) for match_id in own]
    said = policy.countdown_batch(batches, mine, "own")  # type: ignore[arg-type]
    assert batches.batches == [[*own[:2], *others]]
    assert said.startswith("took 2 of its 3 movement(s)") and "with them 4 held" in said
    assert policy.batched == 3 + 4
    assert policy.countdown_batch(batches, mine, "own") == (  # type: ignore[arg-type]
        "nothing due: all 3 taken into an earlier batch"
    )
