"""Forum play (docs/forum.md): the referee maps a forum user to a seat, so that the
user's posts are that seat's orders; the mapping is public, as the posts are.

Each mapping (or its clearing) is an event of the match (ForumUserMapped). The match
keeps no attribute for it: the service folds the events into the current mapping
(service/channels/forum/users.py), so that snapshots keep their shape. Like a dispute, a mapping
changes nothing in the game; it may be set before the start and during play.
"""

from __future__ import annotations

from datetime import datetime

from domain.errors import UnknownSeatError
from domain.match.queries import MatchQueries


class MatchForum(MatchQueries):
    """The referee's command of forum play: mapping a forum user to a seat."""

    def map_forum_user(
        self,
        referee_token_hash: str,
        user: str,
        seat: int | None,
        by: str,
        at: datetime,
        identity: str | None,
    ) -> None:
        """Maps forum user `user` to `seat` (None clears the user's mapping), as the
        referee (`by`: "referee" or "operator"); `identity` is the forum's stable identity
        of the user that its posts must carry (None: by name alone). A user maps to one
        seat at a time; a seat may have several users. Raises InvalidTokenError
        (NotRefereeError) and UnknownSeatError for a seat the match does not have."""
        self.check_referee(referee_token_hash)
        if seat is not None and not 1 <= seat <= len(self.seats):
            raise UnknownSeatError(
                f"match {self.id} has no seat {seat} (seats 1..{len(self.seats)})"
            )
        self._record(self.ForumUserMapped, at, user=user, seat=seat, by=by, identity=identity)
