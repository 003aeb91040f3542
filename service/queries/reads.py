"""The queries use case: a match's summary, state (at any movement, phase or
timeline), scores, display, event log (with long polling), pending and legal orders,
replay, a past movement, receipts and disputes. Given the store (service/store/application.py);
reached through the Matches facade (service/matches.py). The listings from the read
models are service/queries/listings.py's; the checks of a match's record (seed, archive,
audit, chain) service/usecases/inspection.py's.

Secret data shown to the referee (or the operator) before it is revealed is a look,
recorded as a SecretViewed event (`note_secret_viewed`). Everything else records
nothing. The folds and secrecy rules are in service/queries/views.py.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from uuid import UUID

from domain.match import Match
from service import limits
from service.errors import MissingTokenError
from service.queries import corrections, desk, legal, movements, phases, replays, views
from service.queries.disputes import (
    MAX_PAGE_SIZE,
    PAGE_SIZE,
    STATUSES,
    dispute_json,
    dispute_with_events,
    status_of,
)
from service.queries.eventfilter import EVERY_EVENT, EventFilter
from service.queries.polling import wait_for_events
from service.results import (
    DisputePage,
    Document,
    EventPage,
    Head,
    LiveReading,
    MatchSummary,
    MovementRecord,
    ReceiptCheck,
    ReplayReport,
    Scores,
    StateView,
    Viewer,
)
from service.store.application import MatchStore
from service.store.tokens import seat_view_of


class MatchReads:
    """The queries of a match and the listings: reads of the store, and the looks at
    secrets they record."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store

    def _read_latest(self, match_id: UUID | str) -> Match:
        """Returns the match as stored now, for reading only: the one kept while the store
        holds no later event (one query), else loaded and kept (service/store/pastreads.py)."""
        match_id = self.store.match_id(match_id)
        known = self.store.past.latest.get(match_id)
        if known is not None and not self.store.recorder.select_events(
            match_id, gt=known.version, limit=1
        ):
            return known
        match = self.store.get_match(match_id)
        self.store.past.latest.put(match_id, match)
        return match

    def _read_at(self, match: Match, version: int) -> Match:
        """Returns the match as it was at `version`, for reading only (kept by version)."""
        if version == match.version:
            return match
        key = (match.id, version)
        past = self.store.past.versions.get(key)
        if past is None:
            past = self.store.get_match(match.id, version)
            self.store.past.versions.put(key, past)
        return past

    def _head_of_write(self, past: Match, latest: Match) -> Head:
        """Returns `views.write_head` of a past match, kept once the event after it is
        stored (it then never changes)."""
        key = (past.id, past.version)
        head = self.store.past.heads.get(key)
        if head is None:
            head = views.write_head(self.store, past)
            if past.version < latest.version:
                self.store.past.heads.put(key, head)
        return head

    def _in_timeline(self, match: Match, timeline: int | None) -> Match:
        """Returns the match as timeline `timeline` left it (the match itself for None or
        the current one), for reading only; raises UnknownTimelineError."""
        end = corrections.timeline_end(self.store, match, timeline)
        return match if end is None else self._read_at(match, end)

    def timeline_match(self, match_id: UUID | str, timeline: int | None = None) -> Match:
        """Returns the match as it stands now, or as an earlier `timeline` of a corrected
        match left it (domain/match/timelines.py), for reading only (the pages' replay)."""
        return self._in_timeline(self._read_latest(match_id), timeline)

    def summary(self, match_id: UUID | str, timeline: int | None = None) -> MatchSummary:
        """Returns the public summary: ruleset, seats, status, open movement, deadline,
        outcome; of an earlier `timeline` of a corrected match: as it ended."""
        match = self.store.get_match(match_id)
        return views.summary(match if timeline is None else self._in_timeline(match, timeline))

    def live(self, match_id: UUID | str, timeline: int | None = None) -> LiveReading:
        """Returns what the match page shows, at one version from one read of the store
        (views.live_reading; UnknownTimelineError for a timeline the match lacks)."""
        match = self._read_latest(match_id)
        line = self._in_timeline(match, None if timeline == match.timeline else timeline)
        head = self._head_of_write(self._read_at(match, views.position_version(line)), match)
        return views.live_reading(match, line, head)

    def state(
        self,
        match_id: UUID | str,
        movement: int | None = None,
        phase: int | None = None,
        token: str | None = None,
        seat: int | None = None,
        timeline: int | None = None,
    ) -> StateView:
        """Returns the state when `movement` was open (now by default), or after phase
        `phase` of its resolution (service/queries/phases.py: 0 is the state it started from),
        in the current timeline or an earlier one of a corrected match (`timeline`).

        Spectators and seats get the ruleset's view; the referee gets the full
        dumped state, or a seat's view when asking for `seat` (a seat may ask
        only for its own). A seat looking now also gets its own pending orders
        (`orders`). A phase without a movement is one of the open movement,
        which has none yet (MovementNotResolvedError).
        """
        match = self._read_latest(match_id)
        looker = self.store.tokens.viewer(match, token)
        viewer = seat_view_of(match, looker, seat)
        line = self._in_timeline(match, timeline)
        if phase is not None:
            at = line.movement if movement is None else movement
            view = phases.phase_state(self.store, line, at, phase, viewer)
            resolved = self._read_at(match, views.version_after(line, at))
            head = self._head_of_write(resolved, match)
            return replace(view, head=head, timeline=line.timeline)
        version = views.version_at(line, movement)
        past = self._read_at(match, version)
        opened = version if movement is not None else views.position_version(line)
        now = looker.seat is not None and past is match  # a seat sees its own orders now
        return StateView(
            match_id=str(match.id),
            movement=movement or line.movement,
            phase=None,
            phase_name=None,
            phases=[],
            version=version,
            state=views.state_view(past, viewer),
            steps=[],
            outcome=views.outcome_json(past.outcome),
            orders=views.pending_orders(match, looker.seat) if now else [],
            head=self._head_of_write(self._read_at(match, opened), match),
            timeline=line.timeline,
        )

    def scores(
        self, match_id: UUID | str, movement: int | None = None, timeline: int | None = None
    ) -> Scores:
        """Returns the outcome (scores, ranking, result) when `movement` was open, or now
        (in an earlier `timeline` of a corrected match: as it left it)."""
        match = self._read_latest(match_id)
        line = self._in_timeline(match, timeline)
        past = self._read_at(match, views.version_at(line, movement))
        return Scores(str(match.id), movement or line.movement, views.outcome_json(past.outcome))

    def display(
        self, match_id: UUID | str, movement: int | None = None, timeline: int | None = None
    ) -> str:
        """Returns the Public Display (plain text) of the match now, or of the position after
        `movement` was resolved (MovementNotFoundError if it was not), in the current
        timeline or an earlier one (`timeline`: now is where it ended); public information
        only."""
        match = self._read_latest(match_id)
        line = self._in_timeline(match, timeline)
        past = self._read_at(match, views.version_after(line, movement))
        opened = views.position_version(line) if movement is None else past.version
        head = self._head_of_write(self._read_at(match, opened), match)
        return views.display(past, movement, head)

    def event_log(
        self,
        match_id: UUID | str,
        token: str | None = None,
        after: int = 0,
        kept: EventFilter = EVERY_EVENT,
    ) -> list[Document]:
        """Returns the events the filter keeps in their public form; sealed values only where
        the viewer may see."""
        match = self.store.get_match(match_id)
        return self._events(match, self.store.tokens.viewer(match, token), after, None, kept)

    def event_page(
        self,
        match_id: UUID | str,
        token: str | None = None,
        after: int = 0,
        limit: int = 100,
        wait: float = 0,
        kept: EventFilter = EVERY_EVENT,
    ) -> EventPage:
        """Returns up to `limit` events after version `after` that `kept` keeps, first
        waiting up to `wait` seconds for one to appear (a long poll); sealed values only
        where the viewer may see.

        `next` is the version of the page's last event when more kept events follow (pass
        it as `after`), else None; `version` is the match's head. With a filter, a long poll
        ends when any event lands, so its page may be empty: go on from `after=version`.
        """
        match = self.store.get_match(match_id)
        viewer = self.store.tokens.viewer(match, token)  # refused before any wait if unknown
        waited = match.version <= after and wait > 0
        if waited and wait_for_events(self.store.recorder, match.id, after, wait):
            match = self.store.get_match(match.id)
        items = self._events(match, viewer, after, limit + 1, kept)
        more, items = len(items) > limit, items[:limit]
        head = max([match.version, *(int(i["version"]) for i in items)])
        return EventPage(match.id, items, int(items[-1]["version"]) if more else None, head)

    def holder(self, match_id: UUID | str, token: str) -> Viewer:
        """Returns who holds `token` in the match: its referee (or the operator), or a seat;
        raises InvalidTokenError for a token the match does not know (the pages' sign-in)."""
        return self.store.tokens.viewer(self.store.get_match(match_id), token)

    def head(self, match_id: UUID | str) -> Head:
        """Returns the head of the match's log now: its last event's version and chain."""
        match = self.store.get_match(match_id)
        return Head(match.version, match.chain)

    def pending_orders(self, match_id: UUID | str, token: str | None) -> list[Document]:
        """Returns the open movement's orders: a seat's own, or every seat's to the referee
        (whose look at unrevealed orders is recorded); in a game whose orders are public
        (`RulesetInfo.public_orders`, B-Chess) every seat's, to anyone, token or not.
        """
        items = self.open_orders(match_id, token)["items"]
        assert isinstance(items, list)
        return items

    def legal_orders(
        self, match_id: UUID | str, token: str | None, seat: int | None = None
    ) -> Document:
        """Returns what a seat may order now in the open movement (service/queries/legal.py): to the
        seat itself (its token), or to the referee for the seat it names; the answer holds
        that seat's standing order, so the referee's look at one is recorded (unless the
        game's orders are public)."""
        match = self._read_latest(match_id)
        if token is None:
            raise MissingTokenError(f"the legal orders of match {match.id} need a seat's token")
        viewer = self.store.tokens.viewer(match, token)
        answer = legal.legal_orders_of(match, legal.seat_asked(match, viewer, seat))
        if viewer.referee and answer["orders_sent"] and not views.orders_are_public(match):
            self.note_secret_viewed(match.id, "open orders", viewer.name)
        return answer

    def open_orders(self, match_id: UUID | str, token: str | None) -> Document:
        """Returns `{"items": pending_orders, "standing": {seat: order}}`: the open movement's
        orders and each seat's whole standing order as the game's order policy combines them
        (a seat sees its own; the referee every seat's, and the look is recorded)."""
        match = self.store.get_match(match_id)
        public = views.orders_are_public(match)
        if token is None and not public:
            raise MissingTokenError(f"the orders of match {match.id} need a seat or referee token")
        viewer = self.store.tokens.viewer(match, token)
        orders = views.pending_orders(match, None if public else viewer.seat)
        if viewer.referee and orders and not public:
            self.note_secret_viewed(match.id, "open orders", viewer.name)
        return {"items": orders, "standing": views.standing_orders(match, viewer.seat)}

    def desk_figures(
        self, match_id: UUID | str, token: str | None, opening: bool = False
    ) -> Document:
        """Returns the referee desk's figures (service/queries/desk.py) to the match's
        referee or the operator (else raises MissingTokenError or NotRefereeError).
        `opening` (a stream opening) records the look: one SecretViewed a stream."""
        match = self.store.get_match(match_id)
        viewer = self.store.tokens.viewer(match, token)
        desk.check_referee(match, viewer, token)
        if opening:
            self.note_secret_viewed(match.id, desk.LOOK, viewer.name)
            match = self.store.get_match(match.id)
        return desk.figures(match)

    def note_secret_viewed(self, match_id: UUID | str, what: str, viewer: str = "referee") -> None:
        """Records that the referee (or the operator) looked at secret data of a match; an
        imported match records nothing (it is read-only, and its secrets left the store it
        came from in an archive whose export was recorded there: docs/archive.md)."""
        if self.store.is_imported(match_id):
            return
        self.store.retrying(
            match_id, lambda m: m.note_secret_viewed(viewer, what, self.store.clock())
        )

    def replay(
        self, match_id: UUID | str, token: str | None = None, timeline: int | None = None
    ) -> ReplayReport:
        """Replays the match from its first event and checks it against the stored match
        (`timeline`: an earlier timeline's replay, domain/match/timelines.py). The report
        of the same log head, for the same viewer, is kept (service/store/pastreads.py)."""
        match = self._read_latest(match_id)
        viewer = self.store.tokens.viewer(match, token)
        key = (match.id, match.version, match.chain, timeline, viewer)
        report = self.store.past.replays.get(key)
        if report is None:
            report = replays.replay(self.store, match, viewer, timeline)
            self.store.past.replays.put(key, report)
        return report

    def movement(
        self,
        match_id: UUID | str,
        movement: int,
        token: str | None = None,
        timeline: int | None = None,
    ) -> MovementRecord:
        """Returns resolved movement `movement` (service/queries/movements.py) of the current
        timeline or an earlier one of a corrected match (`timeline`): its orders as sent,
        which counted, the refusals, steps, states before and after as the token's holder
        may see them, the outcome, and the phases once the match has finished (or to the
        referee earlier, a look at the seed that is recorded)."""
        limits.check_movement(movement)
        match = self.store.get_match(match_id)
        viewer = self.store.tokens.viewer(match, token)
        line = self._in_timeline(match, timeline)
        record = movements.movement_record(self.store, line, movement, viewer, match.finished)
        if record.phases is not None and not match.finished:
            self.note_secret_viewed(match.id, f"seed (phases of movement {movement})", viewer.name)
        return record

    def disputes(self, match_id: UUID | str) -> list[Document]:
        """Returns every dispute of the match in filing order, open and ruled (public: their
        texts are; service/queries/disputes.py). The edges show them by page: `dispute_page`."""
        return [dispute_json(d) for d in self.store.get_match(match_id).disputes]

    def dispute_page(
        self,
        match_id: UUID | str,
        after: int = 0,
        limit: int = PAGE_SIZE,
        status: str | None = None,
        seat: int | None = None,
    ) -> DisputePage:
        """Returns up to `limit` (1..MAX_PAGE_SIZE) of the match's disputes numbered after
        `after`, in filing order, only those with `status` ("open" or "ruled") and filed by
        seat `seat` when asked; `next` is the number of the page's last dispute when more
        such follow (pass it as `after`), else None. Public, like the disputes. Raises
        LimitError for a bound or a status outside the declared ones."""
        limits.check_range(after, "after", 0, limits.MAX_POSITION)
        limits.check_range(limit, "limit", 1, MAX_PAGE_SIZE)
        if status is not None:
            limits.check_choice(status, "status", STATUSES)
        if seat is not None:
            limits.check_range(seat, "seat", 1, limits.MAX_SEATS)
        kept = (
            d
            for d in self.store.get_match(match_id).disputes[after:]  # dispute n is disputes[n - 1]
            if status in (None, status_of(d)) and seat in (None, d.seat)
        )
        found = list(itertools.islice(kept, limit + 1))
        more, found = len(found) > limit, found[:limit]
        return DisputePage([dispute_json(d) for d in found], found[-1].number if more else None)

    def dispute(self, match_id: UUID | str, number: int) -> Document:
        """Returns dispute `number` with the events it cites, as anyone may see them (public);
        raises UnknownDisputeError."""
        match = self.store.get_match(match_id)
        return dispute_with_events(self.store, match, match.dispute(number))

    def receipt(self, match_id: UUID | str, digest: str) -> ReceiptCheck:
        """Returns what a receipt digest proves (public: the order once revealed)."""
        return movements.receipt_check(self.store, self.store.get_match(match_id), digest)

    # -- private ----------------------------------------------------------------------------

    def _events(
        self,
        match: Match,
        viewer: Viewer,
        after: int,
        limit: int | None = None,
        kept: EventFilter = EVERY_EVENT,
    ) -> list[Document]:
        """Returns the events after `after` that `kept` keeps, as the viewer may see them,
        recording the referee's look at sealed values not yet revealed."""
        items, peeked = views.event_log(self.store, match, viewer, after, limit, kept)
        if peeked:
            self.note_secret_viewed(match.id, "event log with sealed values", viewer.name)
        return items
