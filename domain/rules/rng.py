"""Rng: the only source of randomness a ruleset may use.

Algorithm (SplitMix64, Steele, Lea and Flood 2014), stated so that an outside
tool can reproduce every draw:

- seed material = UTF-8 bytes of the match seed, then the movement number as
  8 bytes big-endian, then the UTF-8 bytes of the stream label (empty by
  default);
- the 64-bit start value is the first 8 bytes (big-endian) of SHA-256 of that
  material;
- each draw adds 0x9E3779B97F4A7C15 to the value (mod 2**64) and returns
  z = mix(value), where mix is z ^= z >> 30; z *= 0xBF58476D1CE4E5B9;
  z ^= z >> 27; z *= 0x94D049BB133111EB; z ^= z >> 31 (all mod 2**64).

`below(n)` uses rejection sampling so every result is equally likely; all
other helpers are built on it. Only integer arithmetic is used, so the draws
are identical on every Python version and machine. Movement 0 is the draw
for the initial state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    """A deterministic SplitMix64 stream for one match seed, movement and label."""

    def __init__(self, seed: str, movement: int, label: str = "") -> None:
        material = seed.encode() + movement.to_bytes(8, "big") + label.encode()
        self._value = int.from_bytes(hashlib.sha256(material).digest()[:8], "big")
        self.draws = 0

    @classmethod
    def from_u64(cls, value: int) -> Rng:
        """Returns a stream whose 64-bit start value is `value` (for published test vectors)."""
        rng = cls("", 0)
        rng._value = value & _MASK
        return rng

    def next_u64(self) -> int:
        """Returns the next 64-bit unsigned integer of the stream."""
        self._value = (self._value + _GOLDEN) & _MASK
        z = self._value
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        self.draws += 1
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Returns a uniform integer in [0, n); n must be positive."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)  # reject the biased tail
        while True:
            draw = self.next_u64()
            if draw < limit:
                return draw % n

    def between(self, low: int, high: int) -> int:
        """Returns a uniform integer in [low, high], both ends included."""
        return low + self.below(high - low + 1)

    def chance(self, numerator: int, denominator: int) -> bool:
        """Returns True with probability numerator/denominator (exact, no floats)."""
        return self.below(denominator) < numerator

    def choice(self, items: Sequence[T]) -> T:
        """Returns one element of a non-empty sequence, uniformly."""
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Returns a new list with the items in uniform random order (Fisher-Yates)."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """Returns k distinct elements in random order (a prefix of a shuffle)."""
        if not 0 <= k <= len(items):
            raise ValueError(f"sample() of {k} from {len(items)} items")
        return self.shuffled(items)[:k]
