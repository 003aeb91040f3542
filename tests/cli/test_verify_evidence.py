"""`drts match verify --receipt FILE --head VERSION:CHAIN` (issue 16): each is checked
against the stored log and a miss is named for what it is."""

from __future__ import annotations

import json
import os

from service.matches import Matches
from service.settings import Settings
from tests.support.cli import created
from tests.support.mutations import Rows


def test_verify_names_a_truncated_log_by_the_receipt_and_head_given(drts, tmp_path):
    match_id, referee, alice, bob = created(drts)
    drts("start", match_id, "--referee-token", referee)
    url = os.environ["DRTS_DATABASE_URL"]
    service = Matches(env=Settings(url).event_store_env())
    try:
        receipts = [
            service.submit_order(match_id, token, order)
            for token, order in ((bob, "first 1"), (alice, "e4"), (bob, "b4"))
        ]
    finally:
        service.close()
    path = tmp_path / "bob-b4.json"
    path.write_text(json.dumps(receipts[-1].to_json()))
    head = receipts[-1].head
    assert head is not None
    held = f"{head.version}:{head.chain}"
    ok = drts("verify", match_id, "--receipt", str(path), "--head", held).output
    assert "1 receipt(s) and head(s)" not in ok and "2 receipt(s) and head(s) on the log" in ok
    rows = Rows(url, receipts[-1].match_id)
    rows.delete(*[v for v in rows.versions() if v >= head.version - 1])
    rows.close()
    failed = drts("verify", match_id, "--receipt", str(path), "--head", held, ok=False).output
    assert (
        f"truncated: the log ends at version {head.version - 2}, before the head at version "
        f"{head.version} that you hold (receipt {path})"
    ) in failed
    assert f"that you hold (head {held})" in failed
    bad = drts("verify", match_id, "--head", "12:nothex", ok=False).output
    assert "64 lower-case hex digits" in bad


def test_a_receipt_saved_by_drts_match_order_is_checked_by_verify(drts, tmp_path):
    """`drts match order --receipt-file` keeps what POST /orders answers: version and head."""
    match_id, referee, _alice, bob = created(drts)
    drts("start", match_id, "--referee-token", referee)
    path = tmp_path / "bob.json"
    said = drts("order", match_id, "first 1", "--token", bob, "--receipt-file", str(path)).output
    receipt = json.loads(path.read_text())
    head = receipt["head"]
    assert f"log head {head['version']}:{head['chain']}" in said
    assert receipt["version"] <= head["version"] and receipt["seat"] == 2
    ok = drts("verify", match_id, "--receipt", str(path)).output
    assert "1 receipt(s) and head(s) on the log" in ok
