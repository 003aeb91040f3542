"""Real brokers and real workers: Redis at 127.0.0.1:6379 and RabbitMQ at 127.0.0.1:5672.

Each test gets its own queue on the broker, its own PostgreSQL database, and
Celery apps built by `workers.app.create_app` for them; workers run in
threads (`celery.contrib.testing.worker.start_worker`, solo pool). A broker
that is not reachable skips the test with what to start, except in CI
(CI=true), where it fails.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from celery.contrib.testing.worker import TestWorkController, setup_app_for_worker
from celery.result import _set_task_join_will_block
from celery.worker import state
from kombu.asynchronous import set_event_loop

from service.matches import Matches
from service.scheduling import CeleryScheduler, Scheduler
from service.settings import Settings
from tests.conftest import in_ci
from workers import tasks
from workers.app import create_app

ROOT = Path(__file__).resolve().parents[2]
BROKERS = {
    "redis": (
        "redis://127.0.0.1:6379/14",
        6379,
        "Redis not reachable at 127.0.0.1:6379: start it with `redis-server --daemonize yes "
        "--bind 127.0.0.1 --port 6379` (Debian package redis-server)",
    ),
    "rabbitmq": (
        "amqp://guest:guest@127.0.0.1:5672//",
        5672,
        "RabbitMQ not reachable at 127.0.0.1:5672: start it with `rabbitmq-server "
        "-detached` (Debian package rabbitmq-server; user guest/guest), and give it "
        "~10 s",
    ),
}


def reachable(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=2):
        return True
    return False


@pytest.fixture(params=list(BROKERS))
def broker(request: pytest.FixtureRequest) -> str:
    """The URL of a reachable broker; skips (or fails in CI) with what to start."""
    url, port, hint = BROKERS[request.param]
    if not reachable(port):
        if in_ci():
            pytest.fail(hint)
        pytest.skip(hint)
    return url


class Cluster:
    """The Celery apps, the workers and the service of one test, on one queue and database."""

    def __init__(self, database_url: str, broker: str) -> None:
        self.settings = Settings(database_url, broker=broker, countdown_seconds=600)
        self.queue = f"drts-test-{uuid.uuid4().hex[:10]}"
        # results (for the test to wait on) go to the test's database: RabbitMQ's rpc://
        # backend took 10 s to deliver the first result to a client beside a thread worker
        self.backend = "db+" + database_url.replace("postgresql://", "postgresql+psycopg://")
        self.apps: list[Celery] = []
        self.client = self.app()
        self.services: list[Matches] = []

    def app(self) -> Celery:
        """Returns a new Celery app (a worker's or the client's) on the test's queue."""
        app = create_app(
            self.settings,
            task_default_queue=self.queue,
            result_backend=self.backend,
            task_ignore_result=False,
            result_expires=300,
            broker_transport_options={},
        )
        self.apps.append(app)
        return app

    def matches(self, scheduler: Scheduler | None = None) -> Matches:
        """Returns a Matches application on the test's database (real clock)."""
        service = Matches(env=self.settings.event_store_env(), scheduler=scheduler)
        self.services.append(service)
        return service

    def scheduling_matches(self) -> Matches:
        """Returns a Matches that sends countdown tasks to the test's queue."""
        return self.matches(CeleryScheduler(self.client, 600))

    @contextlib.contextmanager
    def workers(self, count: int = 1) -> Iterator[list[Celery]]:
        """Starts `count` workers, each with its own Celery app and Matches application.

        Like celery.contrib.testing.worker.start_worker, but stopping them all at
        once: its shutdown flag is global, so nested start_worker calls hang.
        """
        apps = [self.app() for _ in range(count)]
        controllers = []
        for i, app in enumerate(apps):
            # kombu's loop is global, and a worker takes the one set when it is made: each
            # gets its own, as a process would (a shared one, or a stopped worker's, stalls)
            set_event_loop(None)
            setup_app_for_worker(app, "WARNING", None)
            controllers.append(
                TestWorkController(
                    app=app,
                    concurrency=1,
                    pool="solo",
                    hostname=f"w{i}-{self.queue}@localhost",
                    loglevel="WARNING",
                    logfile=None,
                    ready_callback=None,
                    without_heartbeat=True,
                    without_mingle=True,
                    without_gossip=True,
                )
            )
        threads = [threading.Thread(target=c.start, daemon=True) for c in controllers]
        for thread, controller in zip(threads, controllers, strict=True):
            thread.start()
            controller.ensure_started()
        _set_task_join_will_block(False)  # the test thread waits on results, as start_worker's
        try:
            yield apps
        finally:
            state.should_terminate = 0
            for thread in threads:
                thread.join(20)
            state.should_terminate = None
            assert not any(thread.is_alive() for thread in threads), "a worker did not stop"

    @contextlib.contextmanager
    def worker_processes(self, count: int = 2, pool: str = "solo") -> Iterator[None]:
        """Starts `count` worker processes (`celery worker -P solo`, or another `pool` of
        one child), as on separate machines."""
        env = {
            **os.environ,
            "DRTS_DATABASE_URL": self.settings.database_url,
            "DRTS_BROKER_URL": self.settings.broker_url,
            "DRTS_TEST_QUEUE": self.queue,
            "DRTS_TEST_BACKEND": self.backend,
        }
        logs = [tempfile.TemporaryFile() for _ in range(count)]  # noqa: SIM115 (closed below)
        processes = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "tests.workers.celery_app",
                    "worker",
                    "-P",
                    pool,
                    *([] if pool == "solo" else ["-c", "1"]),
                    "-l",
                    "INFO",
                    "-n",
                    f"p{i}-{self.queue}@%h",
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            for i, log in enumerate(logs)
        ]
        try:
            for log in logs:
                wait_for(lambda log=log: b"ready." in _read(log), timeout=90)  # a loaded machine
            yield
        finally:
            for process in processes:
                process.send_signal(signal.SIGTERM)
            for process, log in zip(processes, logs, strict=True):
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    pytest.fail(f"a worker did not stop on SIGTERM:\n{_read(log).decode()}")
                log.close()

    def send(self, name: str, *args: Any, **options: Any) -> Any:
        return self.client.send_task(name, args=args, **options)

    def close(self) -> None:
        for app in self.apps:
            tasks.close_services(app)
        for service in self.services:
            service.close()
        with contextlib.suppress(Exception), self.client.connection_for_write() as conn:
            conn.default_channel.queue_delete(self.queue)
        for app in self.apps:
            app.close()


@pytest.fixture
def cluster(pg_database: str, broker: str, toy_rulesets: None) -> Iterator[Cluster]:
    """Celery apps on a fresh queue of the broker, and a fresh PostgreSQL database."""
    cluster = Cluster(pg_database, broker)
    yield cluster
    cluster.close()


def _read(log: Any) -> bytes:
    log.seek(0)
    return bytes(log.read())


def wait_for(condition: Callable[[], Any], timeout: float = 20, every: float = 0.05) -> Any:
    """Returns the condition's first truthy value; fails after `timeout` seconds."""
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        value = condition()
        if value:
            return value
        time.sleep(every)
    pytest.fail(f"waited {timeout} s in vain for {condition}")
