"""Rules benchmark: random playouts per second and median `resolve` time per ruleset.

Run: .venv/bin/python bench/bench_rules.py [--seconds 3]
Pure domain, one process; prints figures and never fails.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.rules.registry import get_ruleset, ruleset_names
from domain.rules.rng import Rng
from tests.conformance.playout import fork, playout, submit_random_orders


def playouts_per_second(ruleset, seconds: float) -> tuple[float, int]:
    """Returns (whole random matches per second, movements per match on average)."""
    start, done, movements = time.perf_counter(), 0, 0
    while time.perf_counter() - start < seconds:
        movements += sum(1 for _ in playout(ruleset, f"bench-{done}")) - 1
        done += 1
    return done / (time.perf_counter() - start), movements // max(done, 1)


def resolve_times(ruleset, samples: int) -> list[float]:
    """Returns the seconds taken by `resolve` on movements of random matches."""
    times: list[float] = []
    seed = 0
    while len(times) < samples:
        for table in playout(ruleset, f"resolve-{seed}"):
            submit_random_orders(table, "bench")
            probe = fork(table)
            orders = probe.orders_for_resolution()
            rng = Rng(probe.seed, probe.movement)
            start = time.perf_counter()
            ruleset.resolve(probe.state, orders, rng)
            times.append(time.perf_counter() - start)
        seed += 1
    return times[:samples]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()
    print(
        f"{'ruleset':<14} {'playouts/s':>11} {'movements':>10} {'resolve median':>15} "
        f"{'resolve p99':>12}"
    )
    for name in ruleset_names():
        ruleset = get_ruleset(name)
        rate, movements = playouts_per_second(ruleset, args.seconds)
        times = sorted(resolve_times(ruleset, args.samples))
        median = statistics.median(times) * 1e6
        p99 = times[int(len(times) * 0.99) - 1] * 1e6
        print(f"{name:<14} {rate:>11.1f} {movements:>10} {median:>12.1f} us {p99:>9.1f} us")


if __name__ == "__main__":
    main()
