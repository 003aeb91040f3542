"""`drts worker` and `drts beat` outlive their broker (issue 42): killed and started again
empty in the middle of a burst of deadlines, or down when they start, on Redis and on
RabbitMQ.

Each test starts a broker of its own on a free port (tests/support/brokers.py; the
shared 6379 and 5672 are never touched), a real `drts worker` (prefork, two
processes) and a real `drts beat` on a fresh PostgreSQL database, and plays District
War matches nobody orders in: the silent DMO's first movement (DW-2) closes at its
deadline (DW-6). What is checked is what players and operators see: every movement
resolves once, at its intended deadline, with no order stored; the worker and beat
are the processes that were started (the worker's pid is unchanged, never a
restart); the logs say once that the broker is gone and once that it is back.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from service.matches import Matches
from service.scheduling import celery_scheduler
from service.settings import Settings
from tests.support.brokers import PrivateBroker, port_is_closed, private_broker

ROOT = Path(__file__).resolve().parents[2]
BURST = 12  # matches due together just before the broker dies
BURST_SECONDS = 12  # their first movement (placement_seconds)
AFTER_RESTART_SECONDS = 10  # a quiet match falls due this long after the broker is back

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(400)]


@pytest.fixture(params=["redis", "rabbitmq"])
def broker(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[PrivateBroker]:
    """A broker of the test's own, not started."""
    own = private_broker(request.param, tmp_path / "broker")
    yield own
    own.stop()


class Part:
    """A `drts worker` or `drts beat` process with its log."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], cwd: Path) -> None:
        self.name, self.log_path = name, cwd / f"{name}.log"
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cli.main", name, *args],
                cwd=cwd,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.pid = self.process.pid

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def count(self, text: str) -> int:
        return self.log().count(text)

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@pytest.fixture
def parts(tmp_path: Path) -> Iterator[list[Part]]:
    """The test's worker and beat, stopped at the end."""
    started: list[Part] = []
    yield started
    for part in started:
        part.stop()


def start_parts(parts: list[Part], database_url: str, broker_url: str, cwd: Path) -> None:
    env = {
        **os.environ,
        "DRTS_DATABASE_URL": database_url,
        "DRTS_BROKER_URL": broker_url,
        "DRTS_SWEEP_SECONDS": "1",
        "PYTHONPATH": str(ROOT),
    }
    parts.append(Part("worker", ["-c", "2"], env, cwd))
    parts.append(Part("beat", [], env, cwd))


def wait_for(condition: Any, timeout: float, what: str, parts: list[Part]) -> Any:
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    logs = "\n".join(f"--- {p.name} (alive: {p.alive()}):\n{p.log()[-5000:]}" for p in parts)
    pytest.fail(f"{what}: not after {timeout} s\n{logs}")


def silent_match(service: Matches, seconds: int) -> tuple[str, datetime]:
    """Creates and starts a District War match of two seats; returns its id and the
    deadline of its first movement (the DMO's, DW-6: `seconds` from now)."""
    new = service.create_match("district_war", {"troops": 2, "placement_seconds": seconds})
    for name in ("alice", "bob"):
        service.join(new.match_id, name)
    service.start(new.match_id, str(new.referee_token))
    deadline = service.get_match(new.match_id).deadline
    assert deadline is not None
    return str(new.match_id), deadline


def first_movement(service: Matches, match_id: str) -> dict[str, list[dict[str, Any]]]:
    """Returns the match's events about movement 1, and every order, by type."""
    found: dict[str, list[dict[str, Any]]] = {}
    for item in service.event_log(match_id):
        data = item["data"]
        if item["type"] == "OrderSubmitted" or data.get("movement") == 1:
            found.setdefault(str(item["type"]), []).append(item)
    return found


def resolved(service: Matches, match_id: str) -> bool:
    return bool(first_movement(service, match_id).get("MovementResolved"))


def assert_resolved_at_deadline(service: Matches, match_id: str, deadline: datetime) -> float:
    """Checks one resolution of movement 1 at its intended deadline, no order; returns
    how late it was recorded (s)."""
    events = first_movement(service, match_id)
    assert "OrderSubmitted" not in events, events["OrderSubmitted"]
    assert len(events["MovementResolved"]) == 1
    (closed,) = events["MovementClosed"]
    assert closed["data"]["reason"] == "deadline"
    assert datetime.fromisoformat(str(closed["data"]["intended_at"])) == deadline
    resolution = events["MovementResolved"][0]
    assert datetime.fromisoformat(str(resolution["data"]["intended_at"])) == deadline
    return (datetime.fromisoformat(str(resolution["timestamp"])) - deadline).total_seconds()


def assert_said_once(worker: Part, beat: Part) -> None:
    """The worker's and beat's logs say once that the broker is gone, once that it is
    back, and nothing of a crash."""
    assert worker.count("Cannot connect to") == 1, worker.log()[-6000:]
    assert worker.count("again, after") == 1, worker.log()[-6000:]
    for text in ("Unrecoverable", "Error on restarting", "Error on stopping"):
        assert text not in worker.log(), worker.log()[-6000:]
    failed = beat.count("beat: cannot send to the broker") + beat.count("beat: cannot connect")
    assert failed == 1, beat.log()[-6000:]
    back = beat.count("beat: the broker answers again") + beat.count("beat: connected to")
    assert back == 1, beat.log()[-6000:]
    assert "Message Error" not in beat.log(), beat.log()[-6000:]


def test_a_worker_and_beat_outlive_a_broker_killed_mid_burst_and_restarted_empty(
    broker: PrivateBroker, pg_database: str, parts: list[Part], tmp_path: Path
):
    broker.start()
    start_parts(parts, pg_database, broker.url, tmp_path)
    worker, beat = parts
    wait_for(lambda: " ready." in worker.log(), 90, "the worker ready", parts)
    settings = Settings(pg_database, broker=broker.url)
    service = Matches(env=settings.event_store_env(), scheduler=celery_scheduler(settings))
    try:
        burst = [silent_match(service, BURST_SECONDS) for _ in range(BURST)]
        # its countdown task is held by the worker when the broker dies, and lost with it
        quiet_seconds = BURST_SECONDS + int(broker.start_timeout / 3) + AFTER_RESTART_SECONDS
        quiet, quiet_deadline = silent_match(service, quiet_seconds)
        kill_at = burst[-1][1].timestamp() + 0.3  # the worker is resolving the burst
        time.sleep(max(kill_at - time.time(), 0))
        broker.kill()
        time.sleep(3)
        broker.start()
        restarted = datetime.now(UTC)
        for match_id, _ in [*burst, (quiet, quiet_deadline)]:
            wait_for(lambda m=match_id: resolved(service, m), 120, f"match {match_id}", parts)
        lateness = [assert_resolved_at_deadline(service, m, d) for m, d in burst]
        quiet_late = assert_resolved_at_deadline(service, quiet, quiet_deadline)
    finally:
        service.close()
    assert quiet_deadline > restarted, "the quiet match must fall due after the restart"
    assert quiet_late < 10, f"recorded {quiet_late:.1f} s after its deadline"
    assert max(lateness) >= 0
    assert worker.alive() and beat.alive()
    assert (worker.process.pid, beat.process.pid) == (worker.pid, beat.pid)
    assert worker.count(" ready.") == 1  # one start: the worker never restarted
    assert_said_once(worker, beat)


def test_a_worker_and_beat_started_before_their_broker_wait_for_it(
    broker: PrivateBroker, pg_database: str, parts: list[Part], tmp_path: Path
):
    assert port_is_closed(broker.port)
    settings = Settings(pg_database, broker=broker.url)
    service = Matches(env=settings.event_store_env(), scheduler=celery_scheduler(settings))
    try:
        match_id, deadline = silent_match(service, 3)  # its countdown cannot be sent
        start_parts(parts, pg_database, broker.url, tmp_path)
        worker, beat = parts
        wait_for(
            lambda: worker.count("Cannot connect to") and beat.count("beat: cannot connect"),
            60,
            "worker and beat saying the broker cannot be reached",
            parts,
        )
        time.sleep(8)  # several retries (2 + 4 s apart): still one line each
        assert worker.alive() and beat.alive()
        assert worker.count("Cannot connect to") == 1 and beat.count("beat: cannot") == 1
        broker.start()
        wait_for(lambda: resolved(service, match_id), 120, "the match resolved", parts)
        assert_resolved_at_deadline(service, match_id, deadline)
    finally:
        service.close()
    assert worker.alive() and beat.alive()
    assert worker.count(" ready.") == 1
    assert_said_once(worker, beat)
