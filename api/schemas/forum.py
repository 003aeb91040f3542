"""The schemas of forum play (api/forum.py, docs/forum.md): posts in, replies and the
posts to make out, the mapping of forum users to seats, a seat's one-time code."""

from __future__ import annotations

import marshmallow as ma

from api.fields import (
    LINES,
    ONE_LINE,
    PlayerName,
    QueryInteger,
    StrictInteger,
    movement_number,
    stored_text,
)
from service import limits
from service.channels.forum.posts import MAX_AUTHOR_CHARS, MAX_BODY_CHARS, MAX_POST_ID_CHARS
from service.channels.forum.users import MAX_IDENTITY_CHARS


def forum_identity(description: str) -> ma.fields.String:
    """Returns the optional `identity` of a post or a mapped user: what the forum guarantees
    of its author (its user id, or the sender address of a mail export), as stored text."""
    return ma.fields.String(
        load_default=None,
        allow_none=True,
        validate=[
            ma.validate.Length(min=1, max=MAX_IDENTITY_CHARS),
            stored_text("identity", MAX_IDENTITY_CHARS),
        ],
        metadata={"description": description, **ONE_LINE},
    )


class PostSchema(ma.Schema):
    author = ma.fields.String(
        required=True,
        validate=[
            ma.validate.Length(min=1, max=MAX_AUTHOR_CHARS),
            stored_text("author", MAX_AUTHOR_CHARS),
        ],
        metadata={
            "description": "the forum user who posted it, as the forum spells it",
            **ONE_LINE,
        },
    )
    post_id = ma.fields.String(
        required=True,
        validate=[
            ma.validate.Length(min=1, max=MAX_POST_ID_CHARS),
            stored_text("post_id", MAX_POST_ID_CHARS),
        ],
        metadata={
            "description": "the forum's id of the post: a post sent again is known by it",
            **ONE_LINE,
        },
    )
    time = ma.fields.AwareDateTime(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "the post's time as the forum reports it (ISO 8601 with its "
            "offset); taken as the received time within [receipt - "
            "DRTS_FORUM_MAX_DELAY_SECONDS, receipt]; none: the receipt"
        },
    )
    body = ma.fields.String(
        required=True,
        validate=[
            ma.validate.Length(max=MAX_BODY_CHARS),
            stored_text("body", MAX_BODY_CHARS, lines=True, min_chars=0),
        ],
        metadata={
            "description": "the post's text: the order, and a line `code: <code>` if signed",
            **LINES,
        },
    )
    movement = movement_number(
        "the movement the order is for (none: the open one)", load_default=None, allow_none=True
    )
    identity = forum_identity(
        "the author's identity as the forum guarantees it (its user id, "
        "or the sender address of a mail export); a user mapped with an identity is "
        "taken only from posts carrying it"
    )


class PostReplySchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    post_id = ma.fields.String(required=True)
    outcome = ma.fields.String(
        required=True,
        metadata={"description": "accepted or refused", "enum": ["accepted", "refused"]},
    )
    seat = ma.fields.Integer(
        required=True, allow_none=True, metadata={"description": "whose order; null: none known"}
    )
    received_at = ma.fields.DateTime(required=True)
    reply = ma.fields.String(
        required=True, metadata={"description": "the text to post back (no secret in it)"}
    )
    code = ma.fields.String(
        required=True, allow_none=True, metadata={"description": "the refusal's error code"}
    )
    digest = ma.fields.String(
        required=True, allow_none=True, metadata={"description": "the receipt digest"}
    )
    version = ma.fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "the version of the event that stored the order"},
    )
    replayed = ma.fields.Boolean(
        required=True,
        metadata={"description": "the post was seen before: nothing new stored, first reply"},
    )


class OutgoingArgsSchema(ma.Schema):
    after = QueryInteger(
        load_default=0,
        validate=ma.validate.Range(0, limits.MAX_MOVEMENT),
        metadata={"description": "the last movement posted: only later ones are listed"},
    )


class OutgoingPostSchema(ma.Schema):
    movement = ma.fields.Integer(required=True)
    text = ma.fields.String(
        required=True, metadata={"description": "the Public Display after it, with the head"}
    )


class OutgoingPostsSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    items = ma.fields.List(ma.fields.Nested(OutgoingPostSchema), required=True)


class ForumUserRequestSchema(ma.Schema):
    user = PlayerName(
        required=True,
        metadata={
            "description": "the forum user, as the forum spells it: " + limits.NAME_RULE,
            "minLength": 1,
            "maxLength": limits.MAX_NAME_CHARS,
        },
    )
    seat = StrictInteger(
        required=True,
        allow_none=True,
        validate=ma.validate.Range(1, limits.MAX_SEATS),
        metadata={"description": "the seat whose orders the user's posts are; null clears"},
    )
    identity = forum_identity(
        "the user's identity as the forum guarantees it (its user id, or "
        "the sender address of a mail export): posts must carry it to be the seat's; "
        "null maps by the user name alone"
    )


class ForumUserSchema(ma.Schema):
    user = ma.fields.String(required=True)
    seat = ma.fields.Integer(required=True)
    identity = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the identity its posts must carry; null: by name alone"},
    )


class ForumUsersSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    users = ma.fields.List(ma.fields.Nested(ForumUserSchema), required=True)


class ForumCodeSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    seat = ma.fields.Integer(required=True)
    code = ma.fields.String(
        required=True,
        metadata={"description": "sign one post with a line `code: <code>`; shown once"},
    )
