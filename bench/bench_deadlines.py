"""Deadline lateness: how long after its deadline a movement is resolved by the workers.

`.venv/bin/python bench/bench_deadlines.py [--sizes 100,1000] [--seconds 20] [--bursts 2]`

For each size N it creates N District War matches in a fresh PostgreSQL
database (127.0.0.1:5432, user postgres; dropped at the end), starts them all
so that their first movements (20 s, `placement_seconds`) fall due at the
same instant, and lets two worker processes (`celery worker -P solo`, two
processes) and one beat (sweep every second) on Redis (127.0.0.1:6379, db 13)
resolve them: the countdown tasks sent when the movements opened, and the
sweep behind them. Lateness is the resolution's timestamp (the worker's clock
when it resolved) minus the deadline; it prints p50, p99 and max, and the two workers'
CPU from half a second before the deadline until they are idle, a resolution. With
`--bursts 2` it measures movement 2's burst too, whose countdown tasks the workers sent
as they resolved movement 1 (for DRTS Team 23, whose movements are all as long). A
benchmark: it prints figures and never fails a test run.
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import multiprocessing
import os
import pstats
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.utils import get_topic

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_http import cpu_of  # noqa: E402
from domain.integrity import commitment  # noqa: E402
from domain.match import Match  # noqa: E402
from service.matches import Matches  # noqa: E402
from service.results import DueMovement  # noqa: E402
from service.scheduling import CeleryScheduler, producer_app  # noqa: E402
from service.settings import Settings  # noqa: E402
from service.workpolicy import BATCH_SIZE  # noqa: E402
from tests.support.postgres import new_pg_database, pg_url  # noqa: E402

BROKER = "redis://127.0.0.1:6379/13"
POLL = 0.05  # seconds between two reads of the store for resolutions
CPU_FROM = timedelta(seconds=0.5)  # the workers' CPU is counted from this before the deadline
IDLE_WAIT, IDLE_CPU = 0.5, 0.02  # to the end: until they spend less than 20 ms in 0.5 s


@contextmanager
def database() -> Iterator[str]:
    """Yields the URL of a fresh PostgreSQL database (dropped afterwards)."""
    with new_pg_database("drts_bench") as name:
        yield pg_url(name)


@contextmanager
def workers(settings: Settings, workdir: Path) -> Iterator[Callable[[], float]]:
    """Runs two solo worker processes and one beat; stops them at the end. Yields a
    function that returns the CPU seconds the two workers have spent so far."""
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
        yield lambda: sum(cpu_of(part.pid) for part in parts[:2])
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


GAMES: dict[str, tuple[dict[str, Any], int]] = {
    # game: (config, seats); the movement length is set by --seconds
    "drts_team23": ({}, 8),
    "district_war": ({"troops": 2}, 2),
}
SECONDS_KEY = {"drts_team23": "movement_seconds", "district_war": "placement_seconds"}
SETUP_PROCESSES = 3
BATCH = BATCH_SIZE  # as the workers batch


def started_match(game: str, seconds: int, index: int, at: datetime) -> Match:
    """Returns a started match of `game` with every seat joined, all of it pending: one
    save stores it (the bench's setup, instead of 10 commands each loading and saving)."""
    config, seats = GAMES[game]
    match = Match.create(
        uuid4(),
        game,
        {**config, SECONDS_KEY[game]: seconds},
        f"bench-{index}",
        commitment("bench-referee"),
        at,
    )
    for seat in range(1, seats + 1):
        match.join(f"seat{seat}", commitment(f"bench-seat-{seat}"), at)
    match.start(commitment("bench-referee"), at)
    return match


def create_started(job: tuple[str, str, int, int, int, float]) -> float:
    """Saves matches `first`..`last - 1` started at the instant `at` (one setup process);
    their countdown tasks go to the broker as the service sends them. Returns its seconds."""
    game, database_url, seconds, first, last, at = job
    settings = Settings(database_url, broker=BROKER)
    began, moment = time.monotonic(), datetime.fromtimestamp(at, UTC)
    app = Matches(
        env=settings.event_store_env(),
        clock=lambda: moment,
        scheduler=CeleryScheduler(producer_app(settings), 600),
    )
    for index in range(first, last):
        app.store.save(started_match(game, seconds, index, moment))
    app.close()
    return time.monotonic() - began


def run(
    game: str,
    size: int,
    seconds: int,
    settings: Settings,
    workers_cpu: Callable[[], float],
    bursts: int = 1,
) -> list[dict[str, Any]]:
    """Starts `size` matches whose first movements fall due `seconds` from now, in a few
    processes, and collects each resolution's lateness, and the workers' CPU from just
    before the deadline until they are idle (`workers_cpu`: their CPU seconds so far);
    with `bursts` 2, movement 2's too (its countdown tasks sent by the workers as they
    resolved movement 1). One result a burst."""
    started = datetime.now(UTC)
    deadline = started + timedelta(seconds=seconds)
    bounds = [size * i // SETUP_PROCESSES for i in range(SETUP_PROCESSES + 1)]
    jobs = [
        (game, settings.database_url, seconds, lo, hi, started.timestamp())
        for lo, hi in itertools.pairwise(bounds)
    ]
    with multiprocessing.get_context("spawn").Pool(SETUP_PROCESSES) as pool:
        setup = max(pool.map(create_started, jobs))
    app, results = Matches(env=settings.event_store_env()), []
    try:
        for movement in range(1, bursts + 1):
            due = deadline + (movement - 1) * timedelta(seconds=seconds)
            lateness, seen, resolutions, cpu = collect(app, size, due, workers_cpu, movement)
            results.append(
                {
                    "movement": movement,
                    "setup_s": setup,
                    "lateness": lateness,
                    "seen": seen,
                    "resolutions": resolutions,
                    "workers_cpu_s": cpu,
                }
            )
    finally:
        app.close()
    return results


def collect(
    app: Matches,
    size: int,
    deadline: datetime,
    workers_cpu: Callable[[], float],
    movement: int = 1,
) -> tuple[list[float], list[float], Counter[UUID], float]:
    """Waits until every match's `movement` is resolved (and one second more, to catch a
    duplicate); returns each first resolution's lateness (s) as recorded (the worker's
    clock when it resolved), as seen (when this poll, every POLL s, first read it from
    the store: the commit, a batch's whole save included), the count by match, and the
    workers' CPU seconds from CPU_FROM before the deadline until they are idle."""
    topic, position, late, seen = get_topic(Match.MovementResolved), 1, [], []
    count: Counter[UUID] = Counter()
    give_up = time.monotonic() + (deadline - datetime.now(UTC)).total_seconds() + 300
    settle_until, cpu_before = None, None
    while time.monotonic() < (settle_until or give_up):
        if cpu_before is None and datetime.now(UTC) >= deadline - CPU_FROM:
            cpu_before = workers_cpu()
        notes = app.store.recorder.select_notifications(start=position, limit=500, topics=[topic])
        now = datetime.now(UTC)
        for note in notes:
            resolved = app.store.mapper.to_domain_event(note)
            if getattr(resolved, "movement", None) == movement:
                count[resolved.originator_id] += 1
                if count[resolved.originator_id] == 1:
                    late.append((resolved.timestamp - deadline).total_seconds())
                    seen.append((now - deadline).total_seconds())
        position = notes[-1].id + 1 if notes else position
        if len(late) >= size and settle_until is None:
            settle_until = time.monotonic() + 1.0
        if len(notes) < 500:
            time.sleep(POLL)
    return late, seen, count, idle_cpu(workers_cpu) - (cpu_before or 0.0)


def idle_cpu(workers_cpu: Callable[[], float]) -> float:
    """Waits until the workers are idle (less than IDLE_CPU seconds of CPU in IDLE_WAIT,
    at most 60 s) and returns their CPU seconds then: what the burst made them do after
    it (the next movements' countdown tasks, the held tasks taken into a batch, the
    follower's catch-up) is counted too."""
    last, give_up = workers_cpu(), time.monotonic() + 60
    while time.monotonic() < give_up:
        time.sleep(IDLE_WAIT)
        now = workers_cpu()
        if now - last < IDLE_CPU:
            return now
        last = now
    return last


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def cost(game: str, settings: Settings, count: int = 100) -> str:
    """Resolves `count` due movements in this process one at a time as the tasks used to
    (`resolve_isolated`, loading each match first to learn its deadline), and `count` more
    in batches of 25 (`resolve_batch`, as the tasks do now); returns the CPU (of this
    process, not PostgreSQL's) and wall time of one resolution each way, and the Python
    function calls of one (cProfile, 25 more each way): figures that the machine's load
    disturbs less than lateness."""
    app = Matches(env=settings.event_store_env())
    past = datetime.now(UTC) - timedelta(seconds=70)  # movement 1 alone is due
    ids = []
    for index in range(2 * count + 2 * BATCH):
        match = started_match(game, 60, index, past)
        app.store.save(match)
        ids.append(match.id)
    due = [DueMovement(match_id, 1, past + timedelta(seconds=60)) for match_id in ids]

    def one_at_a_time(batch: list[DueMovement]) -> None:
        for item in batch:
            app.resolve_isolated(item.match_id, 1)

    def batched(batch: list[DueMovement]) -> None:
        for first in range(0, len(batch), BATCH):
            app.resolve_batch(batch[first : first + BATCH])

    single, many = timed(one_at_a_time, due[:count]), timed(batched, due[count : 2 * count])
    calls = [
        profiled(way, due[2 * count + i * BATCH :][:BATCH])
        for i, way in enumerate((one_at_a_time, batched))
    ]
    app.close()
    return (
        f"one resolution in-process: one at a time {single[0] / count:.2f} ms CPU, "
        f"{single[1] / count:.2f} ms wall, {calls[0]:.0f} Python calls; in batches of "
        f"{BATCH} {many[0] / count:.2f} ms CPU, {many[1] / count:.2f} ms wall, "
        f"{calls[1]:.0f} Python calls"
    )


def profiled(work: Callable[[list[DueMovement]], None], batch: list[DueMovement]) -> float:
    """Runs `work` on the batch under cProfile; returns its function calls per movement."""
    profile = cProfile.Profile()
    profile.runcall(work, batch)
    return float(pstats.Stats(profile).total_calls) / len(batch)  # type: ignore[attr-defined]


def timed(
    work: Callable[[list[DueMovement]], None], batch: list[DueMovement]
) -> tuple[float, float]:
    """Runs `work` on the batch; returns the CPU and wall time it took, in ms."""
    cpu, wall = time.process_time(), time.perf_counter()
    work(batch)
    return 1000 * (time.process_time() - cpu), 1000 * (time.perf_counter() - wall)


def report(game: str, size: int, result: dict[str, Any]) -> str:
    """Returns the line of one run: lateness percentiles as recorded and as seen in the
    store, and the exactly-once check."""
    late, seen, counts = result["lateness"], result["seen"], result["resolutions"]
    burst = f" (movement {result['movement']})" if result["movement"] > 1 else ""
    if not late:
        return f"{size:>5} matches{burst}: nothing resolved"
    twice = sum(1 for n in counts.values() if n > 1)
    return (
        f"{size:>5} matches{burst}: resolved {len(late)}/{size} "
        f"({'each exactly once' if not twice else f'{twice} more than once'}); lateness p50 "
        f"{percentile(late, 50):.3f} s, p99 {percentile(late, 99):.3f} s, max "
        f"{max(late):.3f} s (mean {statistics.fmean(late):.3f} s; setup {result['setup_s']:.1f} s)"
        f"; seen in the store: p50 {percentile(seen, 50):.3f} s, p99 {percentile(seen, 99):.3f} s"
        f"; workers' CPU from the deadline on {1000 * result['workers_cpu_s'] / len(late):.2f} ms"
        " a resolution"
    )


def measure(game: str, size: int, seconds: int, bursts: int = 1) -> str:
    """Runs one size of one game in a fresh database and queue; returns its lines."""
    workdir = Path(tempfile.mkdtemp(prefix="drts-bench-"))
    try:
        with database() as url:
            settings = Settings(url, broker=BROKER)
            create_tables(settings)
            purge(settings)
            if size == 0:
                return cost(game, settings)
            with workers(settings, workdir) as workers_cpu:
                results = run(game, size, seconds, settings, workers_cpu, bursts)
                return f"\n{game}: ".join(report(game, size, result) for result in results)
    except Exception as error:  # a benchmark reports, it never fails the run
        return f"{size:>5} matches: failed: {error!r}"
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="drts_team23,district_war")
    parser.add_argument("--sizes", default="0,100,1000", help="0: one resolution's cost")
    parser.add_argument("--seconds", type=int, default=90, help="movement length (s)")
    parser.add_argument(
        "--bursts",
        type=int,
        choices=(1, 2),
        default=1,
        help="2: movement 2's burst too (DRTS Team 23: its countdowns sent by the workers)",
    )
    args = parser.parse_args()
    print(
        f"deadline lateness: {args.seconds} s first movements falling due together; "
        "PostgreSQL + Redis, two solo worker processes + beat (sweep 1 s); "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    for game in args.games.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            print(f"{game}: {measure(game, size, args.seconds, args.bursts)}", flush=True)


if __name__ == "__main__":
    main()
