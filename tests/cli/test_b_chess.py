"""`drts match ...` with B-Chess (issue 24): a forum post of several lines, its public open
orders, the referee's grant of macks (BC-7), a seat joining the running match (BC-5) and
the Public Display, on an SQLite file."""

from __future__ import annotations

import json
import re


def started(drts) -> tuple[str, str, str]:
    out = drts("create", "b_chess", "--preset", "live", "--seed", "cli-bchess").output
    match_id = re.search(r"^match (\S+)", out, re.M).group(1)
    referee = re.search(r"^referee token (\S+)", out, re.M).group(1)
    alice = drts("join", match_id, "alice").output.split()[-1]
    drts("join", match_id, "bob")
    drts("start", match_id, "--referee-token", referee)
    return match_id, referee, alice


def test_a_forum_post_its_public_orders_a_grant_a_late_seat_and_the_display(drts):
    match_id, referee, alice = started(drts)
    state = json.loads(drts("state", match_id).output)["state"]
    king = next(p for p in state["priority_list"] if p["owner"] == 1)
    row, col = king["square"]
    post = f"{king['id']} to {row},{(col + 1) % 20}\nfly away\npurchase"
    out = drts("order", match_id, post, "--token", alice).output
    assert "fly away" in out  # the refused line, named
    pending = json.loads(drts("pending", match_id).output)  # no token: orders are public
    assert [p["seat"] for p in pending] == [1]
    assert pending[0]["order"]["actions"][1] == {"action": "purchase"}
    args = ["action", match_id, "grant", "--args", '{"seat": 2, "macks": 25}']
    out = drts(*args, "--reason", "Ministry Reward", "--referee-token", referee).output
    assert "grants seat 2 25 macks" in out
    assert drts("join", match_id, "carol").output.split()[-1]
    state = json.loads(drts("state", match_id).output)["state"]
    assert state["seats"]["2"]["macks"] == 75 and state["priority_list"][-1]["owner"] == 3
    display = drts("display", match_id).output
    assert "Priority List (top first):" in display and "Seat 3: 50 macks" in display
