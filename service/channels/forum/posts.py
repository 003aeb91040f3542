"""A forum post as drts takes it, and the received time it is given.

A post's received time is its time as the forum integration reports it, bounded by when
drts received it: never later than the receipt, and never more than the configured
delay (DRTS_FORUM_MAX_DELAY_SECONDS) earlier, so that an integration cannot date an
order back past a deadline by more than that. A post without a time is taken at its
receipt.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from service.channels.forum.users import MAX_IDENTITY_CHARS
from service.limits import check_text

# a post's fields, each at most 6 bytes a character as JSON escapes, stay under the API's
# 64 KiB body limit together (docs/api.md, Limits)
MAX_POST_ID_CHARS = 200
MAX_AUTHOR_CHARS = 200
MAX_BODY_CHARS = 8000


@dataclass(frozen=True)
class Post:
    """A forum post: who posted it (the forum's user name), the forum's id of it, its
    time as the forum reports it (None: unknown), its text, the movement it names
    (None: the open one), and its author's identity as the forum guarantees it (its user
    id, or an mbox sender's address; None: the forum gave none)."""

    author: str
    post_id: str
    posted_at: datetime | None
    body: str
    movement: int | None = None
    identity: str | None = None


def check_post(post: Post) -> Post:
    """Returns the post if every field of it can be stored and shown (service/limits.py:
    Unicode, no control character, but tab and line breaks in its body); raises
    LimitError naming the first field that cannot."""
    check_text(post.author, "author", MAX_AUTHOR_CHARS)
    check_text(post.post_id, "post_id", MAX_POST_ID_CHARS)
    check_text(post.body, "body", MAX_BODY_CHARS, lines=True, min_chars=0)
    if post.identity is not None:
        check_text(post.identity, "identity", MAX_IDENTITY_CHARS)
    return post


def received_time(posted_at: datetime | None, receipt: datetime, max_delay: timedelta) -> datetime:
    """Returns the received time of a post: its reported time, bounded to the interval
    [receipt - max_delay, receipt] (the receipt itself for a post without a time)."""
    if posted_at is None:
        return receipt
    return max(min(posted_at, receipt), receipt - max_delay)


def post_key(match_id: UUID, post_id: str) -> str:
    """Returns the key of a post in a match: the SHA-256 of the match id and the post id."""
    return hashlib.sha256(f"{match_id}:{post_id}".encode()).hexdigest()
