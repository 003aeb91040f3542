"""HTTP benchmark: order intake through the API under gunicorn, on PostgreSQL.

Starts gunicorn (`api.wsgi:app`, threaded workers) on a loopback port over a
throwaway PostgreSQL database at 127.0.0.1:5432 that it creates, migrates and
drops. Sets up DRTS Team 23 matches (8 seats, simultaneous, `close_early`, so
that the eighth order of a movement also resolves it) over HTTP, then for each
round every seat of every match sends `hold` at once from N client threads.
Prints orders per second, the median and p99 latency of all orders, and of the
orders that closed a movement. `--warmup` rounds (1 by default) are played first and not
measured: the first orders of a gunicorn worker open its database connections and load
the matches another worker set up, which the default 384 orders a measure (under a
second) would otherwise carry. Then, in the same run and with the same N client
threads, PostgreSQL's own rates on the same server (bench/commit_rates.py): one
INSERT and one COMMIT per transaction ("plain"), and the same taking
`LOCK TABLE ... IN EXCLUSIVE MODE` first ("locked"), and drts's rate as a fraction
of each (issue 30: at least 0.15x of plain at 4 and 16 client threads).
Last, the floors (bench/floor_app.py) under the same gunicorn options and from the
same client threads: a minimal Flask app with no database ("bare"), and the same
doing one table-locked INSERT+COMMIT a request ("locked"), and drts's rate as a
fraction of each: what any Flask app on this machine reaches, not PostgreSQL alone.
Each floor is warmed up the same way: FLOOR_WARMUP requests first, not measured.

`--pairs N` (0 by default: off) then measures drts and the locked floor N more times from
each number of client threads, back to back with both servers up, the floor first in
every other pair, and prints each pair's ratio and their median: on a machine whose speed
drifts within a minute, a ratio of two measures seconds apart says more than one of
measures half a minute apart (bench/http.md, 2026-12-08). The figures above it are
printed as without it.

`--follow-log worker` (the default on PostgreSQL, DRTS_FOLLOW_LOG): a Celery worker
process (solo pool, on an SQLite broker file of its own: no task is sent) follows the log
for the read models and the API applies no event; `--follow-log api`: the gunicorn
workers follow it, so their CPU holds requests and catch-ups. Each measure prints the
CPU an order of the API processes and of the worker apart (from /proc), and how long
after the last answer the read models had caught up with the log (the worker's lag).

Run: .venv/bin/python bench/bench_http.py [--matches 16] [--rounds 3] [--warmup 1]
         [--clients 4,16] [--workers 2] [--threads 8] [--follow-log api|worker] [--pairs 0]
Prints figures and never fails (a missing server is reported and skipped). The rate
limits are off (every client sends from 127.0.0.1).
Figures of record: bench/http.md.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from service import schema  # noqa: E402
from service.matches import Matches  # noqa: E402
from service.settings import Settings  # noqa: E402
from tests.support.gunicorn import gunicorn  # noqa: E402
from tests.support.http import call  # noqa: E402
from tests.support.postgres import PG_HOST, PG_PORT, new_pg_database, pg_url  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from commit_rates import commit_rate, create_table  # noqa: E402

TIMEOUT = 60  # seconds a request may take under load
SEATS = 8
DEFAULT_MOVEMENTS = 40  # DRTS Team 23's match length, longer when the run plays more
FLOOR_REQUESTS = 2000  # requests sent to a floor app from each number of client threads
FLOOR_WARMUP = 200  # requests sent to a floor app first, not measured
FLOORS = {  # the apps of bench/floor_app.py
    "bare": "a minimal Flask app, no database",
    "locked": "the same doing one table-locked INSERT+COMMIT a request",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3, help="movements played per match")
    parser.add_argument(
        "--warmup", type=int, default=1, help="movements played first, not measured"
    )
    parser.add_argument(
        "--clients", default="4,16", help="concurrent client threads: one count or several, 4,16"
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker")
    parser.add_argument(
        "--follow-log",
        choices=("api", "worker"),
        default="worker",  # what ships on PostgreSQL (service/settings.py)
        help="who follows the log for the read models (DRTS_FOLLOW_LOG)",
    )
    parser.add_argument(
        "--pairs", type=int, default=0, help="then drts and the locked floor N times, paired"
    )
    args = parser.parse_args()
    try:
        run(args)
    except Exception as error:  # a benchmark reports and never fails the run
        print(f"bench_http: skipped: {type(error).__name__}: {error}")


def run(args: argparse.Namespace) -> None:
    try:
        with new_pg_database("drts_bench_http") as dbname:
            serve_and_measure(pg_url(dbname), args)
    except psycopg.OperationalError as error:
        print(f"bench_http: PostgreSQL not reachable at {PG_HOST}:{PG_PORT}: {error}")


def serve_and_measure(url: str, args: argparse.Namespace) -> None:
    schema.upgrade(Settings(url))
    # The clients all send from 127.0.0.1, far faster than a player: no rate limits here.
    no_limits = {"DRTS_RATE_LIMIT_PER_ADDRESS": "0", "DRTS_RATE_LIMIT_PER_TOKEN": "0"}
    settings = {**no_limits, "DRTS_FOLLOW_LOG": args.follow_log}
    create_table(url)
    counts = [int(count) for count in args.clients.split(",")]
    rates: dict[int, float] = {}
    reader = Matches(env=Settings(url).event_store_env())  # reads the projections' progress
    with (
        gunicorn(url, args.workers, args.threads, settings) as base,
        following_worker(url, args.follow_log) as worker,
    ):
        played = args.warmup + args.rounds * len(counts) * (1 + args.pairs)  # movements
        tables = [new_match(base, max(DEFAULT_MOVEMENTS, played)) for _ in range(args.matches)]
        for _ in range(args.warmup):
            play_round(base, tables, max(counts))
        for clients in counts:
            print(
                f"== gunicorn: {args.workers} workers x {args.threads} threads; {clients} client "
                f"threads; {args.matches} DRTS Team 23 matches x {SEATS} seats; "
                f"{args.rounds} rounds; the log followed by the {args.follow_log}"
            )
            cpu = Cpu(base, worker)
            rates[clients] = measure(base, tables, clients, args.rounds)
            lag = caught_up_after(reader)
            cpu.report(args.matches * SEATS * args.rounds, lag)
        reader.close()
        requests = max(FLOOR_REQUESTS, args.matches * SEATS * args.rounds)
        paired = measure_pairs(url, base, tables, args, counts, requests) if args.pairs else {}
    floors = {app: floor_rates(url, args, app, counts, requests) for app in FLOORS}
    for clients in counts:
        compare(url, clients, rates[clients], {app: floors[app][clients] for app in FLOORS})
    for clients, ratios in paired.items():
        print(
            f"== paired, {clients} client threads: drts / floor 'locked' median "
            f"{statistics.median(ratios):.3f}x of {len(ratios)} pairs "
            f"({', '.join(f'{ratio:.3f}' for ratio in ratios)})"
        )


def measure_pairs(
    url: str,
    base: str,
    tables: list[tuple[str, list[str]]],
    args: argparse.Namespace,
    counts: list[int],
    requests: int,
) -> dict[int, list[float]]:
    """Serves the locked floor beside drts (at `base`) and measures the two back to back
    `args.pairs` times from each number of client threads, the floor first in every other
    pair; prints each pair and returns drts's rate over the floor's, by number of clients."""
    ratios: dict[int, list[float]] = {clients: [] for clients in counts}
    with gunicorn(url, args.workers, args.threads, app="bench.floor_app:locked") as floor:
        warm_up(floor, max(counts))
        for pair in range(args.pairs):
            for clients in counts:
                order = ("drts", "floor") if pair % 2 == 0 else ("floor", "drts")
                rate: dict[str, float] = {}
                refused = 0
                for name in order:
                    if name == "drts":
                        rate[name], answers = play_rate(base, tables, clients, args.rounds)
                        refused += sum(status != 201 for status, _, _ in answers)
                    else:
                        rate[name], floor_refused = floor_rate(floor, clients, requests)
                        refused += floor_refused
                ratios[clients].append(rate["drts"] / rate["floor"])
                print(
                    f"pair {pair + 1}, {clients} client threads, {order[0]} first: drts "
                    f"{rate['drts']:.0f} orders/s, floor 'locked' {rate['floor']:.0f} "
                    f"requests/s: {ratios[clients][-1]:.3f}x ({refused} refused)"
                )
    return ratios


def floor_rates(
    url: str, args: argparse.Namespace, app: str, counts: list[int], requests: int
) -> dict[int, float]:
    """Serves the floor `app` (bench/floor_app.py) with the same gunicorn options and sends
    it `requests` orders from each number of client threads; returns the requests per
    second by number of clients."""
    rates: dict[int, float] = {}
    with gunicorn(url, args.workers, args.threads, app=f"bench.floor_app:{app}") as base:
        warm_up(base, max(counts))
        for clients in counts:
            rates[clients], refused = floor_rate(base, clients, requests)
            print(
                f"floor '{app}' ({FLOORS[app]}), {clients} client threads: "
                f"{rates[clients]:.0f} requests/s ({refused} refused)"
            )
    return rates


def warm_up(floor: str, clients: int) -> None:
    """Sends a floor app FLOOR_WARMUP requests from `clients` threads, not measured."""
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(lambda _: send(floor, "floor", "floor"), range(FLOOR_WARMUP)))


def floor_rate(floor: str, clients: int, requests: int) -> tuple[float, int]:
    """Sends a floor app `requests` orders from `clients` threads; returns the requests a
    second and how many were refused."""
    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        answers = list(pool.map(lambda _: send(floor, "floor", "floor"), range(requests)))
    rate = requests / (time.perf_counter() - started)
    return rate, sum(status != 201 for status, _, _ in answers)


def compare(url: str, clients: int, rate: float, floors: dict[str, float]) -> None:
    """Prints PostgreSQL's plain and table-locked commit rates with `clients` threads, the
    floors' rates, and drts's `rate` as a fraction of each."""
    plain = commit_rate(url, clients, locked=False)
    locked = commit_rate(url, clients, locked=True)
    print(f"== {clients} client threads: drts {rate:.0f} orders/s")
    print(
        f"plain INSERT+COMMIT: {plain:.0f}/s; with LOCK TABLE ... IN EXCLUSIVE MODE: {locked:.0f}/s"
    )
    print(
        f"drts / plain = {rate / plain:.3f}x (issue 30: >= 0.15x, aim 0.25x); "
        f"drts / locked = {rate / locked:.3f}x"
    )
    for app, floor in floors.items():
        print(
            f"floor '{app}' ({FLOORS[app]}): {floor:.0f}/s = {floor / plain:.3f}x of plain; "
            f"drts / floor = {rate / floor:.3f}x"
        )


def measure(base: str, tables: list[tuple[str, list[str]]], clients: int, rounds: int) -> float:
    """Plays `rounds` movements of every match from `clients` threads; prints the figures
    and returns the orders per second."""
    rate, answers = play_rate(base, tables, clients, rounds)
    latencies = [seconds for _, seconds, _ in answers]
    closing = [seconds for _, seconds, closed in answers if closed]
    refused = sum(status != 201 for status, _, _ in answers)
    print(
        f"{len(latencies)} orders in {len(latencies) / rate:.2f} s: {rate:.0f} orders/s "
        f"({refused} refused)"
    )
    print(
        f"all orders: median {ms(statistics.median(latencies))}, "
        f"p99 {ms(percentile(latencies, 99))}"
    )
    if closing:
        print(
            f"orders that closed and resolved a movement ({len(closing)}): median "
            f"{ms(statistics.median(closing))}, p99 {ms(percentile(closing, 99))}"
        )
    return rate


def play_rate(
    base: str, tables: list[tuple[str, list[str]]], clients: int, rounds: int
) -> tuple[float, list[tuple[int, float, bool]]]:
    """Plays `rounds` movements of every match from `clients` threads; returns the orders
    a second and each order's status, latency and whether it closed the movement."""
    answers: list[tuple[int, float, bool]] = []
    started = time.perf_counter()
    for _ in range(rounds):
        answers += play_round(base, tables, clients)
    return len(answers) / (time.perf_counter() - started), answers


def play_round(
    base: str, tables: list[tuple[str, list[str]]], clients: int
) -> list[tuple[int, float, bool]]:
    """Plays one movement of every match from `clients` threads; returns each order's
    status, latency and whether it closed the movement."""
    # Seat-major, so that orders in flight at once mostly go to different matches, as
    # players of different matches do (orders racing for one match retry).
    jobs = [(match_id, tokens[seat]) for seat in range(SEATS) for match_id, tokens in tables]
    with ThreadPoolExecutor(clients) as pool:
        return list(pool.map(lambda job: send(base, *job), jobs))


@contextlib.contextmanager
def following_worker(url: str, follow_log: str) -> Iterator[int | None]:
    """Runs a Celery worker that follows the log (solo pool, DRTS_FOLLOW_LOG=worker, a
    broker file of its own) while the block runs under `worker`; yields its pid (None
    under `api`)."""
    if follow_log != "worker":
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="drts-bench-worker-") as workdir:
        env = {
            **os.environ,
            "DRTS_DATABASE_URL": url,
            "DRTS_BROKER_URL": f"sqla+sqlite:///{workdir}/broker.sqlite",
            "DRTS_FOLLOW_LOG": "worker",
        }
        command = [sys.executable, "-m", "celery", "-A", "workers.app", "worker", "-P", "solo"]
        log = Path(workdir) / "worker.log"
        with log.open("wb") as out:
            worker = subprocess.Popen(
                [*command, "-l", "INFO"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
            )
            try:
                give_up = time.monotonic() + 120
                while b"ready." not in log.read_bytes():
                    if worker.poll() is not None or time.monotonic() > give_up:
                        raise RuntimeError(f"the worker did not start: {log.read_text()}")
                    time.sleep(0.2)
                yield worker.pid
            finally:
                worker.terminate()
                worker.wait(30)


class Cpu:
    """CPU seconds (user + system, from /proc) of the API's gunicorn processes and of the
    following worker, from when it was made."""

    def __init__(self, base: str, worker: int | None) -> None:
        self.bind, self.worker = base.removeprefix("http://"), worker
        self.api, self.follower = self._api(), self._worker()

    def report(self, orders: int, lag: float) -> None:
        """Prints the CPU an order of the API processes and of the worker, and the lag."""
        api = (self._api() - self.api) / orders
        follower = (self._worker() - self.follower) / orders
        which = "requests and catch-ups" if self.worker is None else "requests"
        print(f"CPU an order: API processes ({which}) {ms(api)}", end="")
        if self.worker is not None:
            print(f"; worker following the log (catch-ups) {ms(follower)}", end="")
        print(f"; read models caught up {lag:.2f} s after the last answer")

    def _api(self) -> float:
        return sum(cpu_of(pid) for pid in pids_with(self.bind))

    def _worker(self) -> float:
        return 0.0 if self.worker is None else cpu_of(self.worker)


def pids_with(text: str) -> list[int]:
    """Returns the processes whose command line holds `text` (gunicorn's and its workers')."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if text.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
    return found


def cpu_of(pid: int) -> float:
    """Returns a process's user + system CPU seconds (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def caught_up_after(reader: Matches, limit: float = 120.0) -> float:
    """Returns the seconds until no projection has an event waiting (reading the
    progress only: the reader applies nothing); `limit` at most."""
    began = time.perf_counter()
    while any(p.pending for p in reader.read_models.progress()):
        if time.perf_counter() - began > limit:
            break
        time.sleep(0.05)
    return time.perf_counter() - began


def new_match(base: str, movements: int) -> tuple[str, list[str]]:
    """Creates, fills and starts a DRTS Team 23 match of `movements` movements; returns
    its id and seat tokens."""
    length = {"movements": movements, "max_movements": movements}
    _, created = call(
        base,
        "POST",
        "/matches",
        {"ruleset": "drts_team23", "config": {"close_early": True, **length}},
        timeout=TIMEOUT,
    )
    match_id = created["match_id"]
    seats = f"/matches/{match_id}/seats"
    tokens = [
        call(base, "POST", seats, {"name": f"p{seat}"}, timeout=TIMEOUT)[1]["token"]
        for seat in range(1, SEATS + 1)
    ]
    status, body = call(
        base, "POST", f"/matches/{match_id}/start", token=created["referee_token"], timeout=TIMEOUT
    )
    if status != 200:
        raise RuntimeError(f"start failed: {status} {body}")
    return match_id, tokens


def send(base: str, match_id: str, token: str) -> tuple[int, float, bool]:
    """Sends one order; returns its status, latency and whether it closed the movement."""
    began = time.perf_counter()
    status, body = call(
        base, "POST", f"/matches/{match_id}/orders", {"order": "hold"}, token, timeout=TIMEOUT
    )
    seconds = time.perf_counter() - began
    return status, seconds, status == 201 and body.get("closing") is not None


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


if __name__ == "__main__":
    main()
