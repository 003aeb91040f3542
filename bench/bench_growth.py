"""Growth benchmark (issue 46): how the costs of a match grow with its length, on PostgreSQL.

Plays DRTS Team 23 version 2 matches (8 seats, `close_early`, every seat sending a legal
order of two operations with items one move in three: bench_drts_team23's
`full_order_v2`, `hold` when it has none; the eighth order closes the movement) with
`movements` = `max_movements` from 10 to 300, and a B-Chess match (2 seats, each a Turn
ordering a purchase and its King's move to an empty square, so that no King falls; the
Turn resolved at its firing) of as many Turns as the longest, through the Matches
application on a throwaway database at 127.0.0.1:5432. For each match it prints against
its length (events stored):

- replay: a full replay (`Matches.replay`) in a fresh application that keeps no past
  (DRTS_PAST_CACHE_SIZE=0), median of 3 after a first one (the first checks the
  snapshots), in µs an event;
- resolving order: the CPU time of the order that closes (and resolves) a movement
  while playing, median of the first 5 movements and of the last 5 (DRTS only: a
  B-Chess Turn resolves at its firing, timed the same);
- past state: `Matches.state(movement=k)` uncached, median over 10 movements spread
  over the match (after a pass that checks the snapshots).

Every figure is CPU time of the bench's process (time.process_time), PostgreSQL's own
work apart: other work on a shared machine still inflates it; compare within one run.
Never fails.

Run: .venv/bin/python bench/bench_growth.py [--movements 10,40,100,300] [--no-bchess]
Figures of record: bench/growth.md. Issue 46's targets: replay <= 70 µs an event at
10,000 events and <= 50 ms for 40 movements; the resolving order at movement 300 within
1.2x of movement 1; past state flat.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from bench.bench_drts_team23 import full_order_v2  # noqa: E402
from domain.rules.b_chess.orders import (  # noqa: E402
    MoveAction,
    Order,
    PurchaseAction,
    dump_order,
    legal_moves,
)
from domain.rules.rng import Rng  # noqa: E402
from service import schema  # noqa: E402
from service.clock import ManualClock  # noqa: E402
from service.matches import Matches  # noqa: E402
from service.settings import Settings  # noqa: E402
from service.usecases.resolution import SETTLING  # noqa: E402
from tests.support.postgres import PG_HOST, PG_PORT, new_pg_database, pg_url  # noqa: E402

SEATS = 8
TURN = 60  # seconds between B-Chess firings
EDGE = 5  # movements timed at each end


def timed(action: Callable[[], Any]) -> float:
    """Returns the CPU seconds of this process `action()` took (the machine is shared:
    wall time would count the other work on it)."""
    began = time.process_time()
    action()
    return time.process_time() - began


def play_drts(app: Matches, movements: int) -> tuple[str, list[float]]:
    """Plays a DRTS Team 23 v2 match of `movements` to its end; returns its id and the
    CPU time of each movement's closing order, in order."""
    config = {"close_early": True, "movements": movements, "max_movements": movements}
    created = app.create_match("drts_team23", config, seed=f"growth-{movements}", version=2)
    match_id = str(created.match_id)
    tokens = [app.join(match_id, f"p{seat}").token for seat in range(1, SEATS + 1)]
    app.start(match_id, str(created.referee_token))
    rng, closing = Rng("growth-orders", movements), []
    while not (match := app.get_match(match_id)).finished:
        table = match.table()
        orders = [order_json(table, seat, rng) for seat in range(1, SEATS + 1)]
        for token, order in zip(tokens[:-1], orders[:-1], strict=True):
            app.submit_order(match_id, token, order)
        last = orders[-1]
        closing.append(timed(lambda last=last: app.submit_order(match_id, tokens[-1], last)))
    return match_id, closing


def order_json(table: Any, seat: int, rng: Rng) -> Any:
    """Returns a legal v2 order of two operations for the seat, in JSON; `hold` if none."""
    try:
        return table.ruleset.dump_order(full_order_v2(table.state, seat, rng))
    except Exception:  # a seat with nothing to move, or an item-only position
        return "hold"


def play_bchess(app: Matches, clock: ManualClock, turns: int) -> tuple[str, list[float]]:
    """Plays `turns` B-Chess Turns (or to its end); returns its id and each Turn's
    resolution time."""
    created = app.create_match("b_chess", {"turn_seconds": TURN}, seed="growth", seats=2)
    match_id = str(created.match_id)
    tokens = [app.join(match_id, name).token for name in ("alice", "bob")]
    app.start(match_id, str(created.referee_token))
    rng, resolving = Rng("growth-bchess", 0), []
    clock.advance(SETTLING.total_seconds())  # each firing is then settled when resolved
    for _ in range(turns):
        match = app.get_match(match_id)
        if match.finished:
            break
        table = match.table()
        for seat, token in enumerate(tokens, start=1):
            order = peaceful_order(table.state, seat, rng)
            if order is not None:
                app.submit_order(match_id, token, dump_order(order))
        clock.advance(TURN)
        movement = match.movement
        resolving.append(timed(lambda movement=movement: app.resolve(match_id, movement)))
    return match_id, resolving


def peaceful_order(state: Any, seat: int, rng: Rng) -> Order | None:
    """Returns a purchase and a move of the seat's King to an empty square (so that the
    match goes on for as many Turns as asked); None without a King."""
    king = state.king_of(seat)
    if king is None:
        return None
    occupied = state.occupied
    empty = [m for m in legal_moves(state, king) if m.target not in occupied]
    actions: list[Any] = [PurchaseAction()]
    if empty:
        actions.append(MoveAction(king.id, rng.choice(empty).target))
    return Order(tuple(actions))


def measure(url: str, match_id: str) -> tuple[int, float, float, int]:
    """Returns (events, replay seconds, past state seconds, movements) of a stored match,
    read through a fresh application that keeps no past."""
    env = {**Settings(url).event_store_env(), "DRTS_PAST_CACHE_SIZE": "0"}
    app = Matches(env=env)
    try:
        match = app.get_match(match_id)
        events, last = match.version, match.movement
        app.replay(match_id)  # checks the snapshots once, as a fresh process does
        replay = statistics.median(timed(lambda: app.replay(match_id)) for _ in range(3))
        step = max(1, last // 10)
        spread = list(range(1, last + 1, step))[:10]
        for k in spread:
            app.state(match_id, movement=k)
        state = statistics.median(
            timed(lambda k=k: app.state(match_id, movement=k)) for k in spread
        )
    finally:
        app.close()
    return events, replay, state, last


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def edges(times: list[float]) -> str:
    """Returns the first and last movements' medians and their ratio."""
    first = statistics.median(times[:EDGE])
    last = statistics.median(times[-EDGE:])
    return f"{ms(first)} -> {ms(last)} ({last / first:.2f}x)"


def report(game: str, url: str, match_id: str, closing: list[float], played: float) -> None:
    events, replay, state, last = measure(url, match_id)
    print(
        f"{game:<18} {last:>4} movements {events:>6} events (played in {played:.1f} s): "
        f"replay {ms(replay)} = {replay / events * 1e6:.0f} µs/event; "
        f"resolving order first/last {EDGE} {edges(closing)}; past state {ms(state)}",
        flush=True,
    )


def run(lengths: list[int], bchess: bool) -> None:
    with new_pg_database("drts_bench_growth") as dbname:
        url = pg_url(dbname)
        settings = Settings(url)
        schema.upgrade(settings)
        clock = ManualClock()
        app = Matches(env=settings.event_store_env(), clock=clock)
        try:
            for movements in lengths:
                began = time.perf_counter()
                match_id, closing = play_drts(app, movements)
                report("drts_team23 v2", url, match_id, closing, time.perf_counter() - began)
            if bchess:
                began = time.perf_counter()
                match_id, resolving = play_bchess(app, clock, max(lengths))
                report("b_chess (Turn)", url, match_id, resolving, time.perf_counter() - began)
        finally:
            app.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--movements", default="10,40,100,300")
    parser.add_argument("--no-bchess", action="store_true")
    args = parser.parse_args()
    lengths = [int(text) for text in args.movements.split(",")]
    try:
        run(lengths, not args.no_bchess)
    except psycopg.OperationalError as error:
        print(f"bench_growth: PostgreSQL not reachable at {PG_HOST}:{PG_PORT}: {error}")
    except Exception as error:  # a benchmark reports and never fails the run
        print(f"bench_growth: skipped: {type(error).__name__}: {error}")


if __name__ == "__main__":
    main()
