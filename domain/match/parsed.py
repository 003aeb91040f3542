"""The parsed forms of a match's stored JSON (its state, its pending orders), kept while the
JSON lives, so that a command decodes the state and parses each pending order once rather
than at every `Match.table()` (issue 30).

A parsed form is remembered by the identity of the JSON object it came from and of the
ruleset that parsed it. That is sound because both sides never change: an event's
`apply` replaces the match's state and appends new PendingOrder values rather than
changing them (domain/match/values.py), and a ruleset's values are frozen (contract).
An entry holds its source object, so its identity cannot be reused while it is kept.
Nothing here is stored, snapshotted or compared: it lives beside the aggregate.

Threads share it without a lock (the domain takes none): each step is one dict operation,
atomic in CPython, and two threads making the same entry at once only make it twice.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

STATES_KEPT = 1_024  # decoded states, per process
ORDERS_KEPT = 16_384  # parsed pending orders, per process


class IdentityMemo:
    """Values made from a source object by a maker (a ruleset), remembered by the two
    objects' identity; the oldest made is forgotten past `size`."""

    def __init__(self, size: int) -> None:
        self._entries: dict[int, tuple[object, object, Any]] = {}
        self._size = size

    def get(self, source: object, maker: object, make: Callable[[], Any]) -> Any:
        """Returns what `make()` returned for this very source and maker, making it once."""
        key = id(source)
        entry = self._entries.get(key)
        if entry is not None and entry[0] is source and entry[1] is maker:
            return entry[2]
        value = make()
        self._entries[key] = (source, maker, value)
        if len(self._entries) > self._size:
            with contextlib.suppress(KeyError, RuntimeError):  # another thread got there
                del self._entries[next(iter(self._entries))]
        return value


STATES = IdentityMemo(STATES_KEPT)
ORDERS = IdentityMemo(ORDERS_KEPT)
