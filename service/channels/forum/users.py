"""The mapping of forum users to seats: the ForumUserMapped events of a match, folded.

The user name is compared exactly as the forum spells it (case and all): forums that
fold case give one spelling anyway, and folding here could hand a seat to another user.
A mapping may also name the user's identity, which the forum guarantees where a display
name is not (its user id, or the sender address of an mbox: `forum_identity`); a post
is then the seat's only when it carries that identity (service/channels/forum/desk.py). A
mapping without one (every mapping stored before identities, issue 42) maps by name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from domain.match import Match
from service.limits import LimitError, check_text

MAX_IDENTITY_CHARS = 320  # an address: 64 for its local part, 255 for its domain, the @
IDENTITY_RULE = f"text of 1 to {MAX_IDENTITY_CHARS} printable characters"


@dataclass(frozen=True)
class ForumUser:
    """A forum user's mapping: the seat, and the identity its posts must carry (None: by
    name alone)."""

    seat: int
    identity: str | None


def forum_identity(text: str | None) -> str | None:
    """Returns an identity as it is compared: stripped, an address (with an "@") in lower
    case (relays and forums fold its case); None for none or an empty one. Raises
    LimitError for one too long or holding a character that is not printable."""
    if text is None or not text.strip():
        return None
    identity = check_text(text.strip(), "identity", MAX_IDENTITY_CHARS)
    if not identity.isprintable():
        raise LimitError("identity", IDENTITY_RULE, "it holds a character that is not printable")
    return identity.lower() if "@" in identity else identity


def forum_mapping(events: Iterable[Any]) -> dict[str, ForumUser]:
    """Returns the current mapping of forum user to seat and identity from a match's
    domain events."""
    mapping: dict[str, ForumUser] = {}
    for event in events:
        if isinstance(event, Match.ForumUserMapped):
            if event.seat is None:
                mapping.pop(event.user, None)
            else:
                mapping[event.user] = ForumUser(event.seat, event.identity)
    return mapping
