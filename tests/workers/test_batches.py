"""Deadlines falling due together are resolved in batches by real worker processes on
Redis and RabbitMQ against PostgreSQL (issue 31): every movement exactly once, and a
match that fails in a batch is counted (quarantine) while the others resolve.

`toy_fragile` (tests/support/toy_ruleset.py, registered in the worker processes by
tests/workers/celery_app.py) is the toy whose resolution raises.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.rules import registry
from service.matches import Matches
from service.readmodels.recorders import FAILURES
from service.scheduling import RESOLVE_MOVEMENT, RESOLVE_MOVEMENTS, SWEEP_DUE
from tests.support.deadlines import resolutions, wait_until_due
from tests.support.toy_ruleset import FRAGILE
from tests.workers.conftest import Cluster, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(120)]
GOOD = 10


@pytest.fixture(autouse=True)
def fragile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.REGISTRY, "toy_fragile", {1: FRAGILE})


def started(service: Matches, count: int, ruleset: str = "toy") -> list[UUID]:
    """Starts `count` two-seat matches whose first movements fall due in 4 s."""
    ids = []
    for _ in range(count):
        new = service.create_match(ruleset, {"close_early": False}, deadline_seconds=4)
        for name in ("alice", "bob"):
            service.join(new.match_id, name)
        service.start(new.match_id, str(new.referee_token))
        ids.append(new.match_id)
    return ids


def failures(service: Matches) -> list[tuple[UUID, int, int]]:
    rows = service.read_models.view("deadlines").query(
        f"SELECT match_id, movement, failures FROM {{{FAILURES}}}"
    )
    return [(row["match_id"], row["movement"], row["failures"]) for row in rows]


def check_exactly_once(service: Matches, good: list[UUID], bad: UUID) -> None:
    """Each good match's movement 1 resolved once; the failing one not, its failure counted."""
    assert [resolutions(service, match_id) for match_id in good] == [1] * len(good)
    assert resolutions(service, bad) == 0
    assert [(match_id, movement) for match_id, movement, _ in failures(service)] == [(bad, 1)]
    assert all(service.verify_chain(match_id).ok for match_id in [*good, bad])


def test_countdown_tasks_due_together_are_resolved_in_batches_each_exactly_once(
    cluster: Cluster,
) -> None:
    service = cluster.matches()  # the test sends the countdown tasks itself, to see them
    with cluster.worker_processes(2):
        good, [bad] = started(service, GOOD), started(service, 1, "toy_fragile")
        sent = [
            cluster.send(RESOLVE_MOVEMENT, str(m), 1, eta=service.get_match(m).deadline)
            for m in [*good, bad]
        ]
        said: list[Any] = [result.get(timeout=60) for result in sent]
    taken = [s for s in said if s == "nothing due: taken into an earlier batch"]
    assert taken, said  # a task resolved others' movements with its own: a batch
    assert all(s.startswith(("resolved movement 1", "nothing due")) for s in said), said
    check_exactly_once(service, good, bad)


def test_the_sweep_sends_batches_resolved_each_exactly_once_past_a_failing_match(
    cluster: Cluster,
) -> None:
    service = cluster.matches()
    good, [bad] = started(service, GOOD), started(service, 1, "toy_fragile")
    wait_until_due(service, bad)
    with cluster.worker_processes(2):
        # two sweeps, on either worker process: the second may queue what is still due again
        swept = [cluster.send(SWEEP_DUE).get(timeout=60) for _ in range(2)]
        assert swept[0] == GOOD + 1
        wait_for(lambda: all(resolutions(service, match_id) for match_id in good), timeout=60)
        wait_for(lambda: failures(service), timeout=30)
        again = cluster.send(RESOLVE_MOVEMENTS, [[str(m), 1, None] for m in [*good, bad]])
        assert again.get(timeout=60) == f"resolved 0 of {GOOD + 1} movements"
    check_exactly_once(service, good, bad)
