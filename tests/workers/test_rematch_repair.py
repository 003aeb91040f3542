"""How often a worker's sweep looks for the rematches a crash left missing (DW-5,
workers/tasks.py): when a sweep finds nothing due and its last look is 30 s old, or once
its last look is 5 minutes old, whatever the sweep found. A unit test of the task
module's timing, with a stand-in for the Matches application."""

from __future__ import annotations

import pytest

from workers import tasks


class Looks:
    """Counts the looks for missing rematches."""

    def __init__(self) -> None:
        self.count = 0

    def create_missing_rematches(self) -> list[object]:
        self.count += 1
        return []


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    now = [1000.0]
    monkeypatch.setattr(tasks.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(tasks, "_last_rematch_repair", [-tasks.REMATCH_REPAIR_LATEST])
    return now


def test_an_idle_sweep_looks_at_most_every_30_seconds(clock):
    looks = Looks()
    tasks._repair_rematches(looks, idle=True)  # the process's first sweep
    clock[0] += tasks.REMATCH_REPAIR_SECONDS - 1
    tasks._repair_rematches(looks, idle=True)
    assert looks.count == 1
    clock[0] += 1
    tasks._repair_rematches(looks, idle=True)
    assert looks.count == 2


def test_a_busy_sweep_looks_only_once_the_last_look_is_5_minutes_old(clock):
    looks = Looks()
    tasks._repair_rematches(looks, idle=False)  # never looked yet
    assert looks.count == 1
    clock[0] += tasks.REMATCH_REPAIR_LATEST - 1
    tasks._repair_rematches(looks, idle=False)  # a burst: movements due every sweep
    assert looks.count == 1
    clock[0] += 1
    tasks._repair_rematches(looks, idle=False)
    assert looks.count == 2
