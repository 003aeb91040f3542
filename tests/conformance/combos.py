"""Orders drawn only from what a ruleset lists: its whole orders (`legal_orders`) or a
combination of its per-piece commands that its combining rule allows (`legal_commands`,
`combining`); shared by the conformance suite and the API tests (issue 48)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

from domain.rules.contract import JSON, Ruleset
from domain.rules.rng import Rng
from domain.table import Table
from tests.conformance.playout import MAX_MOVEMENTS, new_table


def allowed_combination(ruleset: Ruleset[Any, Any], state: Any, seat: int, rng: Rng) -> list[Any]:
    """Returns a random combination of `seat`'s listed commands that its combining rule
    allows: pieces in random order, each taking a random listed command (a repeatable
    piece up to its repeats) with even chance, while the rule allows it."""
    assert ruleset.legal_commands is not None
    listed = ruleset.legal_commands(state, seat)
    rule = ruleset.combining_of(state, seat)
    chosen: list[Any] = []
    for piece in rng.sample(list(listed), len(listed)):
        for _ in range(rule.repeats.get(str(piece), 1)):
            if not rng.chance(1, 2):
                break
            candidate = [*chosen, rng.choice(list(listed[piece]))]
            if not rule.fault(listed, candidate, ruleset.command_spends):
                chosen = candidate
    return chosen


def listed_order(ruleset: Ruleset[Any, Any], state: Any, seat: int, rng: Rng) -> Any:
    """Returns an order drawn only from the lists: one of `legal_orders`, else those
    commands of `random_order`'s order that are listed, while the rule allows them (its
    strategy, so that the match moves towards an end); None when the seat lists nothing."""
    if ruleset.legal_orders is not None:
        orders = ruleset.legal_orders(state, seat)
        return rng.choice(list(orders)) if orders else None
    assert ruleset.legal_commands is not None and ruleset.commands_of_order is not None
    assert ruleset.order_of_commands is not None
    listed = ruleset.legal_commands(state, seat)
    if not listed:
        return None
    rule = ruleset.combining_of(state, seat)
    listed_commands = {command for commands in listed.values() for command in commands}
    chosen: list[Any] = []
    for command in ruleset.commands_of_order(ruleset.random_order(state, seat, rng)):
        candidate = [*chosen, command]
        if command in listed_commands and not rule.fault(listed, candidate, ruleset.command_spends):
            chosen = candidate
    return ruleset.order_of_commands(chosen)


def listed_playout(
    ruleset: Ruleset[Any, Any], seed: str, config: Mapping[str, JSON] | None = None
) -> Iterator[Table]:
    """Yields the table before every movement of a match whose seats order only from the
    lists (`listed_order`), then at its end; a seat listing nothing stays silent."""
    table = new_table(ruleset, seed, config)
    for rounds in itertools.count():
        if table.outcome().finished:
            break
        if table.movement > MAX_MOVEMENTS or rounds > 2 * MAX_MOVEMENTS:
            raise AssertionError(f"{ruleset.name} seed {seed!r}: no end after {MAX_MOVEMENTS}")
        yield table
        rng = Rng(seed, table.movement, f"listed {rounds}")
        for seat in table.to_move().seats:
            order = listed_order(ruleset, table.state, seat, rng)
            if order is not None and ruleset.format_order(order).strip():
                table.submit(seat, ruleset.dump_order(order))
        table.close(deadline_passed=True)
    yield table
