"""The mapping of forum users to seats: the ForumUserMapped events of a match, folded.

The user name is compared exactly as the forum spells it (case and all): forums that
fold case give one spelling anyway, and folding here could hand a seat to another user.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.match import Match


def forum_users(events: Iterable[Any]) -> dict[str, int]:
    """Returns the current mapping of forum user to seat from a match's domain events."""
    mapping: dict[str, int] = {}
    for event in events:
        if isinstance(event, Match.ForumUserMapped):
            if event.seat is None:
                mapping.pop(event.user, None)
            else:
                mapping[event.user] = event.seat
    return mapping
