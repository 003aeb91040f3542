"""Random legal playouts through the pure Table, shared by the conformance suite and bench/."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from domain.rules.contract import JSON, Ruleset
from domain.rules.rng import Rng
from domain.table import Table

MAX_MOVEMENTS = 2000


def new_table(
    ruleset: Ruleset[Any, Any], seed: str, config: Mapping[str, JSON] | None = None
) -> Table:
    """Returns a table for a match with the most seats the ruleset allows (default config)."""
    return Table.start(ruleset, config or {}, ruleset.info.max_seats, seed)


def submit_random_orders(table: Table, seed: str, silent: frozenset[int] = frozenset()) -> None:
    """Submits one random legal order for every owing seat, except the `silent` ones."""
    bots = Rng(seed, table.movement, "playout")
    for seat in table.to_move().seats:
        if seat not in silent:
            order = table.ruleset.random_order(table.state, seat, bots)
            table.submit(seat, table.ruleset.dump_order(order))


def playout(
    ruleset: Ruleset[Any, Any], seed: str, config: Mapping[str, JSON] | None = None
) -> Iterator[Table]:
    """Yields the table before every movement of a random legal match (default config, or
    `config`), then at its end."""
    table = new_table(ruleset, seed, config)
    while not table.outcome().finished:
        if table.movement > MAX_MOVEMENTS:
            raise AssertionError(f"{ruleset.name} seed {seed!r}: no end after {MAX_MOVEMENTS}")
        yield table
        submit_random_orders(table, seed)
        table.close(deadline_passed=True)
    yield table


def fork(table: Table) -> Table:
    """Returns an independent copy of a table (states are frozen; lists and dicts are copied)."""
    return copy.deepcopy(table)
