"""Orders as sent (issue 17): domain/integrity.py is the one place that knows what a receipt
digest covers. A new order's digest covers `{"order", "sent"}`, so a changed character of
what was sent (whitespace too) breaks it; an old order (no "sent") keeps the old rule, in
its OrderSubmitted and in MovementClosed's entries alike."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from domain.integrity import (
    content_problem,
    order_seal,
    receipt_digest,
    revealed_order,
    sealed_order,
)
from domain.match.values import PendingOrder

PARSED = {"operations": [], "team": "green"}
SENT = " team green\n"


def submitted(digest: str, sealed: dict[str, Any]) -> dict[str, Any]:
    return {"type": "OrderSubmitted", "data": {"digest": digest}, "sealed": sealed}


def closed(entry: dict[str, Any]) -> dict[str, Any]:
    return {"type": "MovementClosed", "data": {"orders": [entry]}}


def test_a_new_order_is_sealed_with_what_was_sent_and_bound_by_its_digest():
    digest, sealed = order_seal(PARSED, SENT, "ab12")
    assert sealed == {"order": PARSED, "sent": SENT, "salt": "ab12"}
    assert digest == receipt_digest("ab12", {"order": PARSED, "sent": SENT})
    assert content_problem(submitted(digest, sealed)) is None
    trimmed = {**sealed, "sent": SENT.strip()}
    assert content_problem(submitted(digest, trimmed)) == (
        "the sealed order and salt do not match the receipt digest"
    )


def test_an_old_order_without_sent_keeps_the_digest_over_the_parsed_order():
    digest = receipt_digest("ab12", PARSED)
    old = {"order": PARSED, "salt": "ab12"}
    assert sealed_order(old) == revealed_order(old) == PARSED
    assert content_problem(submitted(digest, old)) is None
    entry = {"seat": 1, "order": PARSED, "salt": "ab12", "digest": digest, "used": True}
    assert content_problem(closed(entry)) is None


def test_movement_closed_entries_are_checked_by_the_same_rule():
    digest, _ = order_seal(PARSED, SENT, "cd34")
    entry = {"seat": 2, "order": PARSED, "sent": SENT, "salt": "cd34", "digest": digest}
    assert content_problem(closed(entry)) is None
    assert content_problem(closed({**entry, "sent": "team green"})) == (
        "the revealed order of seat 2 does not match its digest"
    )
    without = {k: v for k, v in entry.items() if k != "sent"}  # "sent" dropped: old rule
    assert content_problem(closed(without)) is not None


def test_a_refusal_keeps_its_rule_over_the_order_as_sent_and_the_reason():
    sealed = {"order": SENT, "reason": "why", "salt": "ef"}
    assert sealed_order(sealed) == {"order": SENT, "reason": "why"}


def test_a_pending_order_from_a_snapshot_taken_before_issue_17_has_no_sent_form():
    fields = {"seat": 1, "order": PARSED, "salt": "ab", "digest": "d", "source": "api"}
    at = datetime(2030, 1, 1, tzinfo=UTC)
    old = PendingOrder(**fields, received_at=at, message_id=None, version=7)
    assert old.sent is None
