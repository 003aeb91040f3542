"""Memory: the RSS of an API process and a worker process after serving 1,000 and then
10,000 matches; the growth between the two should stay under 100 MB (issue 31).

`.venv/bin/python bench/bench_memory.py [--counts 1000,10000] [--clients 4]`

Over a fresh PostgreSQL database (127.0.0.1:5432, dropped at the end) it runs the
API under gunicorn (one worker process, 4 threads) and one worker process (`celery
-A workers.app worker -P solo`) on Redis (127.0.0.1:6379, db 12). Each match served
is a District War match created, joined by two seats, started and read over HTTP
(5 requests); its 1 s movements are then resolved by the worker's countdown tasks
until the silent seats' strikes end it (a few resolutions each). Once every match
served so far has finished, it prints the RSS of both processes. Caches and their
limits: docs/operations.md (Memory). A benchmark: prints figures, never fails a run.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service import schema  # noqa: E402
from service.matches import Matches  # noqa: E402
from service.settings import Settings  # noqa: E402
from tests.support.gunicorn import gunicorn  # noqa: E402
from tests.support.http import call  # noqa: E402
from tests.support.postgres import new_pg_database, pg_url  # noqa: E402

BROKER = "redis://127.0.0.1:6379/12"
TIMEOUT = 60
CONFIG = {"placement_seconds": 1, "extension_seconds": 1, "max_strikes": 1}


def rss_mb(pid: int) -> float:
    """Returns the resident set size of a process in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def children(pid: int) -> list[int]:
    """Returns the child processes of `pid` (gunicorn's workers)."""
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(child) for child in text.split()]


def gunicorn_worker() -> int:
    """Returns the pid of the gunicorn worker process this bench started (the API)."""
    for child in children(os.getpid()):
        if b"gunicorn" in Path(f"/proc/{child}/cmdline").read_bytes():
            [api] = children(child)
            return api
    raise RuntimeError("no gunicorn worker process found")


def serve_match(base: str) -> None:
    """Creates, fills, starts and reads one District War match over HTTP."""
    status, created = call(
        base, "POST", "/matches", {"ruleset": "district_war", "config": CONFIG}, timeout=TIMEOUT
    )
    if status != 201:
        raise RuntimeError(f"create failed: {status} {created}")
    path = f"/matches/{created['match_id']}"
    for name in ("alice", "bob"):
        call(base, "POST", f"{path}/seats", {"name": name}, timeout=TIMEOUT)
    call(base, "POST", f"{path}/start", token=created["referee_token"], timeout=TIMEOUT)
    call(base, "GET", path, timeout=TIMEOUT)


def open_movements(app: Matches) -> int:
    """Returns how many movements are still open (the worker has resolutions to do)."""
    app.read_models.catch_up(["deadlines"])
    rows = app.read_models.view("deadlines").query(
        "SELECT COUNT(*) AS n FROM {deadlines} WHERE closed = FALSE"
    )
    return int(rows[0]["n"])


@contextmanager
def worker(settings: Settings, log: Path) -> Iterator[int]:
    """Runs one solo worker process; yields its pid."""
    env = {
        **os.environ,
        "DRTS_DATABASE_URL": settings.database_url,
        "DRTS_BROKER_URL": BROKER,
        "PYTHONPATH": str(ROOT),
    }
    command = [sys.executable, "-m", "celery", "-A", "workers.app", "worker", "-P", "solo"]
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [*command, "-l", "WARNING", "--without-gossip", "--without-mingle"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            time.sleep(4)  # it connects and declares its queue (the countdown tasks wait)
            yield process.pid
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(60)


def measure(counts: list[int], clients: int, url: str) -> None:
    settings = Settings(url, broker=BROKER)
    schema.upgrade(settings)
    app = Matches(env=settings.event_store_env())
    served_env = {
        "DRTS_BROKER_URL": BROKER,
        "DRTS_RATE_LIMIT_PER_ADDRESS": "0",
        "DRTS_RATE_LIMIT_PER_TOKEN": "0",
    }
    log = Path(f"/tmp/drts-bench-memory-{os.getpid()}.log")
    with (
        gunicorn(url, 1, 4, served_env, boot_seconds=180) as base,
        worker(settings, log) as worker_pid,
    ):
        api_pid = gunicorn_worker()
        served, figures = 0, []
        began = time.monotonic()
        with ThreadPoolExecutor(clients) as pool:
            for count in counts:
                list(pool.map(lambda _: serve_match(base), range(count - served)))
                served = count
                while open_movements(app):
                    time.sleep(1)
                figures.append((count, rss_mb(api_pid), rss_mb(worker_pid)))
                print(
                    f"after {count:>6} matches ({time.monotonic() - began:.0f} s): API "
                    f"{figures[-1][1]:.1f} MB, worker {figures[-1][2]:.1f} MB",
                    flush=True,
                )
    app.close()
    first, last = figures[0], figures[-1]
    print(
        f"growth from {first[0]} to {last[0]} matches: API {last[1] - first[1]:+.1f} MB, "
        f"worker {last[2] - first[2]:+.1f} MB (target: under 100 MB each)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", default="1000,10000", help="matches served, cumulative")
    parser.add_argument("--clients", type=int, default=4, help="concurrent client threads")
    args = parser.parse_args()
    print(
        f"memory: gunicorn (1 worker x 4 threads) + 1 solo worker, PostgreSQL + Redis; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    try:
        with new_pg_database("drts_bench_memory") as name:
            measure([int(c) for c in args.counts.split(",")], args.clients, pg_url(name))
    except Exception as error:  # a benchmark reports, it never fails the run
        print(f"bench_memory: failed: {type(error).__name__}: {error}")


if __name__ == "__main__":
    main()
