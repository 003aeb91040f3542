"""The matches a process keeps between commands (issue 30): a command takes its match from
here and brings it up to date from the store instead of loading it from its latest
snapshot, and puts it back once its events are saved.

Why it stays correct with several API and worker processes, each with its own cache:

- Fast-forward before every command: the events stored after the kept match's version
  (by any process) are read, checked like any load (consecutive versions, chain links,
  seals: service/store/loading.py `checked_events`) and applied. A command therefore always
  decides on the match as stored, as far as one query can see.
- A write that loses a race still fails on the store's unique (match, version): the
  command's match is then dropped, and the retry loads the match from the store
  (service/store/application.py `retrying`); exactly-once resolution rests on that,
  not on the cache.
- A match is taken out while a command runs on it (two threads of one process never
  share one), and put back only with no unsaved event: after its events were saved, or
  when the command recorded nothing. A command that raises anything else, or loses a
  race, leaves it out.
- Past versions, reads and audits never use it: `get_match` loads from the store.
- Commands on one match take turns in a process (`Turns`, issue 46): a thread whose match
  is out waits for it to come back rather than loading it from the store and racing the
  thread that has it. Without turns, four threads sending one match's orders at once
  made 0.8 full loads and 0.5 lost races an order and tripled its CPU. A turn waits at
  most TURN_WAIT, then the command goes on as it would without one: a stuck or nested
  command never blocks another for long, and races with other processes are the store's
  to settle, as before.

What it does not re-check: the events a kept match was built from were checked when they
were first read, once per process, as a checked snapshot is (docs/integrity.md); a row
edited later in the store is found by the next load from the store (another process, a
restart, or `drts audit`), not by a command of this process.

Its size is DRTS_MATCH_CACHE_SIZE matches (default 1,000; 0 turns it off), least
recently used forgotten first. eventsourcing's own aggregate cache (AGGREGATE_CACHE_MAXSIZE,
AGGREGATE_CACHE_FASTFORWARD) works the same way but fast-forwards without these checks and
deep-copies the aggregate on every get, which costs more than the load it saves.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from uuid import UUID

from domain.match import Match
from service.settings import DEFAULT_MATCH_CACHE_SIZE

SIZE_VARIABLE = "DRTS_MATCH_CACHE_SIZE"
TURN_WAIT = 1.0  # seconds a command waits for its turn before going on without it
DEFAULT_SIZE = DEFAULT_MATCH_CACHE_SIZE


def cache_size(env: Mapping[str, str]) -> int:
    """Returns the number of matches to keep, from DRTS_MATCH_CACHE_SIZE (default 1,000)."""
    text = env.get(SIZE_VARIABLE, "").strip()
    size = int(text) if text else DEFAULT_SIZE
    if size < 0:
        raise ValueError(f"{SIZE_VARIABLE} must be 0 or more, got {size}")
    return size


class MatchCache:
    """Matches kept between commands, by id; one is out while a command runs on it."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self._matches: OrderedDict[UUID, Match] = OrderedDict()
        self._lock = threading.Lock()
        self.size = size

    def take(self, match_id: UUID) -> Match | None:
        """Returns the kept match and forgets it until it is put back (None if not kept)."""
        with self._lock:
            return self._matches.pop(match_id, None)

    def put(self, match: Match) -> None:
        """Keeps a match with no unsaved event (the least recently used goes past the size)."""
        if match.pending_events or not self.size:
            return
        with self._lock:
            self._matches[match.id] = match
            self._matches.move_to_end(match.id)
            while len(self._matches) > self.size:
                self._matches.popitem(last=False)

    def version_of(self, match_id: UUID) -> int | None:
        """Returns the kept match's version (None if not kept), leaving it kept."""
        with self._lock:
            match = self._matches.get(match_id)
            return None if match is None else match.version

    def holds(self, match_id: UUID) -> bool:
        """Returns whether the match is kept now."""
        with self._lock:
            return match_id in self._matches

    def __len__(self) -> int:
        return len(self._matches)


class Turns:
    """One command at a time on a match in this process (module docstring); commands on
    other matches never wait. A thread may take a turn it holds again (a nested command)."""

    def __init__(self, wait: float = TURN_WAIT) -> None:
        self.wait = wait
        self._lock = threading.Lock()
        # by match: its lock, and how many threads hold it or wait for it
        self._turns: dict[UUID, tuple[threading.RLock, list[int]]] = {}

    @contextmanager
    def turn(self, match_id: UUID) -> Iterator[bool]:
        """Waits for the match's turn (at most `wait` seconds) and holds it while the block
        runs; yields whether it got it (the block runs either way)."""
        with self._lock:
            entry = self._turns.get(match_id)
            if entry is None:  # no lock made per command: only for a match no one is on
                entry = self._turns[match_id] = (threading.RLock(), [0])
            lock, users = entry
            users[0] += 1
        got = lock.acquire(timeout=self.wait)
        try:
            yield got
        finally:
            if got:
                lock.release()
            with self._lock:
                users[0] -= 1
                if not users[0]:
                    del self._turns[match_id]

    def __len__(self) -> int:
        """The matches some thread holds or waits for a turn on."""
        return len(self._turns)
