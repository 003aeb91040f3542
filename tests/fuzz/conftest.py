"""Prints the stateful fuzz's figures at the end of a run: per game, the examples and
steps run, the requests sent, and how the commands were answered."""

from __future__ import annotations

from typing import Any

from tests.fuzz.machine import FIGURES

COUNTS = ("examples", "steps", "requests", "seconds")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for game, tally in sorted(FIGURES.items()):
        counts = ", ".join(f"{tally[name]:.0f} {name}" for name in COUNTS)
        answers = ", ".join(
            f"{kind} x{n}" for kind, n in sorted(tally.items()) if kind not in COUNTS
        )
        terminalreporter.write_line(f"fuzz {game}: {counts}; answers: {answers}")
