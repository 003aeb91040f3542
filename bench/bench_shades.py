"""Benchmark: the referee's own time for a 300-turn, 4-seat Shades match on a 20x20 map.

Bots are excluded: the orders of every turn are computed first, by playing
the match once with simple hunting bots (each shade steps towards the
nearest human, else wanders), then the same orders are played again while
only the referee is timed:

- pure domain: the Table alone (parse, check, resolve each turn), and the
  same with what the Match command adds per turn (dump the state, hash it);
- through the service on SQLite: the Matches application on a fresh SQLite
  file (create, join, start, then every order by `submit_order`, whose last
  order of a turn resolves it early, SH-10), with the events it stores.

Run: .venv/bin/python bench/bench_shades.py [--map river] [--runs 3]
Prints figures and never fails. Figures of record: bench/shades.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.rules.contract import JSON, canonical_json, state_hash
from domain.rules.rng import Rng
from domain.rules.shades import RULESET
from domain.rules.shades.orders import DELTAS, Command, Order
from domain.rules.shades.state import State
from domain.table import Table
from service import schema
from service.maps import expand_map
from service.matches import Matches
from service.settings import Settings

SEATS = 4
SEED = "bench-shades"


def hunting_order(state: State, seat: int, rng: Rng) -> Order:
    """Returns an order stepping each of the seat's shades towards the nearest human (else a
    random open step), never two of its shades onto one square."""
    board = state.settings.board
    taken: set[tuple[int, int]] = set()
    commands = []
    for shade in (s for s in state.shades if s.owner == seat):
        x, y = shade.square
        options = [(x + dx, y + dy) for dx, dy in DELTAS.values()]
        options = [sq for sq in options if board.is_open(sq) and sq not in taken]
        if not options:
            continue
        prey = min(
            state.humans, key=lambda h: abs(h.x - x) + abs(h.y - y) + h.id * 1e-6, default=None
        )
        if prey is not None and rng.chance(4, 5):
            target = min(options, key=lambda sq: abs(sq[0] - prey.x) + abs(sq[1] - prey.y))
        else:
            target = rng.choice(options)
        taken.add(target)
        if target != shade.square:
            commands.append(Command(shade.id, target))
    return Order(tuple(commands))


def record_orders(config: dict[str, JSON]) -> list[list[tuple[int, JSON]]]:
    """Plays the match once with the bots; returns each turn's (seat, dumped order)."""
    table = Table.start(RULESET, config, SEATS, SEED)
    turns = []
    while not table.outcome().finished:
        bots = Rng(SEED, table.movement, "bots")
        orders = [
            (seat, RULESET.dump_order(hunting_order(table.state, seat, bots)))
            for seat in table.to_move().seats
        ]
        for seat, order in orders:
            table.submit(seat, order)
        table.close()
        turns.append(orders)
    return turns


def pure_run(
    config: dict[str, JSON], turns: list[list[tuple[int, JSON]]], hashing: bool
) -> dict[str, Any]:
    """Plays the recorded orders on a Table; returns the time, steps and shades seen."""
    table = Table.start(RULESET, config, SEATS, SEED)
    steps, most_shades = 0, 0
    start = time.perf_counter()
    for orders in turns:
        for seat, order in orders:
            table.submit(seat, order)
        steps += len(table.close().steps)
        if hashing:
            state_hash(RULESET.dump_state(table.state))
        most_shades = max(most_shades, len(table.state.shades))
    elapsed = time.perf_counter() - start
    return {
        "seconds": elapsed,
        "steps": steps,
        "turns": len(turns),
        "shades": most_shades,
        "state": canonical_json(RULESET.dump_state(table.state)),
    }


def service_run(config: dict[str, JSON], turns: list[list[tuple[int, JSON]]]) -> dict[str, Any]:
    """Plays the recorded orders through the Matches application on a new SQLite file."""
    with tempfile.TemporaryDirectory(prefix="drts-bench-shades-") as folder:
        url = f"sqlite:///{folder}/bench.sqlite"
        schema.upgrade(Settings(url))
        app = Matches(env=Settings(url).event_store_env())
        try:
            start = time.perf_counter()
            new = app.create_match("shades", config, seats=SEATS, seed=SEED)
            tokens = [app.join(new.match_id, f"bot{n}").token for n in range(1, SEATS + 1)]
            app.start(new.match_id, str(new.referee_token))
            for orders in turns:
                for seat, order in orders:
                    app.submit_order(new.match_id, tokens[seat - 1], order, source="bot")
            elapsed = time.perf_counter() - start
            match = app.get_match(new.match_id)
            return {
                "seconds": elapsed,
                "events": match.version,
                "finished": match.finished,
                "state": canonical_json(match.state),
            }
        finally:
            app.close()


def main() -> None:
    """Prints the pure-domain and service figures for one recorded match."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--map", default="river")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    config = RULESET.validate_config(expand_map("shades", {"map": args.map}))
    turns = record_orders(config)
    pure = [pure_run(config, turns, hashing=False) for _ in range(args.runs)]
    hashed = [pure_run(config, turns, hashing=True) for _ in range(args.runs)]
    served = [service_run(config, turns) for _ in range(max(1, args.runs // 2))]
    orders = sum(len(orders) for orders in turns)
    commands = sum(len(order["data"]) for orders in turns for _, order in orders)
    assert pure[0]["state"] == served[0]["state"], "the service and the Table disagree"
    print(
        f"shades, map {args.map}, {SEATS} seats, {len(turns)} turns, {orders} orders, "
        f"{commands} commands, up to {pure[0]['shades']} shades on the map"
    )
    print(
        f"  pure domain (Table: parse, check, resolve): "
        f"median {statistics.median(r['seconds'] for r in pure) * 1000:.0f} ms a match, "
        f"{pure[0]['steps']} steps"
    )
    print(
        f"  pure domain + dump and hash the state each turn: "
        f"median {statistics.median(r['seconds'] for r in hashed) * 1000:.0f} ms a match"
    )
    print(
        f"  service on SQLite (create, join, start, every order): "
        f"median {statistics.median(r['seconds'] for r in served):.1f} s a match, "
        f"{served[0]['events']} events"
    )


if __name__ == "__main__":
    main()
