"""`drts run` supervises its parts: a killed worker and a killed beat are started again with
a logged line and the sweep goes on (GET /health says so), and a broker that cannot be
reached stops it at once with a clear message and exit status 1."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.drts_run import ROOT, Http, wait_for
from tests.support.http import free_port

pytestmark = pytest.mark.timeout(180)


def start_run(tmp_path: Path, port: int, log: Path, **env_overrides: str) -> subprocess.Popen:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DRTS_DATABASE_URL", "DRTS_BROKER_URL")
    }
    env.update(
        DRTS_SWEEP_SECONDS="1",
        DRTS_MAIL_PORT=str(free_port()),  # the mail part's, so that 2525 may be taken
        PYTHONPATH=str(ROOT),
        **env_overrides,
    )
    with log.open("wb") as out:
        return subprocess.Popen(
            # INFO: the parts' own lines, relayed with their names (tested below)
            [sys.executable, "-m", "cli.main", "run", "--port", str(port), "--loglevel", "INFO"],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def pid_of(log: Path, name: str, nth: int) -> int | None:
    """Returns the pid of the `nth` start (1..) of a part, from drts run's log."""
    pids = re.findall(rf"\[drts run\] started {name} \(pid (\d+)\)", log.read_text())
    return int(pids[nth - 1]) if len(pids) >= nth else None


def swept_since(http: Http, moment: str) -> bool:
    sweep = http.call_any("GET", "/health")["checks"]["sweep"]
    return bool(sweep["last_success_at"] and sweep["last_success_at"] > moment)


def test_drts_run_restarts_a_killed_worker_and_a_killed_beat_and_the_sweep_goes_on(tmp_path):
    port, log = free_port(), tmp_path / "drts-run.log"
    run = start_run(tmp_path, port, log)
    try:
        http = Http(port, log)
        wait_for(lambda: http.call("GET", "/rulesets"), 60, "the API", log)
        # the API may answer before the supervisor has copied its first line into the log
        wait_for(lambda: re.search(r"^\[api\] ", log.read_text(), re.M), 30, "[api] line", log)
        text = log.read_text()
        assert text.index("the worker is ready") < text.index("started beat")
        assert re.search(r"^\[worker\] ", text, re.M)
        for name in ("worker", "beat"):
            before = http.call_any("GET", "/health")["checked_at"]
            os.kill(pid_of(log, name, 1) or 0, signal.SIGKILL)
            wait_for(lambda name=name: pid_of(log, name, 2), 60, f"{name} restarted", log)
            assert f"{name} exited (-9): restarting {name}" in log.read_text()
            wait_for(lambda before=before: swept_since(http, before), 60, "a new sweep", log)
        status = http.call_any("GET", "/health")
        assert status["checks"]["sweep"]["status"] == "ok", status
        assert run.poll() is None
    finally:
        run.send_signal(signal.SIGTERM)
        code = run.wait(60)
    assert code == 0, log.read_text()[-4000:]


def test_drts_run_exits_non_zero_when_the_broker_cannot_be_reached(tmp_path):
    log = tmp_path / "drts-run.log"
    run = start_run(tmp_path, free_port(), log, DRTS_BROKER_URL="redis://127.0.0.1:1/0")
    code = run.wait(60)
    text = log.read_text()
    assert code == 1, text
    assert "the broker redis://127.0.0.1:1/0 cannot be reached" in text
    assert "stopping everything" in text and "started worker" not in text
