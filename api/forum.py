"""Forum play (docs/forum.md): a forum integration sends posts in (operator token) and
gets the replies and the posts to make after each movement; the referee maps forum users
to seats; a seat gets a one-time code to sign a post with."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches, received_at
from api.errors import TOKEN_REQUIRED, documents_errors
from api.schemas.forum import (
    ForumCodeSchema,
    ForumUserRequestSchema,
    ForumUsersSchema,
    OutgoingArgsSchema,
    OutgoingPostsSchema,
    PostReplySchema,
    PostSchema,
)
from service.channels.forum.outgoing import outgoing
from service.channels.forum.posts import Post

blp = Blueprint(
    "forum",
    __name__,
    url_prefix="/matches/<uuid:match_id>",
    description="Forum play: posts as orders, replies, forum users, one-time codes",
)


@blp.route("/posts")
class Posts(MethodView):
    @blp.arguments(PostSchema)
    @blp.response(201, PostReplySchema, description="Taken: stored as an order, or refused")
    @blp.alt_response(200, schema=PostReplySchema, description="Seen before: the first reply")
    @documents_errors(blp, 400, 401, 403, 404, 409, 413, 422)
    @blp.doc(operationId="takeForumPost", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], match_id: UUID) -> Any:
        """Takes a forum post (operator token: a forum integration's) as its seat's order:
        the author's, mapped by the referee, or the seat whose one-time code signs it.
        Returns the reply to post back; a refused post is kept with its reason."""
        post = Post(
            body["author"],
            body["post_id"],
            body["time"],
            body["body"],
            body["movement"],
            body["identity"],
        )
        reply = matches().take_forum_post(match_id, bearer_token(), post, received_at())
        return reply, 200 if reply.replayed else 201


@blp.route("/posts/outgoing")
class OutgoingPosts(MethodView):
    @blp.arguments(OutgoingArgsSchema, location="query")
    @blp.response(200, OutgoingPostsSchema)
    @documents_errors(blp, 404, 422)
    @blp.doc(operationId="getOutgoingPosts")
    def get(self, args: dict[str, Any], match_id: UUID) -> Any:
        """Returns the posts to make, one per movement resolved after `after`: the Public
        Display after it, with the log's head (public)."""
        return {"match_id": match_id, "items": outgoing(matches(), match_id, args["after"])}


@blp.route("/forum-users")
class ForumUsers(MethodView):
    @blp.arguments(ForumUserRequestSchema)
    @blp.response(200, ForumUsersSchema, description="The mapping after this change")
    @documents_errors(blp, 401, 403, 404, 409, 422)
    @blp.doc(operationId="mapForumUser", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], match_id: UUID) -> Any:
        """Maps a forum user to a seat, or clears the user's mapping (`seat` null): the
        referee's (or operator's), recorded as a ForumUserMapped event."""
        service = matches()
        service.map_forum_user(
            match_id, bearer_token(), body["user"], body["seat"], body["identity"]
        )
        return forum_users_json(match_id)

    @blp.response(200, ForumUsersSchema)
    @documents_errors(blp, 404)
    @blp.doc(operationId="getForumUsers")
    def get(self, match_id: UUID) -> Any:
        """Returns the mapping of forum users to seats (public, as the posts are)."""
        return forum_users_json(match_id)


@blp.route("/seats/forum-code")
class ForumCode(MethodView):
    @blp.response(201, ForumCodeSchema, description="A new one-time code, shown once")
    @documents_errors(blp, 401, 403, 404)
    @blp.doc(operationId="getForumCode", security=TOKEN_REQUIRED)
    def post(self, match_id: UUID) -> Any:
        """Issues a one-time code for the token's seat: a line `code: <code>` in a forum
        post makes the post that seat's order; the code then stops."""
        seat, code = matches().forum_code(match_id, bearer_token())
        return {"match_id": match_id, "seat": seat, "code": code}


def forum_users_json(match_id: UUID) -> dict[str, Any]:
    """Returns the match's mapping of forum users to seats, sorted by user."""
    users = matches().forum_users(match_id)
    return {
        "match_id": match_id,
        "users": [
            {"user": user, "seat": mapped.seat, "identity": mapped.identity}
            for user, mapped in sorted(users.items())
        ],
    }
