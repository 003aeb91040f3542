"""What reads of a match's past keep between requests (issue 30): the match at a past
version, the head of the write that gave it, the latest match as read, replay reports,
and a movement's resolution run again phase by phase.

A match's stored log only grows, so the match at a past version, and the head after it
once the next event is stored, never change: they are kept by (match id, version). The
latest match is kept too, and used only while the store holds no event after its version
(one query a read). A replay report is kept by the match's head (version and chain) and
who looked: the same log gives the same report. A resolution's phases are kept by the
version of its MovementResolved (the installed rules ran them, and gave the stored
state hash: service/queries/phases.py); the replay page reads them at each of its positions.

What is kept was loaded and checked like any load (service/store/loading.py), once per process:
the same story as a checked snapshot (docs/integrity.md). A row edited in the store later
is found by the next process that loads it, by `verify_chain` and by the audit, which
never use this. Kept matches are shared by the reads of all threads and never changed:
commands take theirs from service/store/matchcache.py, never from here.

Its size is DRTS_PAST_CACHE_SIZE past versions per process (default 500; 0 keeps
nothing), as many latest matches, four times as many heads, a tenth as many replay
reports and as many traced resolutions; the least recently used goes first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from typing import Any, Generic, TypeVar
from uuid import UUID

from domain.match import Match
from service.results import Head, ReplayReport
from service.settings import DEFAULT_PAST_CACHE_SIZE

SIZE_VARIABLE = "DRTS_PAST_CACHE_SIZE"
DEFAULT_SIZE = DEFAULT_PAST_CACHE_SIZE

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def past_cache_size(env: Mapping[str, str]) -> int:
    """Returns the number of past versions to keep, from DRTS_PAST_CACHE_SIZE (default 500)."""
    text = env.get(SIZE_VARIABLE, "").strip()
    size = int(text) if text else DEFAULT_SIZE
    if size < 0:
        raise ValueError(f"{SIZE_VARIABLE} must be 0 or more, got {size}")
    return size


class Kept(Generic[K, V]):
    """Values by key, the least recently used forgotten past `size` (0: none kept)."""

    def __init__(self, size: int) -> None:
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self.size = size

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        if not self.size:
            return
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def __len__(self) -> int:
        return len(self._values)


class PastReads:
    """The kept past of the matches read by this process (module docstring)."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.versions: Kept[tuple[UUID, int], Match] = Kept(size)
        self.latest: Kept[UUID, Match] = Kept(size)
        self.heads: Kept[tuple[UUID, int], Head] = Kept(size * 4)
        self.replays: Kept[Hashable, ReplayReport] = Kept(size // 10 if size >= 10 else size)
        # where an earlier timeline ends (service/queries/corrections.py): stored, it never changes
        self.timeline_ends: Kept[tuple[UUID, int], int] = Kept(size)
        # a resolution run again phase by phase (service/queries/phases.py), by its MovementResolved
        self.traces: Kept[tuple[UUID, int], Any] = Kept(size // 10 if size >= 10 else size)
