"""Runs every benchmark in bench/ (bench_*.py) one after the other; figures only, never fails.

Run: .venv/bin/python bench/run.py [name ...]   e.g. `bench/run.py rules`
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
