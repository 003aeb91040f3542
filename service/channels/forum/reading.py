"""Forum posts from a file (`drts forum import`): an mbox (a forum's mail export or
digest: one message a post), or a JSON list of posts.

JSON: `[{"author": "...", "post_id": "...", "time": "2026-12-01T10:00:00+00:00",
"body": "...", "movement": 4, "identity": "..."}, ...]`: `time` (ISO 8601 with its
offset), `movement` and `identity` (the forum's user id of the author) are optional.
mbox: the author is the From: display name (else its address), its identity the From:
address, the post id the Message-ID, the time the Date: header (one without a zone is
UTC), the body the text/plain part (else the HTML as text), the movement any "movement
N" in the subject.
A file that is neither, JSON nested deeper than service/limits.py allows, or a post
missing a field or holding one that cannot be stored (a lone surrogate, a control
character: `check_post`) is refused whole (InvalidPostsError naming the post and field):
nothing of it is taken.
"""

from __future__ import annotations

import json
import mailbox
from collections.abc import Mapping
from datetime import UTC, datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from service import limits
from service.channels.forum.posts import (
    MAX_AUTHOR_CHARS,
    MAX_BODY_CHARS,
    MAX_POST_ID_CHARS,
    Post,
    check_post,
)
from service.channels.forum.users import MAX_IDENTITY_CHARS
from service.channels.mail.reading import (
    MOVEMENT,
    UnreadableMailError,
    body_text,
    header,
    message_id_of,
    parse,
)
from service.errors import InvalidPostsError


def read_posts(path: Path) -> list[Post]:
    """Returns the posts of a file, in its order; raises InvalidPostsError."""
    raw = path.read_bytes()
    if raw.lstrip()[:1] == b"[":
        return _storable(json_posts(raw))
    if not raw.startswith(b"From "):
        raise InvalidPostsError(
            f"{path} is neither a JSON list of posts nor an mbox (whose first line starts 'From ')"
        )
    return _storable([mbox_post(raw) for raw in _messages(path)])


def json_posts(raw: bytes) -> list[Post]:
    """Returns the posts of a JSON list; raises InvalidPostsError."""
    try:
        text = raw.decode("utf-8")
        limits.check_json_text(text, "posts")  # before the parser recurses into it
        items = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InvalidPostsError(f"the posts are not JSON: {error}") from None
    except limits.LimitError as error:
        raise InvalidPostsError(f"the posts are refused: {error}") from None
    if not isinstance(items, list):
        raise InvalidPostsError("the posts are a JSON list of objects")
    return [json_post(item, f"post {index}") for index, item in enumerate(items, 1)]


def json_post(item: Any, where: str) -> Post:
    """Returns one post of a JSON list (`where` names it in errors)."""
    if not isinstance(item, Mapping):
        raise InvalidPostsError(f"{where} is not a JSON object")
    movement = item.get("movement")
    if movement is not None and (type(movement) is not int or movement < 1):
        raise InvalidPostsError(f"{where}: movement is a number from 1, got {movement!r}")
    return Post(
        author=_text(item, "author", where, MAX_AUTHOR_CHARS),
        post_id=_text(item, "post_id", where, MAX_POST_ID_CHARS),
        posted_at=_time(item.get("time"), where),
        body=_text(item, "body", where, MAX_BODY_CHARS),
        movement=movement,
        identity=_identity(item, where),
    )


def mbox_post(raw: bytes) -> Post:
    """Returns the post a message of an mbox is (an unreadable body gives an empty one:
    the post is then refused, and kept, as an empty order)."""
    message = parse(raw)
    try:
        body = body_text(message)
    except UnreadableMailError:
        body = ""
    found = MOVEMENT.search(header(message, "Subject"))
    return Post(
        author=_author(message),
        post_id=message_id_of(message, raw)[:MAX_POST_ID_CHARS],
        posted_at=_date(header(message, "Date")),
        body=body,
        movement=int(found.group(1)) if found else None,
        identity=_sender(message),
    )


def _storable(posts: list[Post]) -> list[Post]:
    """Returns the posts if every field of each can be stored; raises InvalidPostsError
    naming the first post and field that cannot."""
    for index, post in enumerate(posts, 1):
        try:
            check_post(post)
        except limits.LimitError as error:
            raise InvalidPostsError(f"post {index}: {error}; nothing was taken") from None
    return posts


def _messages(path: Path) -> list[bytes]:
    box = mailbox.mbox(path, create=False)
    try:
        return [box.get_bytes(key) for key in box.iterkeys()]
    finally:
        box.close()


def _author(message: EmailMessage) -> str:
    sender = message.get("From")
    addresses: tuple[Address, ...] = getattr(sender, "addresses", ())
    if addresses:
        return (addresses[0].display_name or addresses[0].addr_spec)[:MAX_AUTHOR_CHARS]
    return header(message, "From")[:MAX_AUTHOR_CHARS] or "(no author)"


def _sender(message: EmailMessage) -> str | None:
    """Returns the From: address (what an mbox says of who sent the post), if any."""
    addresses: tuple[Address, ...] = getattr(message.get("From"), "addresses", ())
    return (addresses[0].addr_spec[:MAX_IDENTITY_CHARS] or None) if addresses else None


def _identity(item: Mapping[str, Any], where: str) -> str | None:
    """Returns a JSON post's `identity` (the forum's user id of its author), if given."""
    if item.get("identity") is None:
        return None
    return _text(item, "identity", where, MAX_IDENTITY_CHARS)


def _date(text: str) -> datetime | None:
    try:
        when = parsedate_to_datetime(text) if text else None
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _text(item: Mapping[str, Any], field: str, where: str, limit: int) -> str:
    value = item.get(field)
    if not isinstance(value, str) or not value.strip():
        raise InvalidPostsError(f"{where}: {field} is a non-empty text, got {value!r}"[:300])
    if len(value) > limit:
        raise InvalidPostsError(f"{where}: {field} has {len(value)} characters (at most {limit})")
    return value.strip() if field != "body" else value


def _time(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise InvalidPostsError(
            f"{where}: time is an ISO 8601 instant with its offset, got {value!r}"[:300]
        )
    return when
