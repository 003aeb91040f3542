"""The remote bot example (examples/bots/remote_bot.py) plays Shades over real HTTP: a real
gunicorn on a loopback port, the example run as a program with its seat token (SH-11)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.gunicorn import gunicorn
from tests.support.http import call

ROOT = Path(__file__).resolve().parents[2]
REMOTE_BOT = ROOT / "examples" / "bots" / "remote_bot.py"


def test_two_remote_bots_play_a_whole_match_with_their_seat_tokens(database_url: str):
    """Each bot waits for the start, reads its init and turn messages, sends its replies as
    orders (source `bot`) and long-polls for the next turn; every turn closes early."""
    with gunicorn(database_url, threads=6) as base:
        config = {"map": "small", "turns": 8, "turn_seconds": 120}
        status, new = call(base, "POST", "/matches", {"ruleset": "shades", "config": config})
        assert status == 201, new
        match_id, referee = new["match_id"], new["referee_token"]
        tokens = [
            call(base, "POST", f"/matches/{match_id}/seats", {"name": name})[1]["token"]
            for name in ("north", "south")
        ]
        bots = [
            subprocess.Popen(
                [sys.executable, str(REMOTE_BOT), base, match_id, token],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for token in tokens
        ]
        status, _ = call(base, "POST", f"/matches/{match_id}/start", token=referee)
        assert status == 200
        outputs = [bot.communicate(timeout=120) for bot in bots]
        assert [bot.returncode for bot in bots] == [0, 0], outputs
        _, summary = call(base, "GET", f"/matches/{match_id}")
        assert summary["status"] == "finished"
        for out, _ in outputs:
            assert json.loads(out)["scores"] == summary["outcome"]["scores"]
        _, page = call(base, "GET", f"/matches/{match_id}/events?limit=1000")
        orders = [e["data"] for e in page["items"] if e["type"] == "OrderSubmitted"]
        assert {(o["seat"], o["source"]) for o in orders} == {(1, "bot"), (2, "bot")}
        closes = [e["data"]["reason"] for e in page["items"] if e["type"] == "MovementClosed"]
        assert closes and set(closes) == {"all_ordered"}
