"""Runs every benchmark in bench/ (bench_*.py) one after the other; figures only, never fails.

Run: .venv/bin/python bench/run.py [name ...]   e.g. `bench/run.py rules`
Names are the scripts' without `bench_`: bots, deadlines (lateness and one resolution's
cost, DRTS Team 23 and District War), dris_et_tessa, drts_team23, growth (replay, the
resolving order and a past state against the match's length), http, memory (RSS of an
API and a worker process after 1,000 and 10,000 matches), rules, service, shades.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    wanted = set(sys.argv[1:])
    for script in sorted(HERE.glob("bench_*.py")):
        name = script.stem.removeprefix("bench_")
        if wanted and name not in wanted:
            continue
        print(f"== {name}", flush=True)
        result = subprocess.run([sys.executable, str(script)], check=False)
        if result.returncode:
            print(f"   ({script.name} exited {result.returncode})")


if __name__ == "__main__":
    main()
