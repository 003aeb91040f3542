"""The parsed forms of a match's stored JSON (its state, its pending orders), kept while the
JSON lives, so that a command decodes the state and parses each pending order once rather
than at every `Match.table()` (issue 30).

A parsed form is remembered by the identity of the JSON object it came from and of the
ruleset that parsed it (domain/memo.py says why that is sound): an event's `apply`
replaces the match's state and appends new PendingOrder values rather than changing them
(domain/match/values.py).
"""

from __future__ import annotations

from domain.memo import STATES_KEPT, IdentityMemo

ORDERS_KEPT = 16_384  # parsed pending orders, per process

STATES = IdentityMemo(STATES_KEPT)
ORDERS = IdentityMemo(ORDERS_KEPT)
