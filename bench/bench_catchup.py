"""Read-model catch-up benchmark: events per second a rebuild and a catch-up apply.

Stores a log on PostgreSQL (a throwaway database at 127.0.0.1:5432, created, migrated and
dropped here) and on SQLite (a temporary file): `--mixes` random mixes of `--count`
matches each (tests/service/readmodel_support.py: toy, District War and DRTS Team 23
matches played to their end, with rejected orders and silences). Then times, on each
store, `read_models.rebuild(name)` for every projection, and one `catch_up()` of all of
them after every projection is emptied. Prints events applied, seconds and events per
second; never fails.

With `--burst N` it measures instead the catch-up after a burst (issue 42): N District
War matches created, seated and started (caught up), then their first movements all due
at once and resolved together (`resolve_batch`, 25 at a time, as the workers do), and the
time every projection takes to catch up on the burst's events, the match list first.

Run: .venv/bin/python bench/bench_catchup.py [--mixes 4 --count 20] [--burst 1000]
Figures of record: bench/catchup.md (issues 30, 31, 42).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from domain.rules import registry  # noqa: E402
from service import schema  # noqa: E402
from service.clock import ManualClock  # noqa: E402
from service.matches import Matches  # noqa: E402
from service.settings import Settings  # noqa: E402
from tests.service.readmodel_support import play_random_mix  # noqa: E402
from tests.support.postgres import new_pg_database, pg_url  # noqa: E402
from tests.support.toy_ruleset import TOYS  # noqa: E402


def stores() -> Iterator[tuple[str, str]]:
    """Yields (label, database URL) for a new SQLite file, then a new PostgreSQL database."""
    with tempfile.TemporaryDirectory() as directory:
        yield "sqlite", f"sqlite:///{directory}/bench.sqlite"
    try:
        with new_pg_database("drts_bench_catchup") as name:
            yield "postgres", pg_url(name)
    except Exception as error:  # no server: the SQLite figures still stand
        print(f"postgres: skipped ({error})")


def fill(url: str, mixes: int, count: int) -> Matches:
    """Returns the Matches application on a migrated store holding the played mixes."""
    schema.upgrade(Settings(url))
    clock = ManualClock()
    app = Matches(env=Settings(url).event_store_env(), clock=clock)
    for seed in range(mixes):
        play_random_mix(app, clock, seed=seed, count=count)
    return app


def timed(label: str, run: Callable[[], int | dict[str, int]]) -> None:
    """Prints how many events `run()` applied, how long it took, and the rate."""
    start = time.perf_counter()
    applied = run()
    seconds = time.perf_counter() - start
    total = applied if isinstance(applied, int) else sum(applied.values())
    print(f"  {label:<22} {total:>7} events {seconds:8.3f} s {total / seconds:>9.0f} events/s")


def measure(label: str, url: str, mixes: int, count: int) -> None:
    """Fills a store, then times each projection's rebuild and one catch-up of all."""
    app = fill(url, mixes, count)
    models = app.read_models
    models.catch_up()
    head = app.store.recorder.max_notification_id() or 0
    print(f"{label}: {head} events in the log")
    try:
        for name in models.projections:
            timed(f"rebuild {name}", lambda name=name: models.rebuild(name))
        for name in models.projections:
            with models.view(name).batch():
                models.view(name).reset(app.store.name)
        timed("catch_up (all)", models.catch_up)
    finally:
        app.close()


def burst(label: str, url: str, size: int) -> None:
    """Resolves `size` District War movements due together, then times the catch-up of the
    match list, then of every other projection, over the burst's events."""
    schema.upgrade(Settings(url))
    clock = ManualClock()
    app = Matches(env=Settings(url).event_store_env(), clock=clock)
    try:
        started = []
        for n in range(size):
            new = app.create_match("district_war", seats=2, seed=f"burst {n}")
            for name in ("ann", "bo"):
                app.join(new.match_id, name)
            app.start(new.match_id, str(new.referee_token))
            started.append(new.match_id)
        models = app.read_models
        models.catch_up()
        before = app.store.recorder.max_notification_id() or 0
        clock.reach(max(app.get_match(m).deadline for m in started) + timedelta(seconds=1))
        due = app.due_movements()
        for first in range(0, size, 25):
            app.resolve_batch(due[first : first + 25])
        events = (app.store.recorder.max_notification_id() or 0) - before
        print(f"{label}: a burst of {size} resolutions wrote {events} events")
        timed("catch_up match_list", lambda: models.catch_up(["match_list"]))
        timed("catch_up the others", lambda: models.catch_up())
    finally:
        app.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mixes", type=int, default=4, help="random mixes played")
    parser.add_argument("--count", type=int, default=20, help="matches per mix")
    parser.add_argument("--burst", type=int, default=0, help="matches resolved in one burst")
    args = parser.parse_args()
    for toy in TOYS:
        registry.REGISTRY[toy.info.name] = {toy.info.version: toy}
    for label, url in stores():
        if args.burst:
            burst(label, url, args.burst)
        else:
            measure(label, url, args.mixes, args.count)


if __name__ == "__main__":
    main()
