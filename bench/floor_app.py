"""Floors for the HTTP intake bench (bench_http.py, issue 30): minimal Flask apps that do
what an order request must at least do, served by the same gunicorn and the same clients.

- `bare`: one route that parses the JSON body and answers JSON; no database at all.
  What Flask, gunicorn, the client and the loopback cost on this machine.
- `locked`: the same, and each request also takes `LOCK TABLE ... IN EXCLUSIVE MODE`,
  INSERTs one row of about the size of a stored order and COMMITs, on a pooled
  connection (the scratch table of commit_rates.py, in the database named by
  DRTS_DATABASE_URL). The least a request that appends to the log must cost here.

Both also answer GET /rulesets, which tests/support/gunicorn.py probes to see the
server up.
"""

from __future__ import annotations

import atexit
import os
from functools import cache
from typing import Any

from flask import Flask, jsonify, request
from psycopg_pool import ConnectionPool

from bench.commit_rates import ROW_BYTES, TABLE

ROW = os.urandom(ROW_BYTES)

bare = Flask("floor_bare")
locked = Flask("floor_locked")


@cache
def pool() -> ConnectionPool:
    """The worker's connection pool, opened at its first request (after gunicorn forks) and
    closed as the worker exits (a pool left to the garbage collector complains)."""
    opened = ConnectionPool(os.environ["DRTS_DATABASE_URL"], min_size=2, max_size=8, open=True)
    atexit.register(opened.close)
    return opened


def probe() -> Any:
    return jsonify([])


def order(match_id: str) -> Any:
    payload = request.get_json()
    return jsonify({"order": payload["order"], "closing": None}), 201


def locked_order(match_id: str) -> Any:
    payload = request.get_json()
    with pool().connection() as conn, conn.transaction():
        conn.execute(f"LOCK TABLE {TABLE} IN EXCLUSIVE MODE")
        conn.execute(f"INSERT INTO {TABLE} (body) VALUES (%s)", (ROW,))
    return jsonify({"order": payload["order"], "closing": None}), 201


for app, view in ((bare, order), (locked, locked_order)):
    app.add_url_rule("/rulesets", "probe", probe, methods=["GET"])
    app.add_url_rule("/matches/<match_id>/orders", "order", view, methods=["POST"])
