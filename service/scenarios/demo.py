"""A demonstration match: random legal orders from every seat, told movement by movement."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from domain.rules.contract import Ruleset
from domain.rules.rng import Rng
from domain.table import Table

MAX_MOVEMENTS = 500


def play_demo(ruleset: Ruleset[Any, Any], seed: str) -> Iterator[str]:
    """Yields the lines of a whole match played by random legal orders from every seat."""
    table = Table.start(ruleset, {}, ruleset.info.max_seats, seed)
    yield f"{ruleset.info.title}: {ruleset.info.max_seats} seats, seed {seed!r}"
    while not table.outcome().finished and table.movement <= MAX_MOVEMENTS:
        bots = Rng(seed, table.movement, "demo-bots")
        for seat in table.to_move().seats:
            order = ruleset.random_order(table.state, seat, bots)
            table.submit(seat, ruleset.dump_order(order))
            yield f"movement {table.movement}: seat {seat} orders {ruleset.format_order(order)}"
        for step in table.close().steps:
            yield f"    [{step.rule}] {step.text}"
    outcome = table.outcome()
    yield f"result: {outcome.result} {outcome.reason}".rstrip()
    scores = ", ".join(f"seat {seat} {points}" for seat, points in sorted(outcome.scores.items()))
    yield f"scores: {scores}"
