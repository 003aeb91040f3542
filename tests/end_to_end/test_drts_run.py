"""`drts run` end to end: one command serves the API with a worker and its beat on the
embedded default (SQLite store and broker in the working directory) and the SMTP server
for orders by mail, a District War order comes by mail, a deadline passes and the worker
strikes the silent seat, and SIGTERM stops everything."""

from __future__ import annotations

import os
import signal
import smtplib
import socket
import subprocess
import sys
import time
from email.message import EmailMessage

import pytest

from tests.support.drts_run import ROOT, Http, wait_for
from tests.support.http import free_port

pytestmark = pytest.mark.timeout(120)


def listening(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=2):
        return True


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
