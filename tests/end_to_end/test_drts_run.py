"""`drts run` end to end: one command serves the API with a worker and its beat on the
embedded default (SQLite store and broker in the working directory) and the SMTP server
for orders by mail, a District War order comes by mail, a deadline passes and the worker
strikes the silent seat, and SIGTERM stops everything."""

from __future__ import annotations

import json
import os
import signal
import smtplib
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from tests.support.http import free_port

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(120)


class Http:
    def __init__(self, port: int, log: Path) -> None:
        self.base, self.log = f"http://127.0.0.1:{port}", log

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            if error.code >= 500:  # a bug: show what the server said
                pytest.fail(
                    f"{method} {path}: {error.code} {error.read()!r}; drts run said:\n"
                    f"{self.log.read_text()[-6000:]}"
                )
            raise

    def call_any(self, method: str, path: str) -> Any:
        """Returns the JSON body whatever the status (GET /health answers 503 with it)."""
        request = urllib.request.Request(self.base + path, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            return json.loads(error.read())

    def events(self, match_id: str) -> list[dict[str, Any]]:
        return list(self.call("GET", f"/matches/{match_id}/events?limit=500")["items"])


def listening(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=2):
        return True


def wait_for(condition: Any, timeout: float, what: str, log: Path) -> Any:
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        try:
            value = condition()
        except (urllib.error.URLError, ConnectionError):
            value = None
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"{what}: nothing after {timeout} s; drts run said:\n{log.read_text()[-4000:]}")


def test_drts_run_serves_resolves_a_deadline_with_its_worker_and_stops_together(tmp_path):
    port, mail_port, log = free_port(), free_port(), tmp_path / "drts-run.log"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DRTS_DATABASE_URL", "DRTS_BROKER_URL")
    }
    env.update(DRTS_SWEEP_SECONDS="1", DRTS_MAIL_PORT=str(mail_port), PYTHONPATH=str(ROOT))
    with log.open("wb") as out:
        run = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "run", "--port", str(port)],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        http = Http(port, log)
        wait_for(lambda: http.call("GET", "/rulesets"), 60, "the API", log)
        config = {"troops": 2, "placement_seconds": 3, "extension_seconds": 2}
        new = http.call("POST", "/matches", {"ruleset": "district_war", "config": config})
        match_id, referee = new["match_id"], new["referee_token"]
        seats = [
            http.call("POST", f"/matches/{match_id}/seats", {"name": name})
            for name in ("alice", "bob")
        ]
        http.call("POST", f"/matches/{match_id}/start", token=referee)
        wait_for(lambda: listening(mail_port), 30, "the SMTP server", log)
        order = EmailMessage()
        order["From"], order["Subject"] = "bob@example.org", "orders"
        order["To"] = seats[1]["order_address"]
        order.set_content("first 1\n-- \nBob\n")
        with smtplib.SMTP("127.0.0.1", mail_port, timeout=30) as smtp:
            smtp.send_message(order)
        mailed = [e for e in http.events(match_id) if e["type"] == "OrderSubmitted"]
        assert [e["data"]["source"] for e in mailed] == ["mail"]
        # seat 1 stays silent: its 3 s placement clock runs out and the worker strikes it
        struck = wait_for(
            lambda: [e for e in http.events(match_id) if e["type"] == "SeatStruck"],
            30,
            "a strike by the worker",
            log,
        )
        data = dict(struck[0]["data"])
        assert data.pop("intended_at")  # the deadline it passed at (issue 13)
        assert data == {"seat": 1, "movement": 2, "strikes": 1}
        after = [e for e in http.events(match_id) if e["version"] == struck[0]["version"] + 1]
        assert after[0]["type"] == "DeadlineSet" and after[0]["data"]["reason"] == "extended"
        assert (tmp_path / "drts.sqlite").exists() and (tmp_path / "drts-broker.sqlite").exists()
    finally:
        run.send_signal(signal.SIGTERM)
        code = run.wait(45)
    assert code == 0, log.read_text()[-4000:]
    time.sleep(0.5)
    left = subprocess.run(
        ["ps", "-o", "pid,stat,args", "--no-headers", "-g", str(run.pid)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    running = [line for line in left.splitlines() if line.split()[1][0] != "Z"]  # not zombies
    assert not running, f"left running after drts run stopped:\n{left}"
