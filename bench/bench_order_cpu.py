"""CPU per order in the API process (issue 30): POST /orders through the Flask test client
on a throwaway PostgreSQL database, read models included.

Sets up DRTS Team 23 matches (8 seats, `close_early`, so the eighth order of a movement
also resolves it) through the test client, then plays rounds: every seat of a match sends
`hold`, then the read models catch up (as the follower of a gunicorn worker does after a
burst), match after match. Prints the CPU time (time.process_time, every thread of the
process) per order, orders and catch-ups together, the least and the median of
`--repeat` measures (other work on the machine inflates it), then the function calls an
order under cProfile and the SQL statements an order (one more round, catch-ups
included: tests/support/statements.py), counts that do not depend on the load; with
`--profile`, the top functions too. Wall clock is not measured: the machine is shared.

Run: .venv/bin/python bench/bench_order_cpu.py [--matches 4] [--rounds 8] [--repeat 3]
         [--profile]
Figures of record: bench/http.md (Issue 30: CPU per order). Never fails.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.app import create_app
from service import schema
from service.matches import Matches
from service.settings import Settings
from tests.support.postgres import new_pg_database, pg_url
from tests.support.statements import counting_postgres

SEATS = 8


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=8, help="movements played per match")
    parser.add_argument("--repeat", type=int, default=3, help="measures of `rounds` rounds each")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    args = parser.parse_args()
    try:
        with new_pg_database("drts_bench_order_cpu") as dbname:
            measure(pg_url(dbname), args)
    except Exception as error:  # a benchmark reports and never fails the run
        print(f"bench_order_cpu: skipped: {type(error).__name__}: {error}")


def measure(url: str, args: argparse.Namespace) -> None:
    settings = Settings(url)
    schema.upgrade(settings)
    matches = Matches(env=settings.event_store_env())
    config = {"TESTING": True, "DRTS_RATE_LIMIT_PER_ADDRESS": 0, "DRTS_RATE_LIMIT_PER_TOKEN": 0}
    client = create_app(config, matches=matches).test_client()
    try:
        tables = [new_match(client) for _ in range(args.matches)]
        matches.read_models.catch_up()
        per_order = [
            cpu_per_order(client, matches, tables, args.rounds) for _ in range(args.repeat)
        ]
        print(
            f"{args.matches} matches x {SEATS} seats x {args.rounds} rounds, read models caught "
            f"up after each match's round, {args.repeat} times: CPU an order "
            f"min {ms(min(per_order))}, median {ms(statistics.median(per_order))}"
        )
        orders_played: list[int] = []
        profile = cProfile.Profile(time.process_time)
        profile.enable()
        orders = play(client, matches, tables, args.rounds)
        profile.disable()
        stats = pstats.Stats(profile)
        calls = stats.total_calls  # type: ignore[attr-defined]
        print(f"under cProfile: {calls / orders:.0f} function calls an order")
        with counting_postgres() as statements:
            sent = statements.of(lambda: orders_played.append(play(client, matches, tables, 1)))
        print(
            f"SQL statements an order, catch-ups included (tests/support/statements.py): "
            f"{len(sent) / orders_played[-1]:.1f}"
        )
        if args.profile:
            stats.sort_stats("cumulative").print_stats(45)
    finally:
        matches.close()


def cpu_per_order(
    client: Any, matches: Matches, tables: list[tuple[str, list[str]]], rounds: int
) -> float:
    """Plays the rounds; returns the CPU seconds an order."""
    began = time.process_time()
    orders = play(client, matches, tables, rounds)
    return (time.process_time() - began) / orders


def play(client: Any, matches: Matches, tables: list[tuple[str, list[str]]], rounds: int) -> int:
    """Plays the rounds; returns the orders sent (each must be accepted)."""
    orders = 0
    for _ in range(rounds):
        for match_id, tokens in tables:
            for token in tokens:
                response = client.post(
                    f"/matches/{match_id}/orders",
                    json={"order": "hold"},
                    headers={"Authorization": f"Bearer {token}"},
                )
                if response.status_code != 201:
                    raise RuntimeError(f"order refused: {response.get_json()}")
                orders += 1
            matches.read_models.catch_up()
    return orders


def new_match(client: Any) -> tuple[str, list[str]]:
    """Creates, fills and starts a DRTS Team 23 match; returns its id and seat tokens."""
    created = client.post(
        "/matches", json={"ruleset": "drts_team23", "config": {"close_early": True}}
    ).get_json()
    match_id = created["match_id"]
    tokens = [
        client.post(f"/matches/{match_id}/seats", json={"name": f"p{seat}"}).get_json()["token"]
        for seat in range(1, SEATS + 1)
    ]
    started = client.post(
        f"/matches/{match_id}/start",
        headers={"Authorization": f"Bearer {created['referee_token']}"},
    )
    if started.status_code != 200:
        raise RuntimeError(f"start failed: {started.get_json()}")
    return match_id, tokens


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


if __name__ == "__main__":
    main()
