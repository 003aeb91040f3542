"""`drts match movement` and `drts match receipt` (issue 17) on a real SQLite store: a
District War match played from the command line, and a DRTS Team 23 movement with an
order sent as text (whitespace kept), one as JSON, a replaced one and a refused one."""

from __future__ import annotations

import hashlib
import json
import re

from tests.support.cli import created


def digest_in(output: str) -> str:
    return re.search(r"receipt digest ([0-9a-f]{64})", output).group(1)


def test_a_district_war_movement_and_a_receipt_from_the_cli(drts):
    """DW-2: the DMO's choice; DW-3: a placement."""
    match_id, referee, alice, bob = created(drts)
    drts("start", match_id, "--referee-token", referee)
    first = digest_in(drts("order", match_id, "first 1", "--token", bob).output)
    out = drts("movement", match_id, "1").output
    assert 'seat 2: "first 1" -> counted' in out and first in out
    assert "[DW-2]" in out and "phases not shown: the phases are run again" in out
    record = json.loads(drts("movement", match_id, "1", "--json").output)
    assert record["orders"][0]["sent"] == "first 1" and record["steps"][0]["rule"] == "DW-2"
    out = drts("receipt", match_id, "--digest", first).output
    assert f"{first} is the receipt of an order of seat 2 for movement 1" in out
    assert 'sent: "first 1"' in out and "-> counted" in out
    check = json.loads(drts("receipt", match_id, "--digest", first, "--json").output)
    covered = json.dumps(
        {"order": check["order"], "sent": check["sent"]},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    assert hashlib.sha256((check["salt"] + covered).encode()).hexdigest() == first
    placed = digest_in(drts("order", match_id, "e4", "--token", alice).output)
    assert 'seat 1: "e4" -> counted' in drts("movement", match_id, "2").output
    assert 'sent: "e4"' in drts("receipt", match_id, "--digest", placed).output
    out = drts("movement", match_id, "3", ok=False).output  # open: bob to place
    assert "movement_not_resolved" in out
    assert "unknown_receipt" in drts("receipt", match_id, "--digest", "f" * 64, ok=False).output
    assert "invalid_digest" in drts("receipt", match_id, "--digest", "nope", ok=False).output


def test_a_drts_movement_shows_text_json_replaced_and_refused_orders(drts):
    out = drts(
        "create",
        "drts_team23",
        "--config",
        '{"close_early": true}',
        "--seed",
        "cli",
        "--ruleset-version",
        "1",
    )
    match_id = re.search(r"^match (\S+)", out.output, re.M).group(1)
    referee = re.search(r"^referee token (\S+)", out.output, re.M).group(1)
    tokens = [drts("join", match_id, f"p{n}").output.split()[-1] for n in range(1, 9)]
    drts("start", match_id, "--referee-token", referee)
    drts("order", match_id, "fire 2>8 ;  team green", "--token", tokens[0])
    drts("order", match_id, '{"operations": [], "team": "yellow"}', "--token", tokens[1])
    drts("order", match_id, "water hold", "--token", tokens[1], "--source", "email")
    refused = drts("order", match_id, "fire 99", "--token", tokens[2], ok=False).output
    assert "invalid_order" in refused
    for token in tokens[2:]:
        drts("order", match_id, "hold", "--token", token)
    out = drts("movement", match_id, "1", "--token", referee).output
    assert 'seat 1: "fire 2>8 ;  team green" -> counted' in out
    assert 'seat 2: {"operations":[],"team":"yellow"} -> replaced by' in out
    assert 'seat 2: "water hold" -> counted (event' in out and "email" in out
    assert 'seat 3: "fire 99" refused, invalid_order: square 99 is not on the board' in out
    assert "phases: " in out and "step 1: team allocation (DRTS-19)" in out
    events = json.loads(drts("events", match_id, "--json").output)
    looks = [e["data"]["what"] for e in events if e["type"] == "SecretViewed"]
    assert looks == ["seed (phases of movement 1)"]
    pending = digest_in(drts("order", match_id, "water hold", "--token", tokens[0]).output)
    out = drts("receipt", match_id, "--digest", pending).output
    assert "of seat 1 for movement 2" in out and "not revealed yet" in out
    assert "water hold" not in out
    rejected = next(e for e in events if e["type"] == "OrderRejected")
    out = drts("receipt", match_id, "--digest", rejected["data"]["digest"]).output
    assert "the receipt of a refused order of seat 3 for movement 1" in out
    assert "refused, invalid_order: square 99 is not on the board" in out
