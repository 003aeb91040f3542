"""The API as it runs in production: gunicorn (threaded workers) on PostgreSQL, on a loopback
port (issue 15).

- schemathesis's command line over every operation of /openapi.json, then stateful runs
  along its links: no 5xx, every response as the document says, and every error body in
  the one error shape (the hooks of tests/api/schemathesis_hooks.py, which also tally every
  response). Its figures are printed (`-s` shows them).
- Long polls cannot take every thread: past DRTS_MAX_LONG_POLLS they get 429 at once, and
  other requests are served; a client over its rate limit gets 429 with Retry-After.
- gunicorn answers a malformed request line itself, before the app, with its own 400 page
  (documented in docs/api.md), and goes on serving.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.api.schemathesis_hooks import CONFIG, shape_problem
from tests.support.gunicorn import ROOT, gunicorn
from tests.support.http import call

pytestmark = pytest.mark.postgres

MAX_EXAMPLES = os.environ.get("DRTS_SCHEMATHESIS_EXAMPLES", "100")
RUN_SECONDS = 540  # the whole schemathesis run, at most (2 cores, shared; 64 operations)


@pytest.mark.timeout(RUN_SECONDS + 60)
def test_schemathesis_over_every_operation_through_gunicorn_on_postgresql(pg_database, tmp_path):
    config, tally = tmp_path / "schemathesis.toml", tmp_path / "tally.json"
    config.write_text(CONFIG)
    settings = {
        "DRTS_OPERATOR_TOKEN": "operator",
        "DRTS_LONG_POLL_MAX_SECONDS": "0.5",  # long polls end quickly here
        "DRTS_STREAM_MAX_SECONDS": "0.5",  # and streams
        "DRTS_RATE_LIMIT_PER_ADDRESS": "0",  # one client, far faster than any player
        "DRTS_RATE_LIMIT_PER_TOKEN": "0",
    }
    # No limit on the request line: schemathesis sends query strings of many KiB, which
    # gunicorn's default (4094 bytes) answers itself with an HTML 414 (documented in
    # docs/api.md, and counted apart by the hostile battery); here every request reaches drts.
    unlimited = ("--limit-request-line", "0")
    with gunicorn(pg_database, workers=2, threads=4, settings=settings, options=unlimited) as base:
        began = time.monotonic()
        run = subprocess.run(
            [
                str(Path(sys.executable).with_name("schemathesis")),
                "--config-file",
                str(config),
                "--no-color",
                "run",
                f"{base}/openapi.json",
                "--max-examples",
                MAX_EXAMPLES,
                "--workers",  # one: CPython 3.11's ast.parse is not thread-safe (gh-106905),
                "1",  # and hypothesis parses lambdas' source while it generates
                "--request-timeout",
                "30",
                "--suppress-health-check",
                "all",
                "--generation-database",
                "none",
            ],
            env={
                **os.environ,
                "SCHEMATHESIS_HOOKS": "tests.api.schemathesis_hooks",
                "DRTS_SCHEMATHESIS_TALLY": str(tally),
                "PYTHONPATH": str(ROOT),
            },
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=RUN_SECONDS,
        )
        seconds = time.monotonic() - began
    figures = json.loads(tally.read_text())
    print(f"\nschemathesis through gunicorn on PostgreSQL, {seconds:.0f} s: {figures}")
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert figures["5xx"] == 0 and figures["not_in_the_error_shape"] == 0, figures
    assert figures["requests"] > 500, figures  # every operation, many times over
    assert {"200", "201", "401", "404", "409", "422"} <= set(figures["statuses"]), figures


def test_long_polls_cannot_take_every_thread_and_a_flood_gets_429(pg_database):
    settings = {
        "DRTS_MAX_LONG_POLLS": "2",
        "DRTS_LONG_POLL_MAX_SECONDS": "4",
        "DRTS_RATE_LIMIT_PER_ADDRESS": "60",
    }
    with gunicorn(pg_database, workers=1, threads=3, settings=settings) as base:
        _, new = call(base, "POST", "/matches", {"ruleset": "district_war"})
        events = f"/matches/{new['match_id']}/events?after=1&wait=30"
        waiting = [threading.Thread(target=call, args=(base, "GET", events)) for _ in range(2)]
        for thread in waiting:
            thread.start()
        time.sleep(1.5)  # both wait now (for 4 s), holding two of the three threads
        began = time.monotonic()
        status, body = call(base, "GET", events)
        assert (status, body["code"]) == (429, "too_many_long_polls")
        assert call(base, "GET", "/matches")[0] == 200  # the third thread still serves
        assert time.monotonic() - began < 2
        for thread in waiting:
            thread.join(timeout=10)
        statuses = [call(base, "GET", "/rulesets")[0] for _ in range(70)]
        assert statuses.count(429) >= 5 and statuses[0] == 200
        status, body, headers = raw_get(base, "/rulesets")
        assert status == 429 and shape_problem(429, body) is None
        assert int(headers["retry-after"]) >= 1


def test_gunicorn_answers_a_malformed_request_line_itself_and_serves_on(pg_database):
    with gunicorn(pg_database, workers=1, threads=2) as base:
        host, port = urlsplit(base).hostname, urlsplit(base).port
        with socket.create_connection((host, port), timeout=10) as raw:
            raw.sendall(b"NOT A REQUEST LINE\x00\r\n\r\n")
            answer = raw.recv(4096)
        assert answer.startswith(b"HTTP/1.1 400")  # gunicorn's own page: not the JSON shape
        assert call(base, "GET", "/matches")[0] == 200


def raw_get(base: str, path: str) -> tuple[int, Any, dict[str, str]]:
    """Returns the status, the decoded JSON body and the headers (lower-case names)."""
    try:
        with urllib.request.urlopen(base + path, timeout=10) as response:
            headers = {k.lower(): v for k, v in response.headers.items()}
            return response.status, json.loads(response.read()), headers
    except urllib.error.HTTPError as error:
        headers = {k.lower(): v for k, v in error.headers.items()}
        return error.code, json.loads(error.read()), headers
