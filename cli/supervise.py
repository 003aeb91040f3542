"""The supervisor of `drts run`: starts the parts in order, restarts what fails, stops all.

- The broker is asked first (service/health.py): one that does not answer within
  BROKER_WAIT_SECONDS stops `drts run` with a clear message and exit status 1.
- The worker starts next; beat only once the worker is ready (it consumes from
  the broker: it touches $DRTS_READY_FILE, workers/app.py); then the API and the
  optional parts. Once the API answers on its address (or READY_WAIT_SECONDS
  after it started), the `ready` lines are logged: what a user needs to know.
- A part that exits is started again, with a logged line. The sweep is watched
  in the database (`sweep_status`): one that has not succeeded for
  stale_seconds, or failed SWEEP_FAILURES times in a row, restarts the worker
  and beat (a beat just started gets START_GRACE_SECONDS more for its first sweep).
  A part restarted more than MAX_RESTARTS times within
  RESTART_WINDOW_SECONDS stops everything with a message and exit status 1.
- Every part's output goes to this process's standard error, each line led by
  the part's name (`[worker] ...`).
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from service.health import broker_reachable

BROKER_WAIT_SECONDS = 10.0
READY_WAIT_SECONDS = 60.0
STOP_SECONDS = 20.0
MAX_RESTARTS = 3
RESTART_WINDOW_SECONDS = 300.0
SWEEP_FAILURES = 3
# Celery beat took 11 s to send its first sweep on a busy 2-core machine: no sweep since
# beat (re)started is stale only after stale_seconds and this
START_GRACE_SECONDS = 30.0
READY_FILE_VARIABLE = "DRTS_READY_FILE"


class GiveUp(Exception):
    """Raised when a part cannot be started or keeps failing: everything stops."""


@dataclass
class Part:
    """One child process: its command, its process, and when it was (re)started."""

    name: str
    command: list[str]
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    started_wall: datetime | None = None
    restarts: list[float] = field(default_factory=list)


# (last success, last failure, failures in a row) of the sweep, from the database
SweepProbe = Callable[[], tuple[datetime | None, datetime | None, int]]


class Supervisor:
    """Starts worker, beat and API in order, watches them and the sweep, stops them all."""

    def __init__(
        self,
        parts: dict[str, list[str]],
        env: dict[str, str],
        broker_url: str,
        sweep_probe: SweepProbe,
        stale_seconds: float,
        out: IO[str] = sys.stderr,
        api_address: tuple[str, int] | None = None,
        ready: Sequence[str] = (),
    ) -> None:
        self.parts = {name: Part(name, command) for name, command in parts.items()}
        self.api_address, self.ready, self.announced = api_address, ready, False
        self.broker_url, self.sweep_probe, self.stale_seconds = (
            broker_url,
            sweep_probe,
            stale_seconds,
        )
        self.out, self.stopping = out, threading.Event()
        self.ready_dir = tempfile.TemporaryDirectory(prefix="drts-run-")
        self.env = {**env, READY_FILE_VARIABLE: str(Path(self.ready_dir.name) / "worker-ready")}
        self._write = threading.Lock()

    def run(self) -> int:
        """Runs until stopped (0) or until it gives up (1, with the reason logged)."""
        try:
            self._wait_for_broker()
            self._start_worker()
            self._start("beat")
            self._start("api")
            for name in self.parts.keys() - {"worker", "beat", "api"}:
                self._start(name)  # the optional parts (`drts mail serve`)
            self._watch()
            return 0
        except GiveUp as reason:
            self.say(f"{reason}; stopping everything")
            return 1
        finally:
            self._stop_all()
            self.ready_dir.cleanup()

    def stop(self, *_: object) -> None:
        """Asks the supervisor to stop every part (a signal handler)."""
        self.stopping.set()

    def say(self, line: str) -> None:
        """Logs one line of the supervisor's own."""
        self._emit("drts run", line)

    # -- starting -------------------------------------------------------------------------

    def _wait_for_broker(self) -> None:
        give_up, error = time.monotonic() + BROKER_WAIT_SECONDS, None
        while not self.stopping.is_set() and time.monotonic() < give_up:
            error = broker_reachable(self.broker_url)
            if error is None:
                return
            time.sleep(0.5)
        raise GiveUp(f"the broker {self.broker_url} cannot be reached: {error}")

    def _start_worker(self) -> None:
        ready = Path(self.env[READY_FILE_VARIABLE])
        ready.unlink(missing_ok=True)
        part = self._start("worker")
        give_up = time.monotonic() + READY_WAIT_SECONDS
        while not ready.exists():
            if self.stopping.is_set():
                return
            if part.process is not None and part.process.poll() is not None:
                raise GiveUp(f"the worker exited ({part.process.returncode}) before it was ready")
            if time.monotonic() > give_up:
                raise GiveUp(f"the worker was not ready after {READY_WAIT_SECONDS:.0f} s")
            time.sleep(0.2)
        self.say("the worker is ready")

    def _start(self, name: str) -> Part:
        part = self.parts[name]
        part.process = subprocess.Popen(
            part.command, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        part.started_at, part.started_wall = time.monotonic(), datetime.now(UTC)
        self.say(f"started {name} (pid {part.process.pid})")
        threading.Thread(target=self._relay, args=(part,), daemon=True).start()
        return part

    def _announce_once_ready(self) -> None:
        """Logs the ready lines once the API answers (or READY_WAIT_SECONDS after the start,
        answering or not); called on every turn of the watch, so it never holds it up."""
        if self.announced:
            return
        api = self.parts.get("api")
        waited = time.monotonic() - (api.started_at if api else 0.0)
        if self.api_address is None or waited > READY_WAIT_SECONDS or answers(*self.api_address):
            self.announced = True
            for line in self.ready:
                self.say(line)

    # -- watching -------------------------------------------------------------------------

    def _watch(self) -> None:
        while not self.stopping.wait(0.5):
            self._announce_once_ready()
            for part in self.parts.values():
                code = None if part.process is None else part.process.poll()
                if code is not None and not self.stopping.is_set():
                    self._restart([part.name], f"{part.name} exited ({code})")
            self._watch_sweep()

    def _watch_sweep(self) -> None:
        try:
            last, last_failure, failures = self.sweep_probe()
        except Exception as error:  # the database is the store's check, not a reason to stop
            self.say(f"cannot read the sweep's state: {error}")
            return
        beat = self.parts["beat"]
        quiet = time.monotonic() - beat.started_at
        if last is not None:
            quiet = min(quiet, (datetime.now(UTC) - last).total_seconds())
        since = beat.started_wall or datetime.now(UTC)
        recent = last_failure is not None and last_failure > since  # not before the restart
        allowed = self.stale_seconds
        if last is None or last < since:  # beat's first sweep: it may take a while to start
            allowed += START_GRACE_SECONDS
        if recent and failures >= SWEEP_FAILURES:
            self._restart(["worker", "beat"], f"the sweep failed {failures} times in a row")
        elif quiet > allowed:
            self._restart(["worker", "beat"], f"no sweep succeeded for {quiet:.0f} s")

    def _restart(self, names: list[str], why: str) -> None:
        now = time.monotonic()
        for name in names:
            part = self.parts[name]
            part.restarts = [t for t in part.restarts if now - t < RESTART_WINDOW_SECONDS]
            if len(part.restarts) >= MAX_RESTARTS:
                raise GiveUp(
                    f"{why}, and {name} was restarted {MAX_RESTARTS} times in "
                    f"{RESTART_WINDOW_SECONDS:.0f} s without help"
                )
            part.restarts.append(now)
        self.say(f"{why}: restarting {' and '.join(names)}")
        for name in names:
            self._stop_part(self.parts[name])
        for name in names:
            self._start_worker() if name == "worker" else self._start(name)

    # -- stopping -------------------------------------------------------------------------

    def _stop_all(self) -> None:
        for part in self.parts.values():
            if part.process is not None and part.process.poll() is None:
                part.process.send_signal(signal.SIGTERM)
        for part in self.parts.values():
            self._stop_part(part)

    def _stop_part(self, part: Part) -> None:
        """Stops a part (SIGTERM, Celery's warm shutdown; killed after STOP_SECONDS)."""
        process = part.process
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    # -- logs -----------------------------------------------------------------------------

    def _relay(self, part: Part) -> None:
        """Copies a part's output to ours, each line led by its name."""
        process = part.process
        assert process is not None and process.stdout is not None
        for raw in process.stdout:
            self._emit(part.name, raw.decode("utf-8", "replace").rstrip("\n"))

    def _emit(self, name: str, line: str) -> None:
        with self._write:
            self.out.write(f"[{name}] {line}\n")
            self.out.flush()


def answers(host: str, port: int) -> bool:
    """Returns whether a server accepts connections on host:port now."""
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False
