"""Deadlines resolved by real workers on Redis and RabbitMQ against PostgreSQL: exactly once.

Every test runs on both brokers (`broker` fixture) with a fresh database and
queue; the workers are real Celery workers in threads, each with its own
Matches application, so two workers race as two machines would.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from celery.beat import EmbeddedService

from domain.errors import MovementClosedError
from service.health import sweep_status
from service.matches import Matches
from service.scheduling import RESOLVE_MOVEMENT, RESOLVE_MOVEMENTS, SWEEP_DUE, CeleryScheduler
from tests.support.deadlines import events, of_movement, resolutions, wait_until_due
from tests.workers.conftest import Cluster, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(90)]


def new_toy(service: Matches, deadline: int = 1, **config: Any) -> tuple[Any, list[str]]:
    """Creates and starts a two-seat toy match whose movements wait for their deadline."""
    new = service.create_match(
        "toy", {"close_early": False, **config}, seed="workers", deadline_seconds=deadline
    )
    tokens = [service.join(new.match_id, name).token for name in ("alice", "bob")]
    service.start(new.match_id, str(new.referee_token))
    return new, tokens


def outcomes(results: list[Any]) -> list[str]:
    """The tasks' outcomes, sorted, with the reason for "nothing due" left out (a duplicate
    may find its movement taken into an earlier batch: issue 31)."""
    return sorted(str(result.get(timeout=30)).split(":")[0] for result in results)


def test_a_countdown_task_resolves_the_movement_at_its_deadline(cluster: Cluster):
    service = cluster.scheduling_matches()
    with cluster.workers(1):
        new, _ = new_toy(service, deadline=1)
        deadline = service.get_match(new.match_id).deadline
        wait_for(lambda: resolutions(service, new.match_id))
    resolved = of_movement(service, new.match_id, "MovementResolved")[0]
    lateness = (datetime.fromisoformat(str(resolved["timestamp"])) - deadline).total_seconds()
    assert 0 <= lateness < 1.5
    assert of_movement(service, new.match_id, "MovementClosed")[0]["data"]["reason"] == "deadline"


def test_a_duplicated_task_gives_one_resolution(cluster: Cluster):
    service = cluster.matches()
    new, _ = new_toy(service, deadline=1)
    wait_until_due(service, new.match_id)
    with cluster.workers(1):
        sent = [cluster.send(RESOLVE_MOVEMENT, str(new.match_id), 1) for _ in range(4)]
        sent.append(cluster.send(RESOLVE_MOVEMENT, str(new.match_id), 1, task_id=sent[0].id))
        assert outcomes(sent[1:]) == ["nothing due"] * 3 + ["resolved movement 1"]
    assert resolutions(service, new.match_id) == 1
    assert service.verify_chain(new.match_id).ok


def test_two_workers_give_one_resolution(cluster: Cluster):
    service = cluster.matches()
    new, _ = new_toy(service, deadline=1)
    wait_until_due(service, new.match_id)
    with cluster.worker_processes(2):
        sent = [cluster.send(RESOLVE_MOVEMENT, str(new.match_id), 1) for _ in range(8)]
        # the winner may also pass the later 1 s deadlines that fell due as the workers
        # started, at their intended instants (issue 13): "..., match finished"
        resolved = [o for o in outcomes(sent) if o.startswith("resolved movement 1")]
        assert len(resolved) == 1
    assert resolutions(service, new.match_id) == 1
    assert len(of_movement(service, new.match_id, "MovementClosed")) == 1


def test_a_sweep_racing_a_countdown_task_gives_one_resolution(cluster: Cluster):
    service = cluster.scheduling_matches()  # sends the countdown task when the movement opens
    with cluster.worker_processes(2):
        new, _ = new_toy(service, deadline=2)
        deadline = service.get_match(new.match_id).deadline
        sweeps = [
            cluster.send(SWEEP_DUE, eta=deadline + timedelta(milliseconds=ms))
            for ms in (0, 1, 5, 20)
        ]
        assert all(result.get(timeout=30) in (0, 1) for result in sweeps)  # either may win
        wait_for(lambda: resolutions(service, new.match_id))
        time.sleep(0.5)  # let every queued duplicate run
    assert resolutions(service, new.match_id) == 1
    assert service.verify_chain(new.match_id).ok


def test_a_lost_countdown_task_changes_nothing_beat_sweeps_the_movement(
    cluster: Cluster, tmp_path: Path
):
    service = cluster.matches()  # sends no countdown task, as if the broker had lost it
    new, _ = new_toy(service, deadline=1)
    with cluster.workers(1) as (app,):
        app.conf.beat_schedule["sweep-due"]["schedule"] = 0.5
        beat = EmbeddedService(app, thread=True, schedule_filename=str(tmp_path / "beat-schedule"))
        beat.start()
        try:
            wait_for(lambda: resolutions(service, new.match_id), timeout=30)
        finally:
            beat.stop()
    assert resolutions(service, new.match_id) == 1


def test_an_order_racing_the_deadline_is_in_the_movement_or_rejected_with_a_reason(
    cluster: Cluster,
):
    service = cluster.scheduling_matches()
    with cluster.worker_processes(2):
        new, tokens = new_toy(service, deadline=1)
        landed, refused = [], []
        give_up = time.monotonic() + 20
        while not refused and time.monotonic() < give_up:
            token = tokens[len(landed) % 2]
            try:
                landed.append(service.submit_order(new.match_id, token, "1", movement=1))
            except MovementClosedError as error:
                refused.append(error)
        wait_for(lambda: resolutions(service, new.match_id))
    closed = of_movement(service, new.match_id, "MovementClosed")
    assert len(closed) == 1
    revealed = {order["digest"] for order in closed[0]["data"]["orders"]}
    assert landed and {receipt.digest for receipt in landed} == revealed
    assert refused and "movement 1" in str(refused[0]) and "not open" in str(refused[0])
    rejected = events(service, new.match_id, "OrderRejected")
    assert rejected[0]["data"]["error"] == "movement_closed" and rejected[0]["data"]["reason"] == ""
    assert "not open" in rejected[0]["sealed"]["reason"]  # aimed at a closed movement: public


def test_district_war_strikes_and_extends_when_its_clock_runs_out(cluster: Cluster):
    service = cluster.scheduling_matches()
    config = {"troops": 2, "placement_seconds": 1, "extension_seconds": 1, "max_strikes": 3}
    with cluster.workers(1):
        new = service.create_match("district_war", config, seed="strike")
        first, dmo = (service.join(new.match_id, name).token for name in ("alice", "bob"))
        service.start(new.match_id, str(new.referee_token))
        service.submit_order(new.match_id, dmo, "first 1")  # closes movement 1 at once
        struck = wait_for(lambda: events(service, new.match_id, "SeatStruck"))
        data = struck[0]["data"]
        assert {k: data[k] for k in ("seat", "movement", "strikes")} == {
            "seat": 1,
            "movement": 2,
            "strikes": 1,
        }
        extended = next(
            item
            for item in events(service, new.match_id, "DeadlineSet")
            if item["data"]["reason"] == "extended"
        )
        assert extended["version"] == struck[0]["version"] + 1
        # DW-6: struck at the intended limit, and the 45 s (here 1 s) counted from it
        assert data["intended_at"] == extended["data"]["intended_at"]
        assert parse_iso(extended["data"]["deadline"]) - parse_iso(data["intended_at"]) == (
            timedelta(seconds=1)
        )
        service.submit_order(new.match_id, first, "e4", movement=2)
    match = service.get_match(new.match_id)
    assert match.movement == 3 and match.strikes == {"1": 1}


def test_a_movement_that_re_arms_is_never_queued_empty_and_resolves_at_the_firing_after_an_order(
    cluster: Cluster, tmp_path: Path
):
    """Issue 11 (B-Chess's Turn of the Field): beat sweeps a waiting movement for several
    periods and nothing is written; the first order arms the firing that resolves it."""
    service = cluster.scheduling_matches()
    with cluster.workers(1) as (app,):
        app.conf.beat_schedule["sweep-due"]["schedule"] = 0.5
        new = service.create_match("toy_rearm", {}, seed="field", deadline_seconds=1)
        alice = service.join(new.match_id, "alice").token
        service.join(new.match_id, "bob")
        service.start(new.match_id, str(new.referee_token))
        before = service.event_log(new.match_id)
        beat = EmbeddedService(app, thread=True, schedule_filename=str(tmp_path / "beat-schedule"))
        beat.start()
        try:
            time.sleep(3.2)  # three empty periods, swept
        finally:
            beat.stop()
        assert cluster.send(SWEEP_DUE).get(timeout=30) == 0  # after the queued sweeps
        assert service.event_log(new.match_id) == before
        service.submit_order(new.match_id, alice, "2")  # sends the countdown task
        armed = service.get_match(new.match_id).deadline
        wait_for(lambda: resolutions(service, new.match_id))
    resolved = events(service, new.match_id, "MovementResolved")[0]
    lateness = (datetime.fromisoformat(str(resolved["timestamp"])) - armed).total_seconds()
    assert 0 <= lateness < 1.5 and resolutions(service, new.match_id) == 1
    opened = events(service, new.match_id, "DeadlineSet")[0]["data"]["deadline"]
    periods = (armed - datetime.fromisoformat(opened)).total_seconds()
    assert periods == int(periods) >= 3  # on the grid of the first firing, whole periods on


def test_the_sweep_records_its_success_in_the_database_and_resolves_a_ready_movement(
    cluster: Cluster,
):
    """The sweep's success is kept in the database (every /health reads it); a movement
    whose last order made it ready, its resolution lost, is due at once."""
    service = cluster.matches()
    new, tokens = new_toy(service, deadline=600, close_early=True)
    for token in tokens:
        service.submit_order(new.match_id, token, "1", resolve_when_ready=False)  # as if lost
    assert sweep_status(service.read_models)["last_success_at"] is None
    with cluster.worker_processes(1):
        assert cluster.send(SWEEP_DUE).get(timeout=30) == 1
        wait_for(lambda: resolutions(service, new.match_id))
    assert sweep_status(service.read_models)["last_success_at"] is not None
    assert sweep_status(service.read_models)["failures_in_row"] == 0


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


def test_movements_due_together_get_one_countdown_batch_that_resolves_each_once(
    cluster: Cluster,
):
    """Issue 46 (service/scheduling.py, `deadlines_set`): a worker that resolved movements
    due together asks for the next movements' countdowns as one `resolve_movements` task
    with their shared deadline as eta, and runs it as the countdown of each: each next
    movement resolved at its deadline, once, the batch sent a second time too."""
    with cluster.workers(1) as (app,):
        sent: list[tuple[str, Any, Any]] = []
        send = app.send_task

        def recording(name: str, *args: Any, **options: Any) -> Any:
            sent.append((name, options.get("args"), options.get("eta")))
            return send(name, *args, **options)

        app.send_task = recording  # type: ignore[method-assign]
        # started with the worker running, so that it holds both countdown tasks when the
        # first falls due, and both at this instant: one deadline
        pinned = datetime.now(UTC)
        service = Matches(
            env=cluster.settings.event_store_env(),
            scheduler=CeleryScheduler(cluster.client, 600),
            clock=lambda: pinned,
        )
        cluster.services.append(service)
        toys = [new_toy(service, deadline=3)[0].match_id for _ in range(2)]
        # the next countdowns are asked for once the batch is saved: after the resolutions
        name, args, eta = wait_for(lambda: sent)[0]
        assert name == RESOLVE_MOVEMENTS and eta == pinned + timedelta(seconds=6)
        assert sorted(args[0]) == sorted([str(toy), 2, eta.isoformat()] for toy in toys)
        cluster.send(RESOLVE_MOVEMENTS, *args, eta=eta)  # a duplicate of the batch
        wait_for(lambda: all(resolutions(service, toy, movement=2) for toy in toys))
        time.sleep(0.5)  # let the duplicate run
    for toy in toys:
        assert resolutions(service, toy, movement=2) == 1
        closed = of_movement(service, toy, "MovementClosed", movement=2)
        assert [item["data"]["reason"] for item in closed] == ["deadline"]
        assert parse_iso(str(closed[0]["timestamp"])) >= eta
