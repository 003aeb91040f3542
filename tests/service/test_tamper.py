"""Tampering: altering one stored event in the database makes chain verification name it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.tamper import edit_json, played, tamper, version_of

pytestmark = pytest.mark.usefixtures("toy_rulesets")


def test_an_altered_step_breaks_the_chain_at_that_event(matches, database_url):
    match_id = played(matches)
    version = version_of(matches, match_id, "StepApplied", 1)

    def rewrite(state: dict[str, Any]) -> None:
        state["text"] = "seat 2 picks 3"

    tamper(database_url, match_id, version, edit_json(rewrite))
    report = matches.verify_chain(match_id)
    assert report.broken is not None
    assert (report.broken.version, report.broken.type) == (version, "StepApplied")
    assert "chain mismatch" in report.broken.reason


def test_an_altered_sealed_order_breaks_its_receipt_digest(matches, database_url):
    match_id = played(matches)
    version = version_of(matches, match_id, "OrderSubmitted", 2)

    def rewrite(state: dict[str, Any]) -> None:
        state["sealed"]["order"] = {"pick": 2}

    tamper(database_url, match_id, version, edit_json(rewrite))
    report = matches.verify_chain(match_id)
    assert report.broken is not None
    assert (report.broken.version, report.broken.type) == (version, "OrderSubmitted")
    assert "receipt digest" in report.broken.reason


def test_an_unreadable_row_is_named(matches, database_url):
    match_id = played(matches)
    version = version_of(matches, match_id, "MovementResolved")
    tamper(database_url, match_id, version, lambda state: b"garbage" + state)
    report = matches.verify_chain(match_id)
    assert report.broken is not None
    assert (report.broken.version, report.broken.type) == (version, "MovementResolved")
    assert "cannot be read" in report.broken.reason
