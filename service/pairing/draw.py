"""Draws from a tournament's seed: no clock, no global randomness (issue 45). As the
rules derive their chance from the match seed (domain/rules/rng.py), a pairing derives
its own from the tournament's seed with SHA-256, so anyone holding the revealed seed
draws the same."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable


def draw_key(seed: str, purpose: str, player: str) -> str:
    """Returns a player's draw for `purpose`: SHA-256 (hex) of the UTF-8 bytes of the seed,
    the purpose and the player id, each followed by a NUL byte."""
    digest = hashlib.sha256()
    for part in (seed, purpose, player):
        digest.update(part.encode() + b"\x00")
    return digest.hexdigest()


def drawn_order(seed: str, purpose: str, players: Iterable[str]) -> list[str]:
    """Returns the players in the order of their draws for `purpose` (lowest first)."""
    return sorted(players, key=lambda player: (draw_key(seed, purpose, player), player))
