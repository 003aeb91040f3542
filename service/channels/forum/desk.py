"""The forum desk: one post received: stored (order or refusal), then replied to
(docs/forum.md).

A post is a seat's order when it is signed with one of the seat's one-time codes (a
line `code: <code>`), or else when its author is a forum user the referee mapped to the
seat (ForumUserMapped events): by the identity the post carries when a mapping names it,
else by the author's name when the name's mapping names no identity (`author_seat`).
The order is stored like any other (source "forum", the post id as its message id, the
received time of service/channels/forum/posts.py), or its refusal as the match records refusals.
A post no seat can be found for (an unmapped author, an identity that is not the
mapping's, an unknown or used code) is refused with its reason and kept in `forum_posts`
with its body: nothing is lost, though no seat's log can hold it. Each post is kept with its
first reply; a post seen before (same post id in the match) stores nothing new and
gets its first reply again. The order events are the record: a post stored just before
a crash, whose row was never written, is found among them.

Two copies of one post processed at the same instant (an integration that sends a post
again when its first sending timed out) both find no reply to give; the copy that loses
the race to store the order finds the first one's order pending in the match
(DuplicateMessageError, stored nothing) and is answered with the first copy's reply. A
copy whose first was refused is refused again (a refusal changes nothing in the match).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol
from uuid import UUID

from domain.errors import DrtsError, DuplicateMessageError
from service.channels.forum import codes, replies
from service.channels.forum.posts import Post, check_post, post_key, received_time
from service.channels.forum.users import ForumUser, forum_identity
from service.channels.mail.addresses import VIEW
from service.channels.mail.reading import order_text
from service.errors import (
    ConcurrentWriteError,
    ForumIdentityMismatchError,
    UnmappedForumUserError,
)
from service.readmodels.recorders import OUTAGES
from service.results import Document, OrderReceipt, Result
from service.store.application import MatchStore

if TYPE_CHECKING:
    from domain.match import Match
    from service.readmodels.runner import ReadModels

TRANSIENT: tuple[type[Exception], ...] = (*OUTAGES, ConcurrentWriteError)
ORDER_EVENTS = ("OrderSubmitted", "OrderRejected")


class ForumIntake(Protocol):
    """What the desk asks of the Matches facade (service/matches.py builds the desk over
    itself: the intake's orders and forum users, the queries' event log, the store's
    read models): passed in, so that the desk never imports it (issue 44)."""

    @property
    def read_models(self) -> ReadModels: ...

    def get_match(self, match_id: UUID | str, version: int | None = None) -> Match: ...

    def event_log(self, match_id: UUID | str) -> list[Document]: ...

    def forum_users(self, match_id: UUID | str) -> dict[str, ForumUser]: ...

    def submit_seat_order(
        self,
        match_id: UUID,
        seat: int,
        order: str,
        source: str,
        message_id: str,
        received_at: datetime,
        movement: int | None = None,
    ) -> OrderReceipt: ...


@dataclass(frozen=True)
class PostReply(Result):
    """What drts did with a post: `outcome` "accepted" or "refused", the seat whose order
    it was (None: no seat known), its received time, the refusal's code, the receipt's
    digest and version when accepted, the text to post back, and whether this post was
    seen before (`replayed`: nothing new was stored; the first reply is given again)."""

    match_id: UUID
    post_id: str
    outcome: str
    seat: int | None
    received_at: datetime
    reply: str
    code: str | None = None
    digest: str | None = None
    version: int | None = None
    replayed: bool = False


class ForumDesk:
    """Takes a match's forum posts as orders and says what to post back."""

    def __init__(self, matches: ForumIntake, max_delay: timedelta) -> None:
        self.matches, self.max_delay = matches, max_delay

    def receive(self, match_id: UUID | str, post: Post, receipt: datetime) -> PostReply:
        """Stores and answers one post received at `receipt`; raises LimitError for a post
        with a field that cannot be stored (nothing stored), MatchNotFoundError, and what
        OUTAGES name and ConcurrentWriteError (nothing stored: send it again)."""
        check_post(post)
        match = self.matches.get_match(match_id).id
        key = post_key(match, post.post_id)
        first = self._first(match, key, post)
        if first is not None:
            return replace(first, replayed=True)
        at = received_time(post.posted_at, receipt, self.max_delay)
        text, code = codes.signed(post.body)
        try:
            seat = self._seat(match, post, code, key, at)
        except DrtsError as error:  # no seat known: kept in forum_posts only
            refusal = replies.refusal_text(post, error, at)
            reply = PostReply(match, post.post_id, "refused", None, at, refusal, error.code)
            return self._record(key, post, reply)
        return self._record(key, post, self._take(match, seat, post, text, at))

    # -- private ----------------------------------------------------------------------------

    @property
    def models(self) -> Any:
        return self.matches.read_models

    def _seat(self, match: UUID, post: Post, code: str | None, key: str, at: datetime) -> int:
        """Returns the seat whose order the post is: its code's, or its author's."""
        if code is not None:
            return codes.claim(self.models, match, code, key, at)
        return author_seat(self.matches.forum_users(match), post, match)

    def _take(self, match: UUID, seat: int, post: Post, text: str, at: datetime) -> PostReply:
        """Submits the post's order text as the seat's order (source "forum")."""
        try:
            receipt = self.matches.submit_seat_order(
                match, seat, order_text(text), "forum", post.post_id, at, post.movement
            )
        except TRANSIENT:  # nothing stored: the integration sends the post again
            raise
        except DuplicateMessageError:  # another copy of this post stored its order just now
            return self._replayed(match, post)
        except DrtsError as error:
            body = replies.refusal_text(post, error, at)
            return PostReply(match, post.post_id, "refused", seat, at, body, error.code)
        body = replies.receipt_text(post, receipt, at)
        return PostReply(
            match,
            post.post_id,
            "accepted",
            seat,
            at,
            body,
            digest=receipt.digest,
            version=receipt.version,
        )

    def _replayed(self, match: UUID, post: Post) -> PostReply:
        """Returns the reply to the copy of `post` whose order is stored (read from the log)."""
        first = self._first_in_log(match, post_key(match, post.post_id), post)
        if first is None:  # not visible yet: nothing stored for this copy, send it again
            raise ConcurrentWriteError(f"post {post.post_id!r} is being taken: send it again")
        return replace(first, replayed=True)

    def _first(self, match: UUID, key: str, post: Post) -> PostReply | None:
        """Returns the first reply to a post seen before, or None."""
        rows = self.models.view(VIEW).query(
            "SELECT seat, received_at, outcome, reply FROM {forum_posts} WHERE post_key = :key",
            {"key": key},
        )
        if not rows:
            return self._first_in_log(match, key, post)
        row, kept = rows[0], json.loads(rows[0]["reply"])
        return PostReply(
            match,
            post.post_id,
            row["outcome"],
            row["seat"],
            datetime.fromisoformat(kept["received_at"]),
            kept["text"],
            kept.get("code"),
            kept.get("digest"),
            kept.get("version"),
        )

    def _first_in_log(self, match: UUID, key: str, post: Post) -> PostReply | None:
        """Finds the post among the match's order events (stored just before a crash, its
        row never written), claims its code for it, and keeps its reply."""
        for event in self.matches.event_log(match):
            data = event["data"]
            if (
                event["type"] in ORDER_EVENTS
                and data.get("source") == "forum"
                and data.get("message_id") == post.post_id
            ):
                _, code = codes.signed(post.body)
                at = datetime.fromisoformat(data["received_at"])
                if code is not None:
                    codes.claim(self.models, match, code, key, at)
                accepted = event["type"] == "OrderSubmitted"
                reply = PostReply(
                    match,
                    post.post_id,
                    "accepted" if accepted else "refused",
                    data["seat"],
                    at,
                    replies.logged_text(post, event),
                    None if accepted else data.get("error"),
                    data["digest"] or None,
                    event["version"],
                )
                return self._record(key, post, reply)
        return None

    def _record(self, key: str, post: Post, reply: PostReply) -> PostReply:
        """Keeps the post with its first reply (a second writer's row is left alone)."""
        kept = {
            "received_at": reply.received_at.isoformat(),
            "text": reply.reply,
            "code": reply.code,
            "digest": reply.digest,
            "version": reply.version,
        }
        self.models.view(VIEW).execute(
            "INSERT INTO {forum_posts} (post_key, match_id, post_id, author, seat, posted_at, "
            "received_at, outcome, body, reply) VALUES (:key, :match_id, :post_id, :author, "
            ":seat, :posted_at, :received_at, :outcome, :body, :reply) "
            "ON CONFLICT (post_key) DO NOTHING",
            {
                "key": key,
                "match_id": reply.match_id,
                "post_id": post.post_id,
                "author": post.author,
                "seat": reply.seat,
                "posted_at": post.posted_at,
                "received_at": reply.received_at,
                "outcome": reply.outcome,
                "body": post.body,
                "reply": json.dumps(kept),
            },
        )
        return reply


def author_seat(mapping: Mapping[str, ForumUser], post: Post, match: UUID) -> int:
    """Returns the seat of a post's author: the one mapped to the post's identity, else
    the one mapped to its author's name when that mapping names no identity. Raises
    ForumIdentityMismatchError when the name's mapping names an identity the post does
    not carry (a display name anyone can write: `"alice" <evil@attacker.example>`), and
    UnmappedForumUserError when neither is mapped."""
    identity = forum_identity(post.identity)
    by_identity = [m.seat for m in mapping.values() if identity and m.identity == identity]
    if by_identity:
        return by_identity[-1]
    mapped = mapping.get(post.author)
    if mapped is None:
        raise UnmappedForumUserError(
            f"forum user {post.author!r} is mapped to no seat of match {match}: the "
            "referee maps forum users to seats, or sign the post with a one-time code"
        )
    if mapped.identity is not None:
        carried = "carries no identity" if identity is None else f"comes from {identity!r}"
        raise ForumIdentityMismatchError(
            f"forum user {post.author!r} is mapped to seat {mapped.seat} of match {match} "
            f"as {mapped.identity!r}, and this post {carried}: a post is that seat's only "
            "from that identity, or signed with a one-time code"
        )
    return mapped.seat


def posts_of(matches: MatchStore, match_id: UUID | str) -> list[dict[str, Any]]:
    """Returns the posts received for a match, in the order received (the operator's
    record: refused ones too, with their bodies)."""
    return matches.read_models.view(VIEW).query(
        "SELECT post_id, author, seat, posted_at, received_at, outcome, body "
        "FROM {forum_posts} WHERE match_id = :match_id ORDER BY received_at, post_id",
        {"match_id": matches.match_id(match_id)},
    )
