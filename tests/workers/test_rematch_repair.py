"""How often a worker's sweep looks for the rematches a crash left missing (DW-5,
service/workpolicy.py): when a sweep finds nothing due and its last look is 30 s old, or
once its last look is 5 minutes old, whatever the sweep found. A unit test of the
policy's timing, on a clock of its own, with a stand-in for the Matches application."""

from __future__ import annotations

import pytest

from service import workpolicy
from service.workpolicy import WorkPolicy


class Looks:
    """Counts the looks for missing rematches."""

    def __init__(self) -> None:
        self.count = 0

    def create_missing_rematches(self) -> list[object]:
        self.count += 1
        return []


@pytest.fixture
def clock() -> list[float]:
    return [1000.0]


@pytest.fixture
def policy(clock: list[float]) -> WorkPolicy:
    """A new process's policy (it has never looked), on the test's clock."""
    return WorkPolicy(held=list, monotonic=lambda: clock[0])


def test_an_idle_sweep_looks_at_most_every_30_seconds(clock, policy):
    looks = Looks()
    policy.repair_rematches(looks, idle=True)  # the process's first sweep
    clock[0] += workpolicy.REMATCH_REPAIR_SECONDS - 1
    policy.repair_rematches(looks, idle=True)
    assert looks.count == 1
    clock[0] += 1
    policy.repair_rematches(looks, idle=True)
    assert looks.count == 2


def test_a_busy_sweep_looks_only_once_the_last_look_is_5_minutes_old(clock, policy):
    looks = Looks()
    policy.repair_rematches(looks, idle=False)  # never looked yet
    assert looks.count == 1
    clock[0] += workpolicy.REMATCH_REPAIR_LATEST - 1
    policy.repair_rematches(looks, idle=False)  # a burst: movements due every sweep
    assert looks.count == 1
    clock[0] += 1
    policy.repair_rematches(looks, idle=False)
    assert looks.count == 2
