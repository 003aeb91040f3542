"""The standalone verifier of docs/archive.md, taken out of the page and run with
`python3 -I -S` (no site packages: no drts) on archives drts exported: sound, tampered,
cut short below a head someone holds, rewritten under a receipt, an order hidden from
its movement's close; receipts still sealed and revealed; the "sent" digest rule.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from domain.rules.contract import canonical_json
from tests.support.archives import cut, event_at, rechained

DOC = Path(__file__).parents[2] / "docs" / "archive.md"
OK, FAILED = 0, 1


def verifier_source() -> str:
    """Returns the verifier's code, the page's block that begins with its docstring."""
    text = DOC.read_text(encoding="utf-8")
    return re.search(r"```python\n(\"\"\"verify\.py.*?)```", text, re.S).group(1)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding verify.py as the page prints it, and nothing else of drts."""
    directory = tmp_path_factory.mktemp("auditor")
    (directory / "verify.py").write_text(verifier_source(), encoding="utf-8")
    return directory


def verify(workdir: Path, *args: str, **files: Any) -> tuple[int, str]:
    """Writes each file (name=JSON) into the directory, runs the verifier in a clean
    interpreter there, and returns its exit status and output."""
    for name, value in files.items():
        (workdir / f"{name}.json").write_text(json.dumps(value), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", "-S", "verify.py", *args],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stderr == "" or done.returncode == 2, done.stderr
    return done.returncode, done.stdout + done.stderr


def receipt(archive: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    """Returns the receipt (FORMATS 2) a seat got for the order stored by `event`."""
    data = event["data"]
    return {
        "match_id": archive["match_id"],
        "seat": data["seat"],
        "movement": data["movement"],
        "digest": data["digest"],
        "received_at": data["received_at"],
        "closing": None,
        "version": event["version"],
        "head": {"version": event["version"], "chain": event["chain"]},
    }


def head(event: dict[str, Any]) -> str:
    return f"{event['version']}:{event['chain']}"


@pytest.fixture
def archive(dw_archive_text: str) -> dict[str, Any]:
    return json.loads(dw_archive_text)


def test_a_sound_archive_with_its_receipts_and_heads_passes(workdir, archive):
    early, late = event_at(archive, "OrderSubmitted", 0), event_at(archive, "OrderSubmitted", 9)
    status, out = verify(
        workdir,
        "archive.json",
        "--receipt=r1.json",
        "--receipt=r2.json",
        f"--head={head(late)}",
        f"--head={head(archive['events'][-1])}",
        archive=archive,
        r1=receipt(archive, early),
        r2=receipt(archive, late),
    )
    assert status == OK, out
    last = archive["events"][-1]
    assert f"ok      log: {len(archive['events'])} events of match {archive['match_id']}" in out
    assert f"head {last['version']}:{last['chain']}" in out
    assert (
        f"ok      receipt r1.json: seat {early['data']['seat']}'s order for movement "
        f"{early['data']['movement']} (event {early['version']}) is on the log, revealed and "
        "matching"
    ) in out
    assert out.count("ok      head ") == 2 and out.endswith("every check passed\n")


def test_a_plain_event_list_is_checked_given_its_match_id(workdir, archive):
    status, out = verify(workdir, archive["match_id"], "events.json", events=archive["events"])
    assert status == OK, out
    status, out = verify(workdir, "events.json", events=archive["events"])
    assert status == 2 and "a plain event list needs the match id first" in out


def test_an_open_movements_receipt_is_on_the_log_still_sealed(workdir, open_drts_archive_text):
    full = json.loads(open_drts_archive_text)
    assert full["form"] == "full"
    order = event_at(full, "OrderSubmitted", 1)
    status, out = verify(
        workdir, "full.json", "--receipt=mine.json", full=full, mine=receipt(full, order)
    )
    assert status == OK, out
    assert f"(event {order['version']}) is on the log, revealed and matching" in out  # full form
    public = copy.deepcopy(full)
    for event in public["events"]:
        event.pop("sealed", None)  # as the event log shows it to anyone while it is open
    status, out = verify(
        workdir,
        full["match_id"],
        "public.json",
        "--receipt=mine.json",
        public=public["events"],
    )
    assert status == OK, out
    assert f"(event {order['version']}) is on the log, still sealed" in out


def test_a_tampered_archive_fails_naming_the_event(workdir, archive):
    step = event_at(archive, "StepApplied", 3)
    step["data"]["text"] = "seat 2 wins"
    status, out = verify(workdir, "archive.json", archive=archive)
    assert status == FAILED
    assert f"FAILED  log: event {step['version']} (StepApplied): chain mismatch" in out
    assert out.endswith("1 check(s) failed\n")


def test_an_order_changed_under_its_seal_fails_naming_the_event(workdir, archive):
    order = event_at(archive, "OrderSubmitted", 4)
    order["sealed"]["salt"] = "0" * 32
    status, out = verify(workdir, "archive.json", archive=archive)
    assert status == FAILED
    assert (
        f"log: event {order['version']} (OrderSubmitted): the sealed order does not match "
        "its receipt digest"
    ) in out


def test_a_log_cut_short_below_a_head_and_a_receipt_is_named_as_truncated(workdir, archive):
    order = event_at(archive, "OrderSubmitted", 12)
    last, at = archive["events"][-1], order["version"] - 1
    short = cut(archive, at)  # its own head moved: it verifies by itself
    status, out = verify(
        workdir,
        "short.json",
        f"--head={head(last)}",
        "--receipt=mine.json",
        short=short,
        mine=receipt(archive, order),
    )
    assert status == FAILED
    assert "ok      log:" in out
    assert (
        f"the log ends at version {at}, before the head at version {last['version']} that you hold"
    ) in out
    assert (
        f"receipt mine.json: the log ends at version {at}, before the receipt at version "
        f"{order['version']} that you hold"
    ) in out


def test_a_log_rewritten_under_a_receipt_and_a_head_is_named_as_rewritten(workdir, archive):
    step = event_at(archive, "StepApplied", 2)
    order = next(
        e
        for e in archive["events"]
        if e["type"] == "OrderSubmitted" and e["version"] > step["version"]
    )
    step["data"]["text"] = "a quieter history"
    forged = rechained(archive)  # every link computed again: it verifies by itself
    later = archive["events"][-5]
    status, out = verify(
        workdir,
        "forged.json",
        f"--head={head(later)}",
        "--receipt=mine.json",
        forged=forged,
        mine=receipt(archive, order),
    )
    assert status == FAILED
    assert "ok      log:" in out
    assert f"at version {later['version']} the log's chain differs from the head's" in out
    assert (
        f"receipt mine.json: at version {order['version']} the log's chain differs from the "
        "receipt's"
    ) in out


def test_an_order_left_out_of_its_movements_close_fails_its_receipt(workdir, archive):
    order = event_at(archive, "OrderSubmitted", 6)
    movement = order["data"]["movement"]
    closed = next(
        e
        for e in archive["events"]
        if e["type"] == "MovementClosed" and e["data"]["movement"] == movement
    )
    closed["data"]["orders"] = [
        o for o in closed["data"]["orders"] if o["digest"] != order["data"]["digest"]
    ]
    forged = rechained(archive)
    mine = receipt(forged, event_at(forged, "OrderSubmitted", 6))
    status, out = verify(workdir, "forged.json", "--receipt=mine.json", forged=forged, mine=mine)
    assert status == FAILED
    assert f"movement {movement} closed (event {closed['version']}) without it" in out


def digest_of(salt: str, covered: Any) -> str:
    return hashlib.sha256(salt.encode("ascii") + canonical_json(covered)).hexdigest()


def test_an_order_kept_as_sent_is_bound_with_it_and_an_older_one_without(workdir, archive):
    """FORMATS 3: with "sent", the digest covers {"order", "sent"}; without, the order."""
    order = event_at(archive, "OrderSubmitted", 3)
    sealed = order["sealed"]
    sealed["sent"] = " c6 "  # the text exactly as the seat sent it
    digest = digest_of(sealed["salt"], {"order": sealed["order"], "sent": sealed["sent"]})
    entry = next(
        o
        for e in archive["events"]
        if e["type"] == "MovementClosed"
        for o in e["data"]["orders"]
        if o["digest"] == order["data"]["digest"]
    )
    order["data"]["digest"] = entry["digest"] = digest
    entry["sent"] = sealed["sent"]
    forged = rechained(archive)
    mine = receipt(forged, event_at(forged, "OrderSubmitted", 3))
    status, out = verify(workdir, "sent.json", "--receipt=mine.json", sent=forged, mine=mine)
    assert status == OK, out
    assert "revealed and matching" in out
    event_at(forged, "OrderSubmitted", 3)["sealed"]["sent"] = "c7"
    status, out = verify(workdir, "sent.json", sent=forged)
    assert status == FAILED
    assert f"event {order['version']} (OrderSubmitted): the sealed order does not match" in out


def test_an_archive_whose_head_is_not_its_last_event_fails(workdir, archive):
    archive["head"] = {"version": 3, "chain": archive["events"][2]["chain"]}
    status, out = verify(workdir, "archive.json", archive=archive)
    assert status == FAILED
    assert f"archive: its head is at version 3; the events end at {len(archive['events'])}" in out


@pytest.mark.parametrize("bad", ["61", "x:abc", "0:" + "0" * 64])
def test_a_head_that_is_not_version_colon_chain_cannot_be_read(workdir, archive, bad):
    status, out = verify(workdir, "archive.json", f"--head={bad}", archive=archive)
    assert status == 2 and "a head is VERSION:CHAIN" in out


def test_the_verifier_uses_the_standard_library_only():
    imported = set(re.findall(r"^import (\w+)|^from (\w+)", verifier_source(), re.M))
    modules = {name for pair in imported for name in pair if name}
    assert modules <= set(sys.stdlib_module_names), modules
