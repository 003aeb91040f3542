"""DRTS_FOLLOW_LOG=worker (issue 46): a real Celery worker process, on Redis and on
RabbitMQ, follows the log and applies the events of orders sent elsewhere (no task is
sent: the follower is woken by PostgreSQL's NOTIFY) to the read models; with a solo pool
in the worker's own process, with a prefork pool in its child. Under `api` a worker
applies nothing in the background.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from service.matches import Matches
from service.readmodels.runner import ALL_PROJECTIONS
from tests.workers.conftest import Cluster, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(240)]


def played_movement(service: Matches) -> Any:
    """Creates a two-seat toy match and plays its first movement (the second order
    closes and resolves it); returns its id."""
    new = service.create_match("toy", {"close_early": True}, seed="follow")
    tokens = [service.join(new.match_id, name).token for name in ("alice", "bob")]
    service.start(new.match_id, str(new.referee_token))
    for token, pick in zip(tokens, ("1", "2"), strict=True):
        service.submit_order(new.match_id, token, pick)
    return new.match_id


def positions(service: Matches) -> dict[str, int]:
    """Returns each projection's tracked position as stored (this process applies none)."""
    models = service.read_models
    return {cls.name: models.view(cls.name).position(service.store.name) for cls in ALL_PROJECTIONS}


def listed_movement(service: Matches, match_id: Any) -> Any:
    """Returns the match list's movement of the match as stored (no catch-up)."""
    rows = service.read_models.view("match_list").query(
        "SELECT movement FROM {match_list} WHERE match_id = :match_id", {"match_id": match_id}
    )
    return rows[0]["movement"] if rows else None


@pytest.mark.parametrize("pool", ["solo", "prefork"])
def test_a_worker_process_applies_the_logs_events_to_the_read_models(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch, pool: str
):
    monkeypatch.setenv("DRTS_FOLLOW_LOG", "worker")
    service = cluster.matches()
    with cluster.worker_processes(1, pool=pool):
        match_id = played_movement(service)
        wait_for(lambda: not any(p.pending for p in service.read_models.progress()), timeout=30)
        assert listed_movement(service, match_id) == 2
        board = service.read_models.view("scoreboards").query(
            "SELECT DISTINCT movement FROM {scoreboard_seats} WHERE match_id = :m",
            {"m": match_id},
        )
        assert [row["movement"] for row in board] == [1]


def test_under_api_a_worker_process_applies_nothing_in_the_background(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("DRTS_FOLLOW_LOG", "api")
    service = cluster.matches()
    with cluster.worker_processes(1):
        before = positions(service)
        match_id = played_movement(service)
        time.sleep(3)
        assert positions(service) == before
        assert listed_movement(service, match_id) is None
