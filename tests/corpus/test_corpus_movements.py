"""The frozen corpus under issue 17: orders stored before they were kept as sent show their
parsed form only (`sent` null) and verify by the old rule (the digest over the parsed order
alone); refusals stored before refusals were sealed keep their public reason; an old match
that plays on mixes both kinds of order in one movement, and still verifies."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from tests.support.corpus import BY_KEY, Corpus


def digest_of(salt: str, order: Any) -> str:
    """A receipt digest recomputed with hashlib: SHA-256 of the salt and the canonical JSON."""
    text = json.dumps(order, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(salt.encode("ascii") + text.encode()).hexdigest()


def test_old_orders_show_no_sent_form_and_verify_by_the_old_rule(corpus: Corpus) -> None:
    match_id = BY_KEY["drts-twenty"]["match_id"]
    fates: set[str] = set()
    for number in range(1, 21):
        record = corpus.app.movement(match_id, number)
        fates |= {order.fate for order in record.orders}
        for order in record.orders:
            assert order.sent is None and order.version is not None
            assert digest_of(order.salt, order.order) == order.digest
    assert fates == {"counted", "replaced"}  # "some orders replaced" (tests/corpus/README.md)
    first = corpus.app.movement(match_id, 1).orders[0]
    check = corpus.app.receipt(match_id, first.digest)
    assert (check.seat, check.movement, check.revealed) == (first.seat, 1, True)
    assert (check.order, check.sent, check.fate) == (first.order, None, first.fate)
    assert corpus.app.movement(match_id, 2).phases is not None  # finished: the seed is public


def test_old_refusals_keep_their_public_reason(corpus: Corpus) -> None:
    """DW-3: a taken cell is refused; a seat that owes no order is refused."""
    match_id = BY_KEY["dw-points"]["match_id"]
    (turn,) = corpus.app.movement(match_id, 4).refused
    (taken,) = corpus.app.movement(match_id, 6).refused
    assert (turn.error, turn.digest, turn.salt) == ("not_your_seat", "", None)
    assert turn.reason.startswith("seat 1 owes no orders in movement 4")
    assert taken.error == "illegal_order" and "(DW-3)" in taken.reason


def test_an_old_match_playing_on_keeps_new_orders_as_sent(own_corpus: Corpus) -> None:
    entry, app = BY_KEY["drts-running"], own_corpus.app
    match = app.get_match(entry["match_id"])
    ordered = {p.seat for p in match.pending}
    seat = min(set(range(1, 9)) - ordered)
    text = "  hold \n"
    receipt = app.submit_order(match.id, entry["tokens"]["seats"][str(seat)], text)
    assert match.deadline is not None
    own_corpus.clock.reach(match.deadline)
    assert app.resolve(match.id, match.movement) is not None
    record = app.movement(match.id, 4)
    old = [o for o in record.orders if o.digest != receipt.digest]
    (new,) = [o for o in record.orders if o.digest == receipt.digest]
    assert len(old) == 5 and all(o.sent is None for o in old)
    assert new.sent == text and new.seat == seat
    covered = {"order": new.order, "sent": new.sent}
    assert digest_of(new.salt, covered) == new.digest  # the new rule: over {order, sent}
    assert app.verify_chain(match.id).ok and app.replay(match.id).agrees
