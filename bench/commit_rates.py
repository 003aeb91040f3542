"""PostgreSQL's own commit rates, the yardstick of the HTTP intake bench (issue 30).

From N client threads, each with its own psycopg connection to the bench's database,
for a fixed time: one INSERT of a row about the size of a stored order event and one
COMMIT per operation ("plain"), and the same with `LOCK TABLE ... IN EXCLUSIVE MODE`
first in each transaction, as eventsourcing's PostgreSQL recorder takes it to keep the
log's notification ids in commit order ("locked").
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import psycopg

ROW_BYTES = 600  # about one stored, compressed OrderSubmitted event
TABLE = "bench_commit_rate"


def create_table(url: str) -> None:
    """Creates the scratch table the loops write to (in the bench's throwaway database)."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            f"CREATE TABLE IF NOT EXISTS {TABLE} (id bigserial PRIMARY KEY, body bytea NOT NULL)"
        )


def commit_rate(url: str, clients: int, locked: bool, seconds: float = 2.0) -> float:
    """Returns the transactions per second of `clients` threads inserting one row and
    committing, for `seconds` (`locked`: each takes the table lock first)."""
    stop = threading.Event()
    body = os.urandom(ROW_BYTES)

    def loop() -> int:
        done = 0
        with psycopg.connect(url) as conn:
            while not stop.is_set():
                with conn.transaction():
                    if locked:
                        conn.execute(f"LOCK TABLE {TABLE} IN EXCLUSIVE MODE")
                    conn.execute(f"INSERT INTO {TABLE} (body) VALUES (%s)", (body,))
                done += 1
        return done

    with ThreadPoolExecutor(clients) as pool:
        started = time.perf_counter()
        futures = [pool.submit(loop) for _ in range(clients)]
        time.sleep(seconds)
        stop.set()
        total = sum(future.result() for future in futures)
        elapsed = time.perf_counter() - started
    return total / elapsed
