"""What a process keeps of its tournaments between requests (issue 45: the pages and the
workers read a tournament many times): each tournament as of the last version it read,
and the log's index of which tournament each match is linked to.

A tournament is brought up to date from the events after the cached version (one
select, nothing decoded when nothing is new), and each reader gets its own copy, so a
command's pending events never leak into the cache. A link, once recorded, never
changes: the index only reads the `MatchLinked` notifications after the last one it
saw (the store gives notification ids in commit order, eventsourcing's table lock on
PostgreSQL). The audit never reads through this cache: it re-reads the stored events.
"""

from __future__ import annotations

import copy
import threading
from typing import Any
from uuid import UUID
from weakref import WeakKeyDictionary

from domain.tournament import Tournament


class TournamentCache:
    """One store's tournaments as last read, and its index of links (thread-safe)."""

    def __init__(self, linked_topic: str) -> None:
        self._topic = linked_topic
        self._lock = threading.Lock()
        self._tournaments: dict[UUID, Tournament] = {}
        self._links: dict[str, UUID] = {}
        self._next_note = 1

    def get(self, store: Any, ident: UUID) -> Tournament | None:
        """Returns a copy of the aggregate `ident` up to date with the store, or None when
        no event has that id (whatever aggregate it is: the caller checks)."""
        with self._lock:
            cached = self._tournaments.get(ident)
        after = None if cached is None else cached.version
        events = list(store.events.get(ident, gt=after))
        if not events:
            return None if cached is None else copy.deepcopy(cached)
        found = replayed(copy.deepcopy(cached), events)
        if not isinstance(found, Tournament):
            return None  # another aggregate's id
        with self._lock:
            known = self._tournaments.get(ident)
            if known is None or known.version < found.version:
                self._tournaments[ident] = copy.deepcopy(found)
        return found

    def tournament_of(self, store: Any, match_id: str) -> UUID | None:
        """Returns the tournament the match is linked to, or None."""
        with self._lock:
            while notes := store.recorder.select_notifications(
                start=self._next_note, limit=500, topics=[self._topic]
            ):
                for note in notes:
                    linked: Any = store.mapper.to_domain_event(note)
                    self._links[str(linked.match_id)] = UUID(str(note.originator_id))
                self._next_note = notes[-1].id + 1
            return self._links.get(match_id)


def replayed(aggregate: Any, events: Any) -> Any:
    """Returns `aggregate` (None: from nothing) with `events` applied in order."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


_CACHES: WeakKeyDictionary[Any, TournamentCache] = WeakKeyDictionary()
_CACHES_LOCK = threading.Lock()


def cache_of(store: Any, linked_topic: str) -> TournamentCache:
    """Returns the store's cache (one a store for the process's life)."""
    with _CACHES_LOCK:
        found = _CACHES.get(store)
        if found is None:
            found = _CACHES[store] = TournamentCache(linked_topic)
        return found
