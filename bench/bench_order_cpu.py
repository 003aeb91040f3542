"""CPU per order in the API process (issue 30): POST /orders through the Flask test client
on a throwaway PostgreSQL database, read models included.

Sets up DRTS Team 23 matches (8 seats, `close_early`, so the eighth order of a movement
also resolves it) through the test client, then plays rounds: every seat of a match sends
`hold`, then the read models catch up (as the follower does after a burst), match after
match. `--follow-log worker` (the default on PostgreSQL, DRTS_FOLLOW_LOG): a second
Matches application stands for the worker that follows the log, and the API process
applies no event; `--follow-log api`: the API's own follower catches up, so its
catch-ups are the API's CPU. Prints the CPU time (time.process_time)
per order of the requests and of the catch-ups apart, and the API's (requests, plus the
catch-ups under `api`), the least and the median of `--repeat` measures (other work on
the machine inflates them). The requests are measured twice, the measures alternating:
sent through Flask's test client, as the figures of record were, and by calling the app
as a WSGI server does (each seat's environ built once, a new body stream a call), which
leaves out the test client's own work of building the request and reading the answer (a
server's parse of the request is left out too). Then the function calls an order under
cProfile and the SQL
statements an order of the requests and of the catch-ups (one more round:
tests/support/statements.py), counts that do not depend on the load; with `--profile`,
the top functions too. Wall clock is not measured: the machine is shared.

Run: .venv/bin/python bench/bench_order_cpu.py [--matches 4] [--rounds 8] [--repeat 3]
         [--follow-log api|worker] [--profile]
Figures of record: bench/http.md (Issue 30: CPU per order). Never fails.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import io
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from werkzeug.test import EnvironBuilder

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.app import create_app
from service import schema
from service.matches import Matches
from service.settings import Settings
from tests.support.postgres import new_pg_database, pg_url
from tests.support.statements import counting_postgres

SEATS = 8
# long enough for the measures (2 x repeat x rounds movements, and two more), not the
# default 40 movements: an order's cost does not depend on the match's length
# (bench/growth.md)
LENGTH = {"movements": 100, "max_movements": 100}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=8, help="movements played per match")
    parser.add_argument("--repeat", type=int, default=3, help="measures of `rounds` rounds each")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    parser.add_argument(
        "--follow-log",
        choices=("api", "worker"),
        default="worker",  # what ships on PostgreSQL (service/settings.py)
        help="who catches the read models up: the API process, or a worker (DRTS_FOLLOW_LOG)",
    )
    args = parser.parse_args()
    try:
        with new_pg_database("drts_bench_order_cpu") as dbname:
            measure(pg_url(dbname), args)
    except Exception as error:  # a benchmark reports and never fails the run
        print(f"bench_order_cpu: skipped: {type(error).__name__}: {error}")


@dataclass
class Tally:
    """CPU seconds and orders of the rounds played, the requests' and the catch-ups' apart."""

    orders: int = 0
    requests: float = 0.0
    catch_ups: float = 0.0
    timer: Callable[[], float] = field(default=time.process_time)

    def timed(self, run: Callable[[], Any], into: str) -> Any:
        began = self.timer()
        try:
            return run()
        finally:
            setattr(self, into, getattr(self, into) + self.timer() - began)


def measure(url: str, args: argparse.Namespace) -> None:
    settings = Settings(url)
    schema.upgrade(settings)
    matches = Matches(env=settings.event_store_env())
    # under `worker` the catch-ups are another process's: a Matches of its own stands for it
    follower = matches if args.follow_log == "api" else Matches(env=settings.event_store_env())
    config = {"TESTING": True, "DRTS_RATE_LIMIT_PER_ADDRESS": 0, "DRTS_RATE_LIMIT_PER_TOKEN": 0}
    client = create_app(config, matches=matches).test_client()
    try:
        tables = [new_match(client) for _ in range(args.matches)]
        follower.read_models.catch_up()
        by_wsgi = WsgiSender(client.application)
        tallies, called = [], []
        for _ in range(args.repeat):
            tallies.append(play(client, follower, tables, args.rounds))
            called.append(play(client, follower, tables, args.rounds, send_by=by_wsgi))
        report(args, tallies)
        requests = [t.requests / t.orders for t in called]
        print(
            f"  requests called as a WSGI server calls the app (no test client): "
            f"min {ms(min(requests))}, median {ms(statistics.median(requests))}"
        )
        profile = cProfile.Profile(time.process_time)
        profile.enable()
        orders = play(client, follower, tables, args.rounds).orders
        profile.disable()
        stats = pstats.Stats(profile)
        calls = stats.total_calls  # type: ignore[attr-defined]
        print(f"under cProfile: {calls / orders:.0f} function calls an order, catch-ups included")
        count_statements(client, follower, tables)
        if args.profile:
            stats.sort_stats("cumulative").print_stats(45)
    finally:
        matches.close()
        if follower is not matches:
            follower.close()


def report(args: argparse.Namespace, tallies: list[Tally]) -> None:
    """Prints the CPU an order: requests, catch-ups, and the API process's share."""
    requests = [t.requests / t.orders for t in tallies]
    catch_ups = [t.catch_ups / t.orders for t in tallies]
    api = [
        (t.requests + (t.catch_ups if args.follow_log == "api" else 0.0)) / t.orders
        for t in tallies
    ]
    print(
        f"{args.matches} matches x {SEATS} seats x {args.rounds} rounds, read models caught "
        f"up after each match's round by the {args.follow_log} (--follow-log), "
        f"{args.repeat} times: CPU an order"
    )
    for name, values in (("requests", requests), ("catch-ups", catch_ups), ("API process", api)):
        print(f"  {name}: min {ms(min(values))}, median {ms(statistics.median(values))}")


def count_statements(client: Any, follower: Matches, tables: list[tuple[str, list[str]]]) -> None:
    """Prints the SQL statements an order of one more round: requests, catch-ups apart."""
    with counting_postgres() as statements:
        tally = Tally(timer=lambda: float(len(statements)))
        statements.on = True
        try:
            play(client, follower, tables, 1, tally)
        finally:
            statements.on = False
    print(
        f"SQL statements an order (tests/support/statements.py): requests "
        f"{tally.requests / tally.orders:.1f}, catch-ups {tally.catch_ups / tally.orders:.1f}"
    )


def play(
    client: Any,
    follower: Matches,
    tables: list[tuple[str, list[str]]],
    rounds: int,
    tally: Tally | None = None,
    send_by: Callable[[str, str], None] | None = None,
) -> Tally:
    """Plays the rounds (each order must be accepted), sent by `send_by` (the test client
    by default), `follower`'s read models catching up after each match's round; returns
    the tally."""
    tally = tally or Tally()
    send_order = send_by or functools.partial(send, client)
    for _ in range(rounds):
        for match_id, tokens in tables:
            for token in tokens:
                tally.timed(functools.partial(send_order, match_id, token), "requests")
                tally.orders += 1
            tally.timed(follower.read_models.catch_up, "catch_ups")
    return tally


def send(client: Any, match_id: str, token: str) -> None:
    """Sends `hold` for the seat; raises unless it is accepted."""
    response = client.post(
        f"/matches/{match_id}/orders",
        json={"order": "hold"},
        headers={"Authorization": f"Bearer {token}"},
    )
    if response.status_code != 201:
        raise RuntimeError(f"order refused: {response.get_json()}")


class WsgiSender:
    """Sends `hold` for a seat by calling the app as a WSGI server does: the request's
    environ is built once a seat (a server's parse of the request is not measured), a
    new body stream a call; raises unless it is accepted."""

    BODY = b'{"order": "hold"}'

    def __init__(self, app: Any) -> None:
        self.app = app
        self.environs: dict[tuple[str, str], dict[str, Any]] = {}

    def __call__(self, match_id: str, token: str) -> None:
        environ = self.environs.get((match_id, token))
        if environ is None:
            environ = self.environs[(match_id, token)] = EnvironBuilder(
                path=f"/matches/{match_id}/orders",
                method="POST",
                data=self.BODY,
                content_type="application/json",
                headers=[("Authorization", f"Bearer {token}")],
            ).get_environ()
        statuses: list[str] = []
        answer = self.app(
            {**environ, "wsgi.input": io.BytesIO(self.BODY)},
            lambda status, headers, exc_info=None: statuses.append(status),
        )
        body = b"".join(answer)
        if not statuses[0].startswith("201"):
            raise RuntimeError(f"order refused: {body!r}")


def new_match(client: Any) -> tuple[str, list[str]]:
    """Creates, fills and starts a DRTS Team 23 match; returns its id and seat tokens."""
    created = client.post(
        "/matches", json={"ruleset": "drts_team23", "config": {"close_early": True, **LENGTH}}
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
