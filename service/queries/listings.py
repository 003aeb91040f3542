"""The listings use case: what the read models answer without loading a match (the
match list, a scoreboard, the standings, the due movements, the rematches due). Given
the store (service/store/application.py), whose read models it asks (service/readmodels/queries.py);
reached through the Matches facade (service/matches.py).
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from service.errors import InvalidCursorError, MatchNotFoundError
from service.readmodels import queries
from service.results import DueMovement, Page, Scoreboard
from service.store.application import MatchStore

MAX_CURSOR = 2**62


class Listings:
    """Pages of the match list and the standings, scoreboards, due movements."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store

    def list_matches(
        self,
        ruleset: str | None = None,
        status: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
        disputes: str | None = None,
    ) -> Page:
        """Returns a page of the match list, oldest first, filtered by ruleset, status and
        open disputes (`disputes="open"`: a dispute awaits the referee's ruling); `next` is
        the cursor of the next page (the log position of its last match).
        """
        items, after = queries.match_page(
            self.store.read_models, ruleset, status, limit, cursor_position(cursor), disputes
        )
        return Page(items, None if after is None else str(after))

    def scoreboard(self, match_id: UUID | str) -> Scoreboard:
        """Returns the scores after each resolved movement, per seat and team (public)."""
        board = queries.scoreboard(self.store.read_models, self.store.match_id(match_id))
        if board is None:
            raise MatchNotFoundError(f"no match with id {str(match_id)!r}")
        return Scoreboard(**board)

    def standings(
        self, ruleset: str | None = None, limit: int = 100, cursor: str | None = None
    ) -> Page:
        """Returns a page of standings (wins, draws, losses, points per player, or seat
        name where a seat named no player, and ruleset over finished matches), best first
        within each ruleset.
        """
        items, offset = queries.standing_rows(
            self.store.read_models, ruleset, limit, cursor_position(cursor)
        )
        return Page(items, None if offset is None else str(offset))

    def due_movements(self, now: datetime | None = None) -> list[DueMovement]:
        """Returns the open movements due at `now` (deadline passed, or ready to close
        early), earliest first (one query of the deadlines read model).
        """
        return queries.due(self.store.read_models, now or self.store.clock())

    def rematches_due(self) -> list[UUID]:
        """Returns the finished matches asking for a rematch that does not exist yet (DW-5)."""
        return queries.rematches_due(self.store.read_models)


def cursor_position(cursor: str | None) -> int:
    """Returns the position a listing cursor names (0: the start); raises InvalidCursorError."""
    if cursor is None:
        return 0
    if not (cursor.isascii() and cursor.isdigit()) or not 1 <= int(cursor) <= MAX_CURSOR:
        raise InvalidCursorError(f"cursor {cursor!r} is not one this listing gave out")
    return int(cursor)
