"""Shared capacity of one API process: rate limits and the cap on concurrent long polls.

Everything here is per process (one gunicorn worker): N workers allow N times
the figures, and a restart forgets them. docs/api.md ("Rate limits and long
polls") and docs/operations.md (the settings) say the same to users.

- Rate limits are token buckets, one per client address and one per bearer
  token: a bucket holds up to a minute's worth of requests (the burst) and
  refills at that rate per minute. A request takes one from its address's
  bucket and, if it carries a token, one from the token's; an empty bucket
  answers 429 `rate_limited` with Retry-After (whole seconds until the next
  request is allowed). The buckets of the longest-idle keys are forgotten
  beyond MAX_KEYS, so that random tokens cannot fill the memory.
- A long poll (`GET /matches/{id}/events?wait=`) holds a request thread while
  it waits; at most `max_long_polls` wait at once, and one more answers 429
  `too_many_long_polls` with Retry-After at once rather than taking a thread
  that other requests need.
- A public stream (`GET /matches/{id}/stream`) holds a connection for as long as its
  viewer watches: at most `max_streams` at once in a process (one more answers 503
  `too_many_streams`: the process is full, another may not be) and `per_address` to one
  client address (one more answers 429 `too_many_streams_from_address`), each with
  Retry-After.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

MAX_KEYS = 10_000  # buckets kept per kind of key (address, token)
LONG_POLL_RETRY_SECONDS = 5
STREAM_RETRY_SECONDS = 10  # a full process: viewers come back spread over their jitter


class RateLimitedError(Exception):
    """Raised when a client address or a token has used up its requests for now."""

    code = "rate_limited"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TooManyLongPollsError(RateLimitedError):
    """Raised when a process already holds its most long polls at once."""

    code = "too_many_long_polls"


class TooManyStreamsError(RateLimitedError):
    """Raised when a process already serves its most public streams at once (503)."""

    code = "too_many_streams"


class TooManyStreamsFromAddressError(RateLimitedError):
    """Raised when one client address already holds its most public streams (429)."""

    code = "too_many_streams_from_address"


@dataclass
class Bucket:
    """A token bucket: `tokens` left at `stamp` (monotonic seconds)."""

    tokens: float
    stamp: float


class RateLimiter:
    """Token buckets by key: `per_minute` requests a minute, as a burst of as many.

    `per_minute` 0 turns the limit off. Thread-safe.
    """

    def __init__(
        self,
        per_minute: int,
        what: str,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = MAX_KEYS,
    ) -> None:
        self.per_minute, self.what, self.clock, self.max_keys = per_minute, what, clock, max_keys
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: str) -> None:
        """Takes one request from the key's bucket; raises RateLimitedError when empty."""
        if self.per_minute <= 0:
            return
        rate = self.per_minute / 60  # requests a second
        with self._lock:
            now = self.clock()
            bucket = self._buckets.pop(key, None) or Bucket(float(self.per_minute), now)
            bucket.tokens = min(self.per_minute, bucket.tokens + (now - bucket.stamp) * rate)
            bucket.stamp = now
            self._buckets[key] = bucket  # most recently used last
            if len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
            if bucket.tokens < 1:
                wait = math.ceil((1 - bucket.tokens) / rate)
                raise RateLimitedError(
                    f"too many requests from this {self.what}: at most {self.per_minute} a "
                    f"minute; retry in {wait} s",
                    wait,
                )
            bucket.tokens -= 1


class LongPollGate:
    """Lets at most `limit` long polls wait at once (0: none may wait). Thread-safe."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.waiting = 0
        self._lock = threading.Lock()

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Holds one of the slots while the block runs; raises TooManyLongPollsError when
        every slot is taken."""
        with self._lock:
            if self.waiting >= self.limit:
                raise TooManyLongPollsError(
                    f"this server process already holds its {self.limit} long poll(s): retry "
                    f"in {LONG_POLL_RETRY_SECONDS} s, or read the events without `wait`",
                    LONG_POLL_RETRY_SECONDS,
                )
            self.waiting += 1
        try:
            yield
        finally:
            with self._lock:
                self.waiting -= 1


class StreamGate:
    """Lets at most `limit` streams be open at once, and `per_address` to one address (0:
    no limit an address). Thread-safe."""

    def __init__(self, limit: int, per_address: int) -> None:
        self.limit, self.per_address = limit, per_address
        self.open = 0
        self._by_address: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, address: str) -> Callable[[], None]:
        """Takes one stream for the address and returns what gives it back (calling it
        again does nothing); raises TooManyStreamsError or TooManyStreamsFromAddressError."""
        with self._lock:
            if self.open >= self.limit:
                raise TooManyStreamsError(
                    f"this server process already serves its {self.limit} live stream(s): "
                    f"retry in {STREAM_RETRY_SECONDS} s, or read the events feed",
                    STREAM_RETRY_SECONDS,
                )
            held = self._by_address.get(address, 0)
            if self.per_address and held >= self.per_address:
                raise TooManyStreamsFromAddressError(
                    f"this client address already holds {held} live stream(s), the most "
                    f"one address may: close one, or retry in {STREAM_RETRY_SECONDS} s",
                    STREAM_RETRY_SECONDS,
                )
            self.open += 1
            self._by_address[address] = held + 1
        given_back = threading.Event()

        def give_back() -> None:
            with self._lock:
                if given_back.is_set():
                    return
                given_back.set()
                self.open -= 1
                left = self._by_address.pop(address, 1) - 1
                if left > 0:
                    self._by_address[address] = left

        return give_back


@dataclass
class Capacity:
    """The limits of one API process: per address, per token, the long-poll gate and the
    stream gate."""

    per_address: RateLimiter
    per_token: RateLimiter
    long_polls: LongPollGate
    streams: StreamGate = field(default_factory=lambda: StreamGate(1000, 0))

    @classmethod
    def of(
        cls,
        per_address: int,
        per_token: int,
        long_polls: int,
        streams: int = 1000,
        streams_per_address: int = 0,
    ) -> Capacity:
        """Returns the limits with these figures (requests a minute; long polls and
        streams at once)."""
        return cls(
            RateLimiter(per_address, "client address"),
            RateLimiter(per_token, "token"),
            LongPollGate(long_polls),
            StreamGate(streams, streams_per_address),
        )

    def admit(self, address: str | None, token: str | None) -> None:
        """Counts one request against its address and token; raises RateLimitedError."""
        self.per_address.take(address or "unknown")
        if token:
            self.per_token.take(hashlib.sha256(token.encode("utf-8", "replace")).hexdigest())
