"""Benchmark: median time to resolve one full DRTS Team 23 movement (8 seats, 16 operations).

Plays random matches from the start position; in every movement each seat
that can sends two operations on two different pieces (moves or recoveries
drawn among the legal ones, holds only when a piece has nothing else), and
times `resolve` alone, the best of 5 runs per movement (the machine may be
shared). Prints the median and other figures; never fails.

With `v2`, the same under version 2 with items (the full board with items):
each move invokes an item one time in three while the seat has it (a Star,
a DeathStar, a Blackhole or, since issue 21, a Generator), so DeathStars,
Blackholes, Stars, Generators and meetings fill the board. Figures: bench/drts_team23.md.
Run: .venv/bin/python bench/bench_drts_team23.py [matches] [v2] [untimed=N]

With `untimed=N` nothing is timed: every movement is resolved N times more, for an
instruction count that a shared machine does not disturb (bench/drts_team23.md):
`valgrind --tool=callgrind` on `untimed=0` and `untimed=2`; the difference divided by
2 x movements is the instructions of one resolution.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dataclasses import replace

from domain.rules.drts_team23 import RULESET_V1, RULESET_V2
from domain.rules.drts_team23.board import CORNERS
from domain.rules.drts_team23.moves import Operation, legal_operations
from domain.rules.drts_team23.orders import Action, Order
from domain.rules.drts_team23.orders_v2 import stock_shortage
from domain.rules.drts_team23.state import KINDS, TEAMS, Item, State, occupancy
from domain.rules.rng import Rng

RULESET = RULESET_V1


def full_order(state: State, seat: int, rng: Rng) -> Order:
    """Returns a legal order of two operations, preferring moves and recoveries to holds."""
    squares = occupancy(state.pieces)
    options = {}
    for kind in KINDS:
        legal = legal_operations(state, squares, seat, kind)
        active = [op for op in legal if op.action is not Action.HOLD]
        if legal:
            options[kind] = active or legal
    kinds = rng.sample(sorted(options), min(2, len(options)))
    operations = tuple(rng.choice(options[kind]) for kind in kinds)
    requests = [team for team in TEAMS if team is not state.seat(seat).team]
    team = rng.choice(requests) if rng.chance(1, 4) else None
    return Order(operations, team)


def full_order_v2(state: State, seat: int, rng: Rng) -> Order:
    """Returns `full_order`'s order with an item on each move one time in three, in stock."""
    order = full_order(state, seat, rng)
    operations: list[Operation] = []
    for operation in order.operations:
        chosen = operation
        if operation.action is Action.MOVE and rng.chance(1, 3):
            item = rng.choice(list(Item))
            corner = rng.choice(list(CORNERS)) if item is Item.DEATHSTAR else None
            chosen = replace(operation, item=item, corner=corner)
        if stock_shortage(state.seat(seat), [*operations, chosen]):
            chosen = operation
        operations.append(chosen)
    return replace(order, operations=tuple(operations))


ORDER = full_order


def movements(matches: int) -> list[tuple[State, list[tuple[int, Order]]]]:
    """Returns (state, orders) of every movement of `matches` random matches."""
    cases = []
    for match in range(matches):
        seed = f"bench-{match}"
        state = RULESET.initial_state(RULESET.validate_config({}), 8, Rng(seed, 0))
        while not RULESET.outcome(state).finished:
            movement = state.movement
            orders = [
                (seat, ORDER(state, seat, Rng(seed, movement, f"seat-{seat}")))
                for seat in RULESET.to_move(state).seats
            ]
            cases.append((state, orders))
            state, _ = RULESET.resolve(state, orders, Rng(seed, movement))
    return cases


def best_times(cases: list[tuple[State, list[tuple[int, Order]]]], repeat: int) -> list[float]:
    """Returns, per movement, the least of `repeat` resolve times in seconds (as timeit does)."""
    timings = []
    for state, orders in cases:
        rng = Rng("bench", state.movement)
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            RULESET.resolve(state, orders, rng)
            best = min(best, time.perf_counter() - start)
        timings.append(best)
    return timings


def resolve_untimed(cases: list[tuple[State, list[tuple[int, Order]]]], repeat: int) -> None:
    """Resolves every movement `repeat` times, timing nothing (for an instruction counter)."""
    rngs = [Rng("bench", state.movement) for state, _ in cases]
    for _ in range(repeat):
        for (state, orders), rng in zip(cases, rngs, strict=True):
            RULESET.resolve(state, orders, rng)


def main() -> None:
    """Prints the median, quartiles and 95th percentile of the resolve times."""
    global RULESET, ORDER
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    if "v2" in sys.argv[2:]:
        RULESET, ORDER = RULESET_V2, full_order_v2
    cases = movements(matches)
    untimed = [arg.removeprefix("untimed=") for arg in sys.argv[2:] if arg.startswith("untimed=")]
    if untimed:
        resolve_untimed(cases, int(untimed[0]))
        print(f"{len(cases)} movements resolved {untimed[0]} times more, untimed")
        return
    counts = [sum(len(order.operations) for _, order in orders) for _, orders in cases]
    best = best_times(cases, repeat=5)
    timings = sorted(best)
    full = [t for t, count in zip(best, counts, strict=True) if count == 16]
    quartiles = statistics.quantiles(timings, n=20)
    print(
        f"drts_team23 v{RULESET.info.version} resolve, {len(timings)} movements of {matches} "
        f"random matches "
        f"(8 seats, {statistics.mean(counts):.1f} operations a movement; best of 5 each):"
    )
    print(f"  median {statistics.median(timings) * 1e6:.0f} us")
    if RULESET is RULESET_V2:
        items = [len(state.board_items) for state, _ in cases]
        print(f"  board items a movement: mean {statistics.mean(items):.1f}, max {max(items)}")
    print(
        f"  p25 {quartiles[4] * 1e6:.0f} us, p75 {quartiles[14] * 1e6:.0f} us, "
        f"p95 {quartiles[18] * 1e6:.0f} us, max {timings[-1] * 1e6:.0f} us"
    )
    if full:
        print(
            f"  median of the {len(full)} movements with 16 operations: "
            f"{statistics.median(full) * 1e6:.0f} us"
        )


if __name__ == "__main__":
    main()
