"""The supervisor of `drts run` with stand-in parts: a sweep that keeps failing restarts the
worker and beat with a logged line, and when restarts do not help everything stops, exit 1."""

from __future__ import annotations

import io
import sys
import threading
from datetime import UTC, datetime

import pytest

from cli import supervise
from cli.supervise import Supervisor

SLEEPER = [sys.executable, "-c", "import time; time.sleep(120)"]
READY_WORKER = [
    sys.executable,
    "-c",
    "import os, pathlib, time; pathlib.Path(os.environ['DRTS_READY_FILE']).touch(); "
    "print('consuming', flush=True); time.sleep(120)",
]

pytestmark = pytest.mark.timeout(120)


def test_a_sweep_failing_in_a_row_restarts_worker_and_beat_then_stops_everything(tmp_path):
    out = io.StringIO()
    supervisor = Supervisor(
        {"worker": READY_WORKER, "beat": SLEEPER, "api": SLEEPER},
        {},
        f"sqla+sqlite:///{tmp_path}/broker.sqlite",
        lambda: (None, datetime.now(UTC), supervise.SWEEP_FAILURES),  # fails on and on
        stale_seconds=60,
        out=out,
    )
    assert supervisor.run() == 1
    log = out.getvalue()
    assert log.index("the worker is ready") < log.index("started beat")
    assert "[worker] consuming" in log
    restarts = log.count("the sweep failed 3 times in a row: restarting worker and beat")
    assert restarts == supervise.MAX_RESTARTS
    assert "worker was restarted 3 times in 300 s without help; stopping everything" in log
    assert all(p.process and p.process.poll() is not None for p in supervisor.parts.values())


def test_a_sweep_that_succeeds_restarts_nothing(tmp_path):
    out = io.StringIO()
    supervisor = Supervisor(
        {"worker": READY_WORKER, "beat": SLEEPER, "api": SLEEPER},
        {},
        f"sqla+sqlite:///{tmp_path}/broker.sqlite",
        lambda: (datetime.now(UTC), None, 0),
        stale_seconds=60,
        out=out,
    )
    threading.Timer(3.0, supervisor.stop).start()
    assert supervisor.run() == 0
    assert "restarting" not in out.getvalue()
