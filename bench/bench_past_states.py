"""Past-states benchmark: the state at any movement of a finished 40-movement DRTS Team 23
match, its full replay and its audit, over HTTP under gunicorn, on PostgreSQL.

Plays the match through the Matches application on a throwaway PostgreSQL database at
127.0.0.1:5432 (created, migrated and dropped here): 8 seats, 40 movements, every seat
sending a legal order of two operations a movement (bench_drts_team23's `full_order`,
holding when it has none), the eighth order closing the movement. Then serves it with
gunicorn and times, from one client: GET /matches/{id}/state?movement=k for every k,
five passes in a shuffled order (the first pass apart: nothing is cached yet), GET
/replay and GET /audit. Then, without HTTP and in the same run, the same reads through
two Matches applications on the store, one keeping the past (service/store/pastreads.py)
and one not (DRTS_PAST_CACHE_SIZE=0), for the ratio. Prints median and p99; never fails.

Run: .venv/bin/python bench/bench_past_states.py [--passes 5]
Figures of record: bench/past_states.md. Issue 30's targets: state p99 <= 5 ms,
replay <= 50 ms; the audit's cost is reported.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from bench.bench_drts_team23 import full_order  # noqa: E402
from domain.rules.rng import Rng  # noqa: E402
from service import schema  # noqa: E402
from service.matches import Matches  # noqa: E402
from service.settings import Settings  # noqa: E402
from tests.support.gunicorn import gunicorn  # noqa: E402
from tests.support.http import call  # noqa: E402
from tests.support.postgres import PG_HOST, PG_PORT, new_pg_database, pg_url  # noqa: E402

SEATS = 8
MOVEMENTS = 40
CONFIG = {"close_early": True, "movements": MOVEMENTS, "max_movements": MOVEMENTS}


def play_finished_match(url: str) -> str:
    """Plays a DRTS Team 23 match to its end; returns its id."""
    app = Matches(env=Settings(url).event_store_env())
    try:
        created = app.create_match("drts_team23", CONFIG, seed="bench")
        match_id = created.match_id
        tokens = [app.join(match_id, f"p{seat}").token for seat in range(1, SEATS + 1)]
        app.start(match_id, str(created.referee_token))
        rng = Rng("bench-orders", 0)
        while not app.get_match(match_id).finished:
            match = app.get_match(match_id)
            table = match.table()
            for seat, token in enumerate(tokens, start=1):
                app.submit_order(match_id, token, order_json(table, seat, rng))
        return str(match_id)
    finally:
        app.close()


def order_json(table: Any, seat: int, rng: Rng) -> Any:
    """Returns a legal order of two operations for the seat, in JSON; `hold` if none."""
    try:
        return table.ruleset.dump_order(full_order(table.state, seat, rng))
    except Exception:  # a seat with nothing to move, or an item-only position
        return "hold"


def timed_get(base: str, path: str) -> float:
    began = time.perf_counter()
    status, body = call(base, "GET", path, timeout=120)
    seconds = time.perf_counter() - began
    if status != 200:
        raise RuntimeError(f"GET {path}: {status} {body}")
    return seconds


def ms(samples: list[float], p: float | None = None) -> str:
    ordered = sorted(samples)
    if p is None:
        return f"{statistics.median(ordered) * 1000:.1f} ms"
    return f"{ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] * 1000:.1f} ms"


def measure(base: str, match_id: str, passes: int) -> None:
    movements = list(range(1, MOVEMENTS + 1))
    passes_taken: list[list[float]] = []
    for _ in range(passes):
        random.shuffle(movements)
        passes_taken.append(
            [timed_get(base, f"/matches/{match_id}/state?movement={k}") for k in movements]
        )
    first, later = passes_taken[0], [s for taken in passes_taken[1:] for s in taken]
    print(
        f"state at a movement, first pass ({len(first)}): median {ms(first)}, p99 {ms(first, 99)}"
    )
    if later:
        print(
            f"state at a movement, later passes ({len(later)}): median {ms(later)}, "
            f"p99 {ms(later, 99)}  (issue 30: p99 <= 5 ms)"
        )
    replays = [timed_get(base, f"/matches/{match_id}/replay") for _ in range(5)]
    print(f"full replay (5): median {ms(replays)}, first {replays[0] * 1000:.1f} ms  (<= 50 ms)")
    audits = [timed_get(base, f"/matches/{match_id}/audit") for _ in range(3)]
    print(f"audit, re-adjudicating all {MOVEMENTS} movements (3): median {ms(audits)}")


def run(passes: int) -> None:
    with new_pg_database("drts_bench_past") as dbname:
        url = pg_url(dbname)
        schema.upgrade(Settings(url))
        began = time.perf_counter()
        match_id = play_finished_match(url)
        print(
            f"a finished {MOVEMENTS}-movement DRTS Team 23 match of {SEATS} seats played in "
            f"{time.perf_counter() - began:.1f} s; gunicorn 1 worker x 4 threads, one client"
        )
        with gunicorn(url, 1, 4) as base:
            measure(base, match_id, passes)
        for size in ("500", "0"):
            measure_service(url, match_id, size)


def measure_service(url: str, match_id: str, size: str) -> None:
    """Times state at every movement (after a first pass) and replay, in process."""
    app = Matches(env={**Settings(url).event_store_env(), "DRTS_PAST_CACHE_SIZE": size})
    try:
        movements = range(1, MOVEMENTS + 1)
        for k in movements:  # the first pass: snapshots checked, the past kept (if any)
            app.state(match_id, movement=k)
        states = [timed(lambda k=k: app.state(match_id, movement=k)) for k in movements]
        replays = [timed(lambda: app.replay(match_id)) for _ in range(3)]
    finally:
        app.close()
    print(
        f"service only, DRTS_PAST_CACHE_SIZE={size}: state at a movement median {ms(states)}, "
        f"p99 {ms(states, 99)}; replay median {ms(replays)}"
    )


def timed(action: Any) -> float:
    began = time.perf_counter()
    action()
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=5)
    args = parser.parse_args()
    try:
        run(args.passes)
    except psycopg.OperationalError as error:
        print(f"bench_past_states: PostgreSQL not reachable at {PG_HOST}:{PG_PORT}: {error}")
    except Exception as error:  # a benchmark reports and never fails the run
        print(f"bench_past_states: skipped: {type(error).__name__}: {error}")


if __name__ == "__main__":
    main()
