"""Service benchmark: submit-order and resolve-movement through the Matches application,
on SQLite and on PostgreSQL, and the load time of a 1,000-event match with and
without snapshots.

Run: .venv/bin/python bench/bench_service.py [--movements 200]
The PostgreSQL part uses a throwaway database on 127.0.0.1:5432 that it
creates and drops (skipped, with a message, if the server is not reachable).
Prints figures and never fails. Figures of record: bench/service.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg

from domain.rules import registry
from service import schema
from service.matches import SNAPSHOT_INTERVAL, Matches
from service.settings import Settings
from tests.support.postgres import PG_HOST, PG_PORT, new_pg_database, pg_url
from tests.support.toy_ruleset import RULESET

CONFIG = {"close_early": False, "rounds": 100_000}  # orders stay pending until resolved


def no_snapshots(env: dict[str, str]) -> Matches:
    """Returns the same application and tables, loading every match from its first event."""
    matches = Matches(env={**env, "IS_SNAPSHOTTING_ENABLED": "n"})
    matches.store.snapshotting_intervals = {}
    return matches


def percentiles(samples: list[float]) -> str:
    """Returns 'median / p99' in milliseconds."""
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered) * 1000:7.2f} / {p99 * 1000:7.2f} ms"


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def new_match(app: Matches, seats: int = 2) -> tuple[Any, list[str]]:
    new = app.create_match("toy", CONFIG, seats=seats, seed="bench")
    tokens = [app.join(new.match_id, f"p{i}").token for i in range(seats)]
    app.start(new.match_id, str(new.referee_token))
    return new.match_id, tokens


def bench_play(app: Matches, movements: int) -> tuple[list[float], list[float]]:
    """Times `submit_order` (load, check, save) and `resolve` (load, rules, save the batch of
    ~9 events) on one growing match: two orders then a resolution per movement."""
    match_id, tokens = new_match(app)
    submits, resolves = [], []
    for movement in range(1, movements + 1):
        for seat, pick in ((0, "1"), (1, "2")):
            submits.append(timed(lambda s=seat, p=pick: app.submit_order(match_id, tokens[s], p)))
        at = app.clock() + timedelta(days=movement)
        resolves.append(timed(lambda m=movement, at=at: app.resolve(match_id, m, at)))
    return submits, resolves


def bench_load(env: dict[str, str], events: int = 1000, loads: int = 20) -> tuple[float, float]:
    """Returns the median load time of a match of `events` events (two orders and a resolution
    per movement), with and without snapshots."""
    app = Matches(env=env)
    match_id, tokens = new_match(app)
    movement = 1
    while app.get_match(match_id).version < events:
        app.submit_order(match_id, tokens[0], "1")
        app.submit_order(match_id, tokens[1], "2")
        app.resolve(match_id, movement, app.clock() + timedelta(days=movement))
        movement += 1
    plain = no_snapshots(env)
    with_snapshots = statistics.median(timed(lambda: app.get_match(match_id)) for _ in range(loads))
    without = statistics.median(timed(lambda: plain.get_match(match_id)) for _ in range(loads))
    app.close()
    plain.close()
    return with_snapshots, without


@contextmanager
def sqlite_store() -> Iterator[dict[str, str]]:
    with tempfile.TemporaryDirectory(prefix="drts-bench-") as directory:
        yield Settings(f"sqlite:///{directory}/bench.sqlite").event_store_env()


@contextmanager
def postgres_store() -> Iterator[dict[str, str]]:
    with new_pg_database("drts_bench") as name:
        url = pg_url(name)
        schema.upgrade(Settings(url))  # `drts db upgrade`: PostgreSQL is never migrated implicitly
        yield Settings(url).event_store_env()


def run(label: str, store: Callable[[], Any], movements: int) -> None:
    try:
        with store() as env:
            app = Matches(env=env)
            submit, resolve = bench_play(app, movements)
            app.close()
            loaded, replayed = bench_load(env)
    except psycopg.OperationalError as error:
        print(f"{label:10} skipped: PostgreSQL not reachable at {PG_HOST}:{PG_PORT} ({error})")
        return
    print(f"{label:10} submit-order  median / p99 {percentiles(submit)}  ({len(submit)} orders)")
    print(
        f"{label:10} resolve       median / p99 {percentiles(resolve)}  ({movements} "
        "movements of 2 orders)"
    )
    print(
        f"{label:10} load 1,000-event match: {loaded * 1000:.2f} ms with snapshots, "
        f"{replayed * 1000:.2f} ms without"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--movements", type=int, default=200)
    args = parser.parse_args()
    registry.REGISTRY.setdefault(RULESET.info.name, {1: RULESET})
    print(
        "Matches application, toy ruleset (service cost, not rules), zlib compression on, "
        f"a snapshot every {SNAPSHOT_INTERVAL} versions"
    )
    run("sqlite", sqlite_store, args.movements)
    run("postgres", postgres_store, args.movements)


if __name__ == "__main__":
    main()
