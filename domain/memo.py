"""Values derived from an object that never changes, remembered by that object's identity
(issue 30: the parsed forms of a match's stored JSON, domain/match/parsed.py; issue 46: a
state's outcome and the seats it has to move, domain/table.py).

A value is remembered by the identity of its source object and of the maker (a ruleset)
that made it. That is sound only where both never change: a match's stored JSON is
replaced, never changed, by an event's `apply`, and a ruleset's values are frozen
(contract). An entry holds its source object, so its identity cannot be reused while the
entry is kept. Nothing here is stored, snapshotted or compared.

Threads share a memo without a lock (the domain takes none): each step is one dict
operation, atomic in CPython, and two threads making the same entry at once only make it
twice.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

STATES_KEPT = 1_024  # states a memo keeps, per process: decoded (parsed.py), derived (table.py)


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
        self.keep(source, maker, value)
        return value

    def keep(self, source: object, maker: object, value: Any) -> None:
        """Remembers `value` as what the maker makes of this very source (the caller
        holds it already, made another way and equal)."""
        self._entries[id(source)] = (source, maker, value)
        if len(self._entries) > self._size:
            with contextlib.suppress(KeyError, RuntimeError):  # another thread got there
                del self._entries[next(iter(self._entries))]
