"""The texts drts gives a forum integration to post back: the reply to each post (the
receipt or the refusal) and, after each movement, the Public Display with the log's head.

Posts are public, so no reply holds a secret: a receipt gives the digest, the version of
the event that stored the order, the log's head and the seat's standing order (public in
a forum game such as B-Chess, whose orders are public once received), never a token or
a code.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from domain.errors import DrtsError
from service.channels.forum.posts import Post
from service.channels.mail import letters
from service.results import OrderReceipt


def heading(post: Post) -> str:
    """Returns the first line of every reply: whose post it answers."""
    return f"@{post.author} (post {post.post_id}):"


def receipt_text(post: Post, receipt: OrderReceipt, received_at: datetime) -> str:
    """Returns the reply to a post stored as an order (the mail receipt's text)."""
    return f"{heading(post)}\n{letters.receipt_text(receipt, received_at)}"


def refusal_text(post: Post, error: DrtsError, received_at: datetime) -> str:
    """Returns the reply to a refused post: the reason with its code, when received."""
    return f"{heading(post)}\n{letters.refusal_text(error, received_at)}"


def logged_text(post: Post, event: dict[str, Any]) -> str:
    """Returns the reply to a post found among the order events (stored just before a
    crash, before its reply was kept)."""
    return f"{heading(post)}\n{letters.logged_text(event)}"


def movement_text(movement: int, display: str) -> str:
    """Returns the post to make once `movement` has resolved: the Public Display after it,
    which holds the log's head (keep it to check the log later: drts match verify)."""
    return f"Movement {movement} is resolved.\n\n{display}"
