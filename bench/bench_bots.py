"""Benchmark: a 300-turn, 4-bot Shades match of the example bots, played by `drts bots run`'s
runner through the service on a fresh SQLite file.

The bots are the project's Python examples as real processes: the random bot
three times (seeded 1, 2, 3) and the greedy bot; on the `graveyard` map with
seed 1 the match lasts its 300 turns.
Printed: the whole match's time, the time the runner spent waiting on the bots
(their thinking, as seen from the runner), and per turn the runner's and the
service's own time without the bots' (the service's share alone too).

Run: .venv/bin/python bench/bench_bots.py [--map graveyard] [--turns 300] [--seed 1]
Prints figures and never fails. Figures of record: bench/bots.md.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cli.bots.runner import MatchPlan, Program, play_match
from service import schema
from service.matches import connect
from service.settings import Settings

BOTS = Path(__file__).resolve().parent.parent / "examples" / "bots"


def programs() -> tuple[Program, ...]:
    """Returns the four bots' command lines: three random bots (seeded 1, 2, 3) and the
    greedy one (the C bot wins too fast for a 300-turn match)."""
    python = sys.executable
    return (
        Program(f"{python} {BOTS / 'random_bot.py'} 1"),
        Program(f"{python} {BOTS / 'greedy_bot.py'}"),
        Program(f"{python} {BOTS / 'random_bot.py'} 2"),
        Program(f"{python} {BOTS / 'random_bot.py'} 3"),
    )


def main() -> None:
    """Plays the match and prints the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", default="graveyard")
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--preset", choices=["contest"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(f"sqlite:///{folder}/bench.sqlite")
        schema.upgrade(settings)
        matches = connect(settings)
        plan = MatchPlan(
            programs(),
            map=args.map,
            seed=args.seed,
            preset=args.preset,
            config={"turns": args.turns},
            log_dir=Path(folder) / "logs",
        )
        result = play_match(matches, plan)
        events = len(matches.event_log(result.match_id))
        matches.close()
    t = result.timings
    turns = max(t.turns, 1)
    print(f"map {args.map}, seed {args.seed}: {t.turns} turns played, {events} events")
    print(f"outcome: {result.outcome['reason']}")  # type: ignore[index,call-overload]
    for seat in result.seats:
        out = f" (out in turn {seat.out_turn}: {seat.out})" if seat.out else ""
        print(f"  seat {seat.seat} {seat.program.name}: {result.score(seat.seat):g}{out}")
    print(f"whole match: {t.total:.2f} s ({1000 * t.total / turns:.1f} ms a turn)")
    print(f"waiting on the bots: {t.waiting:.2f} s ({1000 * t.waiting / turns:.1f} ms a turn)")
    print(
        f"runner and service without the bots: {t.runner:.2f} s "
        f"({1000 * t.runner / turns:.1f} ms a turn)"
    )
    print(f"  of which the service: {t.service:.2f} s ({1000 * t.service / turns:.1f} ms a turn)")


if __name__ == "__main__":
    main()
