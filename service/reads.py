"""The queries of the Matches application: a match's summary, state, scores, display,
event log (with long polling), pending orders, replay and chain; listings, scoreboards,
standings and due movements from the read models.

Secret data shown to the referee (or the operator) before it is revealed is a look,
recorded as a SecretViewed event (`note_secret_viewed`). Everything else records
nothing. The folds and secrecy rules are in service/views.py; listings' queries in
service/readmodels/queries.py.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from domain.match import Match
from service import phases, views
from service.errors import InvalidCursorError, MatchNotFoundError, MissingTokenError
from service.polling import wait_for_events
from service.readmodels import queries
from service.results import (
    ChainReport,
    Document,
    DueMovement,
    EventPage,
    MatchSummary,
    Page,
    ReplayReport,
    Scoreboard,
    Scores,
    StateView,
    Viewer,
)
from service.store import MatchStore
from service.tokens import seat_view_of

MAX_CURSOR = 2**62


class MatchReads(MatchStore):
    """The queries of the Matches application."""

    def summary(self, match_id: UUID | str) -> MatchSummary:
        """Returns the public summary: ruleset, seats, status, open movement, deadline, outcome."""
        return views.summary(self.get_match(match_id))

    def state(
        self,
        match_id: UUID | str,
        movement: int | None = None,
        phase: int | None = None,
        token: str | None = None,
        seat: int | None = None,
    ) -> StateView:
        """Returns the state when `movement` was open (now by default), or after phase
        `phase` of its resolution (service/phases.py: 0 is the state it started from).

        Spectators and seats get the ruleset's view; the referee gets the full
        dumped state, or a seat's view when asking for `seat` (a seat may ask
        only for its own). A seat looking now also gets its own pending orders
        (`orders`). A phase without a movement is one of the open movement,
        which has none yet (MovementNotResolvedError).
        """
        match = self.get_match(match_id)
        looker = self.tokens.viewer(match, token)
        viewer = seat_view_of(match, looker, seat)
        if phase is not None:
            at = match.movement if movement is None else movement
            return phases.phase_state(self, match, at, phase, viewer)
        version = views.version_at(match, movement)
        past = self._at_version(match, version)
        now = looker.seat is not None and past is match  # a seat sees its own orders now
        return StateView(
            match_id=str(match.id),
            movement=movement or match.movement,
            phase=None,
            phase_name=None,
            phases=[],
            version=version,
            state=views.state_view(past, viewer),
            steps=[],
            outcome=views.outcome_json(past.outcome),
            orders=views.pending_orders(match, looker.seat) if now else [],
        )

    def scores(self, match_id: UUID | str, movement: int | None = None) -> Scores:
        """Returns the outcome (scores, ranking, result) when `movement` was open, or now."""
        match = self.get_match(match_id)
        past = self._at_version(match, views.version_at(match, movement))
        return Scores(str(match.id), movement or match.movement, views.outcome_json(past.outcome))

    def display(self, match_id: UUID | str, movement: int | None = None) -> str:
        """Returns the Public Display (plain text) of the match now, or of the position after
        `movement` was resolved (MovementNotFoundError if it was not); public information only.
        """
        match = self.get_match(match_id)
        return views.display(
            self._at_version(match, views.version_after(match, movement)), movement
        )

    def event_log(
        self, match_id: UUID | str, token: str | None = None, after: int = 0
    ) -> list[Document]:
        """Returns the events in their public form; sealed values only where the viewer may see."""
        match = self.get_match(match_id)
        return self._events(match, self.tokens.viewer(match, token), after)

    def event_page(
        self,
        match_id: UUID | str,
        token: str | None = None,
        after: int = 0,
        limit: int = 100,
        wait: float = 0,
    ) -> EventPage:
        """Returns up to `limit` events after version `after`, first waiting up to `wait`
        seconds for one to appear (a long poll); sealed values only where the viewer may see.
        """
        match = self.get_match(match_id)
        viewer = self.tokens.viewer(match, token)  # an unknown token is refused before any wait
        waited = match.version <= after and wait > 0
        if waited and wait_for_events(self.recorder, match.id, after, wait):
            match = self.get_match(match.id)
        items = self._events(match, viewer, after, limit + 1)
        more = len(items) > limit
        items = items[:limit]
        return EventPage(
            match.id,
            items,
            int(items[-1]["version"]) if more else None,
            max([match.version, *(int(i["version"]) for i in items)]),
        )

    def pending_orders(self, match_id: UUID | str, token: str | None) -> list[Document]:
        """Returns the open movement's orders: a seat's own, or every seat's to the referee
        (whose look at unrevealed orders is recorded).
        """
        items = self.open_orders(match_id, token)["items"]
        assert isinstance(items, list)
        return items

    def open_orders(self, match_id: UUID | str, token: str | None) -> Document:
        """Returns `{"items": pending_orders, "standing": {seat: order}}`: the open movement's
        orders and each seat's whole standing order as the game's order policy combines them
        (a seat sees its own; the referee every seat's, and the look is recorded)."""
        match = self.get_match(match_id)
        if token is None:
            raise MissingTokenError(f"the orders of match {match.id} need a seat or referee token")
        viewer = self.tokens.viewer(match, token)
        orders = views.pending_orders(match, viewer.seat)
        if viewer.referee and orders:
            self.note_secret_viewed(match.id, "open orders", viewer.name)
        return {"items": orders, "standing": views.standing_orders(match, viewer.seat)}

    def referee_seed(self, match_id: UUID | str, referee_token: str | None) -> str:
        """Returns the match seed to its referee before it is revealed (the look is recorded)."""

        def look(match: Match) -> str:
            match.check_referee(self.tokens.referee_hash(match, referee_token))
            if not match.finished:
                name = self.tokens.referee_name(referee_token)
                match.note_secret_viewed(name, "seed", self.clock())
            return match.seed

        return self._retrying(match_id, look)

    def note_secret_viewed(self, match_id: UUID | str, what: str, viewer: str = "referee") -> None:
        """Records that the referee (or the operator) looked at secret data of a match."""
        self._retrying(match_id, lambda m: m.note_secret_viewed(viewer, what, self.clock()))

    def replay(self, match_id: UUID | str, token: str | None = None) -> ReplayReport:
        """Replays the match from its first event and checks it against the stored match."""
        match = self.get_match(match_id)
        return views.replay(self, match.id, self.tokens.viewer(match, token))

    def verify_chain(self, match_id: UUID | str) -> ChainReport:
        """Verifies the chain and seals of every stored event; names the first bad one."""
        return views.verify(self, self.match_id(match_id))

    # -- the read models --------------------------------------------------------------------

    def list_matches(
        self,
        ruleset: str | None = None,
        status: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Page:
        """Returns a page of the match list, oldest first, filtered by ruleset and status;
        `next` is the cursor of the next page (the log position of its last match).
        """
        items, after = queries.match_page(
            self.read_models, ruleset, status, limit, cursor_position(cursor)
        )
        return Page(items, None if after is None else str(after))

    def scoreboard(self, match_id: UUID | str) -> Scoreboard:
        """Returns the scores after each resolved movement, per seat and team (public)."""
        board = queries.scoreboard(self.read_models, self.match_id(match_id))
        if board is None:
            raise MatchNotFoundError(f"no match with id {str(match_id)!r}")
        return Scoreboard(**board)

    def standings(
        self, ruleset: str | None = None, limit: int = 100, cursor: str | None = None
    ) -> Page:
        """Returns a page of standings (wins, draws, losses, points per player name and
        ruleset over finished matches), best first within each ruleset.
        """
        items, offset = queries.standing_rows(
            self.read_models, ruleset, limit, cursor_position(cursor)
        )
        return Page(items, None if offset is None else str(offset))

    def due_movements(self, now: datetime | None = None) -> list[DueMovement]:
        """Returns the open movements due at `now` (deadline passed, or ready to close
        early), earliest first (one query of the deadlines read model).
        """
        return queries.due(self.read_models, now or self.clock())

    def rematches_due(self) -> list[UUID]:
        """Returns the finished matches asking for a rematch that does not exist yet (DW-5)."""
        return queries.rematches_due(self.read_models)

    # -- private ----------------------------------------------------------------------------

    def _events(
        self, match: Match, viewer: Viewer, after: int, limit: int | None = None
    ) -> list[Document]:
        """Returns the events after `after` as the viewer may see them, recording the
        referee's look at sealed values not yet revealed."""
        items, peeked = views.event_log(self, match, viewer, after, limit)
        if peeked:
            self.note_secret_viewed(match.id, "event log with sealed values", viewer.name)
        return items


def cursor_position(cursor: str | None) -> int:
    """Returns the position a listing cursor names (0: the start); raises InvalidCursorError."""
    if cursor is None:
        return 0
    if not (cursor.isascii() and cursor.isdigit()) or not 1 <= int(cursor) <= MAX_CURSOR:
        raise InvalidCursorError(f"cursor {cursor!r} is not one this listing gave out")
    return int(cursor)
