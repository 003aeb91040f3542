"""The lists against brute force over the order syntax, on sampled positions (issue 48).

For each game, every candidate order text its syntax allows (within the bounds each test
states) is parsed and judged as the service judges it: the seat owes an order, and
`check_order` accepts it; for per-piece commands judged at resolution (Shades, SH-4;
B-Chess, BC-3), resolving the one command alone must also carry it out. The set kept must
be the set listed (`legal_orders`, or `legal_commands` flattened).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import Any

from domain.errors import IllegalOrderError, InvalidOrderError
from domain.rules.b_chess.config import SIZE
from domain.rules.dris_et_tessa.board import NAMES
from domain.rules.registry import get_ruleset
from domain.rules.rng import Rng
from domain.table import Table
from tests.conformance.playout import playout

SQUARES = range(1, 43)  # DRTS-1
KINDS = ("water", "fire", "plant")
TEAMS = ("green", "yellow", "blue")  # DRTS-19


def positions(ruleset: Any, seeds: Iterable[str], every: int, most: int) -> Iterator[Table]:
    """Yields every `every`-th table of random playouts of `seeds`, at most `most` of them,
    while the match goes on (at least one: a sample of none would prove nothing)."""
    tables = (
        table
        for seed in seeds
        for n, table in enumerate(playout(ruleset, seed))
        if n % every == every - 1 and not table.outcome().finished
    )
    sampled = 0
    for table in itertools.islice(tables, most):
        sampled += 1
        yield table
    assert sampled, f"{ruleset.name}: no position sampled"


def accepted(ruleset: Any, table: Table, seat: int, texts: Iterable[str]) -> set[Any]:
    """Returns the orders of `texts` the service takes from `seat` now: they parse, the
    seat owes an order and `check_order` accepts them."""
    if seat not in table.to_move().seats:
        return set()
    kept = set()
    for text in texts:
        try:
            order = ruleset.parse_order(text)
            ruleset.check_order(table.state, seat, order)
        except (InvalidOrderError, IllegalOrderError):
            continue
        kept.add(order)
    return kept


def carried_out(ruleset: Any, table: Table, seat: int, order: Any) -> bool:
    """Returns whether resolving `order` alone sets none of its commands aside (no step
    with a `refused` list, none saying a command was not `carried_out`)."""
    _, steps = ruleset.resolve(table.state, [(seat, order)], Rng("brute", table.movement))
    return not any(s.data.get("refused") or s.data.get("carried_out") is False for s in steps)


def flattened(ruleset: Any, state: Any, seat: int) -> set[Any]:
    return {c for cs in ruleset.legal_commands(state, seat).values() for c in cs}


def test_district_war_lists_every_cell_and_choice_its_syntax_gives_that_is_legal():
    """DW-2, DW-3: every cell a1..g7 and every 'first N' (N 1..3), kept when legal."""
    ruleset = get_ruleset("district_war", 1)
    texts = [f"{c}{r}" for c in "abcdefg" for r in range(1, 8)] + ["first 1", "first 2", "first 3"]
    for table in positions(ruleset, ["brute-dw-1", "brute-dw-2"], 3, 12):
        for seat in (1, 2):
            assert accepted(ruleset, table, seat, texts) == set(
                ruleset.legal_orders(table.state, seat)
            ), (table.movement, seat)


def test_dris_et_tessa_lists_every_placement_step_and_removal_that_is_legal():
    """DT-2, DT-3, DT-4: every 'p', 'p xq', 'o-p' and 'o-p xq' over the 24 points; the
    sampled positions include mills (a removal owed)."""
    ruleset = get_ruleset("dris_et_tessa", 1)
    points = [NAMES[i] for i in range(24)]
    moves = [*points, *(f"{o}-{p}" for o in points for p in points if o != p)]
    texts = [*moves, *(f"{m} x{q}" for m in moves for q in points)]
    mills = 0
    for table in positions(ruleset, ["brute-dt-1", "brute-dt-2", "brute-dt-3"], 5, 9):
        seat = table.to_move().seats[0]
        listed = set(ruleset.legal_orders(table.state, seat))
        mills += any(order.remove for order in listed)
        assert accepted(ruleset, table, seat, texts) == listed, table.movement
    assert mills, "no sampled position owed a removal"


def drts_clauses(items: bool) -> list[str]:
    """Returns every one-operation clause: a hold, a move 'o>t' over every pair of squares,
    a recovery on every square, each (with `items`) also with each item suffix."""
    moves = [f"{o}>{t}" for o in SQUARES for t in SQUARES]
    plain = ["hold", *moves, *(f"recover {t}" for t in SQUARES)]
    if not items:
        return [f"{k} {rest}" for k in KINDS for rest in plain]
    corners = [f" deathstar {c}" for c in (1, 6, 37, 42)]  # DRTS-11
    suffixes = ["", " star", " blackhole", " generator", *corners]
    return [f"{k} {rest}{s}" for k in KINDS for rest in plain for s in suffixes]


def test_drts_v1_whole_orders_are_every_combination_of_legal_clauses_that_is_legal():
    """DRTS-4, DRTS-6, DRTS-18, DRTS-19: the one-clause orders kept are the listed
    commands; the whole orders kept (none, one or two kept operations in either order,
    each with no team request or one) are the listed orders. An operation refused alone is
    refused in any order (check_order judges each), so pairs of kept ones suffice."""
    ruleset = get_ruleset("drts_team23", 1)
    clauses = drts_clauses(items=False)
    for table in positions(ruleset, ["brute-drts-1"], 4, 3):
        for seat in (1, 5):
            singles = accepted(ruleset, table, seat, clauses)
            teams = accepted(ruleset, table, seat, [f"team {t}" for t in TEAMS])
            commands = {op for order in singles for op in order.operations}
            assert commands | {order.team for order in teams} == flattened(
                ruleset, table.state, seat
            )
            texts = [ruleset.format_order(o) for o in singles]
            bodies = ["", *texts, *(f"{a}; {b}" for a in texts for b in texts)]
            wholes = [
                "; ".join(p for p in (body, team) if p) or "hold"
                for body in bodies
                for team in ["", *(f"team {t}" for t in TEAMS)]
            ]
            listed = set(ruleset.legal_orders(table.state, seat))
            assert accepted(ruleset, table, seat, wholes) == listed, (table.movement, seat)


def test_drts_v2_commands_are_every_legal_clause_with_its_items():
    """DRTS-4, DRTS-6 (the Star case too), DRTS-15, DRTS-21: every clause of the syntax
    with each item suffix, kept when legal alone, is a listed command."""
    ruleset = get_ruleset("drts_team23", 2)
    clauses = drts_clauses(items=True) + [f"team {t}" for t in TEAMS]
    for table in positions(ruleset, ["brute-drts-2"], 5, 2):
        for seat in (2,):
            kept = accepted(ruleset, table, seat, clauses)
            commands = {c for order in kept for c in ruleset.commands_of_order(order)}
            assert commands == flattened(ruleset, table.state, seat), table.movement


def test_shades_commands_are_every_target_near_a_shade_that_resolves_as_sent():
    """SH-1, SH-4: for every shade on the map (the seat's and the others'), every target
    within two squares in 'id x,y' form, kept when resolving it alone moves the shade as
    sent (a foreign shade, water, the edge or a square too far are set aside)."""
    ruleset = get_ruleset("shades", 2)
    for table in positions(ruleset, ["brute-sh-1"], 25, 3):
        for seat in table.to_move().seats[:2]:
            texts = [
                f"{shade.id} {shade.square[0] + dx},{shade.square[1] + dy}"
                for shade in table.state.shades
                for dx, dy in itertools.product(range(-2, 3), repeat=2)
            ]
            orders = accepted(ruleset, table, seat, texts)
            kept = {
                order.commands[0] for order in orders if carried_out(ruleset, table, seat, order)
            }
            assert kept == flattened(ruleset, table.state, seat), (table.movement, seat)


def test_b_chess_commands_are_every_line_that_is_carried_out_alone():
    """BC-6, BC-8, BC-11: for each object of the seat, a line to every square of the
    Field, and 'purchase', kept when `check_order` takes it and resolving it alone carries
    it out."""
    ruleset = get_ruleset("b_chess", 1)
    for table in positions(ruleset, ["brute-bc-1", "brute-bc-2"], 3, 6):
        for seat in table.to_move().seats[:2]:
            texts = ["purchase"] + [
                f"{piece.id} to {r},{c}"
                for piece in table.state.pieces
                if piece.owner == seat
                for r in range(SIZE)
                for c in range(SIZE)
            ]
            orders = accepted(ruleset, table, seat, texts)
            kept = {
                order.actions[0] for order in orders if carried_out(ruleset, table, seat, order)
            }
            assert kept == flattened(ruleset, table.state, seat), (table.movement, seat)
