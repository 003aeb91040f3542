"""Deadline lateness: how long after its deadline a movement is resolved by the workers.

`.venv/bin/python bench/bench_deadlines.py [--sizes 100,1000] [--seconds 20]`

For each size N it creates N District War matches in a fresh PostgreSQL
database (127.0.0.1:5432, user postgres; dropped at the end), starts them all
so that their first movements (20 s, `placement_seconds`) fall due at the
same instant, and lets two worker processes (`celery worker -P solo`, two
processes) and one beat (sweep every second) on Redis (127.0.0.1:6379, db 13)
resolve them: the countdown tasks sent when the movements opened, and the
sweep behind them. Lateness is the resolution's timestamp (the worker's clock
when it resolved) minus the deadline; it prints p50, p99 and max. A benchmark:
it prints figures and never fails a test run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from eventsourcing.utils import get_topic

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domain.match import Match  # noqa: E402
from service.matches import Matches  # noqa: E402
from service.scheduling import CeleryScheduler, producer_app  # noqa: E402
from service.settings import Settings  # noqa: E402
from tests.support.postgres import new_pg_database, pg_url  # noqa: E402

BROKER = "redis://127.0.0.1:6379/13"


@contextmanager
def database() -> Iterator[str]:
    """Yields the URL of a fresh PostgreSQL database (dropped afterwards)."""
    with new_pg_database("drts_bench") as name:
        yield pg_url(name)


@contextmanager
def workers(settings: Settings, workdir: Path) -> Iterator[None]:
    """Runs two solo worker processes and one beat; stops them at the end."""
    env = {
        **os.environ,
        "DRTS_DATABASE_URL": settings.database_url,
        "DRTS_BROKER_URL": settings.broker_url,
        "DRTS_SWEEP_SECONDS": "1",
        "PYTHONPATH": str(ROOT),
    }
    celery = [sys.executable, "-m", "celery", "-A", "workers.app"]
    commands = [
        [
            *celery,
            "worker",
            "-P",
            "solo",
            "-l",
            "WARNING",
            "-n",
            f"bench{i}@%h",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
        for i in (1, 2)
    ]
    commands.append([*celery, "beat", "-l", "WARNING", "-s", str(workdir / "beat-schedule")])
    logs = [open(workdir / f"part{i}.log", "wb") for i in range(3)]  # noqa: SIM115
    parts = [
        subprocess.Popen(c, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
        for c, log in zip(commands, logs, strict=True)
    ]
    try:
        time.sleep(4)  # the workers connect and declare their queue
        yield
    finally:
        for part in parts:
            part.send_signal(signal.SIGTERM)
        for part in parts:
            try:
                part.wait(30)
            except subprocess.TimeoutExpired:
                part.kill()
        for log in logs:
            log.close()


def create_tables(settings: Settings) -> None:
    """Migrates the new database (`drts db upgrade`), or lets eventsourcing create its tables."""
    try:
        from service import schema
    except ImportError:
        Matches(env=settings.event_store_env()).close()
        return
    schema.upgrade(settings)  # type: ignore[attr-defined]


def purge(settings: Settings) -> None:
    app = producer_app(settings)
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge("drts")
    app.close()


class FixedClock:
    """The bench's clock: stays at `now` while the matches start, so deadlines coincide."""

    def __init__(self) -> None:
        self.now: datetime | None = None

    def __call__(self) -> datetime:
        return self.now or datetime.now(UTC)


def run(size: int, seconds: int, settings: Settings, workdir: Path) -> dict[str, Any]:
    clock = FixedClock()
    app = Matches(
        env=settings.event_store_env(),
        clock=clock,
        scheduler=CeleryScheduler(producer_app(settings), 600),
    )
    config = {"troops": 2, "placement_seconds": seconds}
    started = time.monotonic()
    pending = []
    for i in range(size):
        new = app.create_match("district_war", config, seed=f"bench-{i}")
        app.join(new.match_id, "alice")
        app.join(new.match_id, "bob")
        pending.append(new)
    created = time.monotonic() - started
    clock.now = datetime.now(UTC)
    deadline = clock.now + timedelta(seconds=seconds)
    for new in pending:
        app.start(new.match_id, str(new.referee_token))
    clock.now = None
    opening = (datetime.now(UTC) - (deadline - timedelta(seconds=seconds))).total_seconds()
    lateness = collect(app, size, deadline)
    app.close()
    return {"size": size, "create_s": created, "start_s": opening, "lateness": lateness}


def collect(app: Matches, size: int, deadline: datetime) -> list[float]:
    """Waits until every match's movement 1 is resolved; returns each one's lateness (s)."""
    topic, position, late = get_topic(Match.MovementResolved), 1, []
    give_up = time.monotonic() + (deadline - datetime.now(UTC)).total_seconds() + 300
    while len(late) < size and time.monotonic() < give_up:
        notes = app.recorder.select_notifications(start=position, limit=500, topics=[topic])
        for note in notes:
            resolved = app.mapper.to_domain_event(note)
            if getattr(resolved, "movement", None) == 1:
                late.append((resolved.timestamp - deadline).total_seconds())
        position = notes[-1].id + 1 if notes else position
        if len(notes) < 500:
            time.sleep(0.2)
    return late


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000")
    parser.add_argument("--seconds", type=int, default=20, help="movement length (s)")
    args = parser.parse_args()
    print(
        f"deadline lateness: District War, {args.seconds} s movements falling due together; "
        "PostgreSQL + Redis, two solo worker processes + beat (sweep 1 s)"
    )
    for size in (int(s) for s in args.sizes.split(",")):
        workdir = Path(tempfile.mkdtemp(prefix="drts-bench-"))
        try:
            with database() as url:
                settings = Settings(url, broker=BROKER)
                create_tables(settings)
                purge(settings)
                with workers(settings, workdir):
                    result = run(size, args.seconds, settings, workdir)
        except Exception as error:  # a benchmark reports, it never fails the run
            print(f"{size:>5} matches: failed: {error!r}")
            continue
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        late = result["lateness"]
        if not late:
            print(f"{size:>5} matches: nothing resolved")
            continue
        print(
            f"{size:>5} matches: resolved {len(late)}/{size}; lateness p50 "
            f"{percentile(late, 50):.3f} s, p99 {percentile(late, 99):.3f} s, max "
            f"{max(late):.3f} s (mean {statistics.fmean(late):.3f} s; setup "
            f"{result['create_s']:.1f} s, starts took {result['start_s']:.1f} s)"
        )


if __name__ == "__main__":
    main()
