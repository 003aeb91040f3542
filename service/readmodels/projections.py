"""The projections of the Matches log: what each event writes into which read model.

Each projection reads only its own events (`topics`, filtered in the
database) and writes only its own tables, with its own tracking row, so each
can be rebuilt alone. Every handler turns one event into statements for its
view (service/readmodels/recorders.py), which runs them with the tracking row
in one transaction. Handlers use only what the event carries: no rules run.

Standings count a finished match once per seat and ruleset, for the seat's entrant:
the player identity it named (issue 45), else the name it joined with; a player's row
shows the player's name (from its `Player.Created`). A seat among the outcome's
winners wins (or draws, when the result is a draw shared by several); every other
seat loses; a draw with no winners is a draw for every seat; a match with no winner
is a loss for every seat. A win is worth WIN_POINTS, a draw DRAW_POINTS, a loss
nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, ClassVar, TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection
from eventsourcing.utils import get_topic

from domain.match import Match
from domain.player import Player
from domain.rules.contract import asks_rematch
from service.readmodels import heads
from service.readmodels.recorders import Statement, View

WIN_POINTS, DRAW_POINTS = 3, 1
logger = logging.getLogger(__name__)
# the Match's own event classes (not the base class `Event` eventsourcing nests in it)
MATCH_EVENTS: tuple[type, ...] = tuple(
    cls
    for name, cls in vars(Match).items()
    if isinstance(cls, type) and issubclass(cls, Aggregate.Event) and name != "Event"
)

Handler = Callable[[Any, Any, Tracking], list[Statement]]
HandlerT = TypeVar("HandlerT", bound=Callable[..., list[Statement]])
_HANDLES = "_handles_event"


def handles(event_class: type) -> Callable[[HandlerT], HandlerT]:
    """Returns a decorator marking a ReadModel method as the handler of one event class."""

    def mark(handler: HandlerT) -> HandlerT:
        setattr(handler, _HANDLES, event_class)
        return handler

    return mark


def topics_of(*event_classes: type) -> tuple[str, ...]:
    """Returns the topics of event classes (the log is filtered by them in the database)."""
    return tuple(get_topic(cls) for cls in event_classes)


class ReadModel(Projection[View]):
    """A projection whose `@handles(...)` methods return the statements an event writes.

    A subclass's topics are the event classes its handlers name, in the order written.
    """

    handlers: ClassVar[Mapping[type, Handler]] = {}
    reads_every_event: ClassVar[bool] = False  # True: `every_event` sees each Match event

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.handlers = {
            getattr(method, _HANDLES): method
            for method in vars(cls).values()
            if hasattr(method, _HANDLES)
        }
        others = [e for e in MATCH_EVENTS if e not in cls.handlers] if cls.reads_every_event else []
        cls.topics = topics_of(*cls.handlers, *others)

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        """Records the statements of the event's handler with its tracking row; ignores
        events this projection does not read. An event whose handler or statements fail
        leaves its match out of this projection (View.apply).
        """
        handler = next(
            (self.handlers[cls] for cls in type(domain_event).__mro__ if cls in self.handlers),
            None,
        )
        if handler is None and not self.reads_every_event:
            return

        def statements() -> list[Statement]:
            refused = self.refused(domain_event, tracking)
            if refused is not None:
                return refused
            own = [] if handler is None else handler(self, domain_event, tracking)
            return own + self.every_event(domain_event)

        self.view.apply(
            tracking, domain_event.originator_id, type(domain_event).__qualname__, statements
        )

    def every_event(self, domain_event: Any) -> list[Statement]:
        """Returns what every Match event writes (when `reads_every_event`): nothing here."""
        return []

    def before_batch(self, events: Sequence[tuple[Any, Tracking]]) -> None:
        """Reads, in the batch's transaction, what applying its events needs: nothing here."""

    def after_batch(self) -> None:
        """Forgets what `before_batch` read: nothing here."""

    def refused(self, domain_event: Any, tracking: Tracking) -> list[Statement] | None:
        """Returns what the projection writes instead of the event's statements when it
        refuses the event; None: it takes it (always, here)."""
        return None


class MatchList(ReadModel):
    """One row per match (ruleset, status, clock, movement, head, disputes open and ruled)
    and one per seat (its name). The head is the last event applied and, once finished,
    the Finished event's, kept from the first: what `verify` checks the log against
    (docs/integrity.md). The head moves only along the chain: an event that does not
    continue it quarantines the match instead, its row kept (service/readmodels/heads.py).

    In a batch the head is written once a match (issue 46), with the match's last event
    of the batch: the events before it write none (the batch is one transaction, so no
    reader sees the difference). A broken log's refused event first writes the head of
    the match's last event taken in the batch, where the per-event head stood.
    """

    name = "match_list"
    reads_every_event = True
    _heads: dict[UUID, heads.Head | None] | None = None  # a batch's, read before it
    _broken: set[UUID] = frozenset()  # type: ignore[assignment]  # the batch's broken logs
    _taken: set[UUID] = frozenset()  # type: ignore[assignment]  # an event taken this batch
    _last: dict[UUID, Any] | None = None  # each match's last event in the batch

    def before_batch(self, events: Sequence[tuple[Any, Tracking]]) -> None:
        self._heads = heads.recorded_heads(self.view, (e.originator_id for e, _ in events))
        self._broken, self._taken = set(), set()
        self._last = {e.originator_id: e for e, _ in events}

    def after_batch(self) -> None:
        self._heads = self._last = None
        self._broken = self._taken = frozenset()  # type: ignore[assignment]

    def refused(self, domain_event: Any, tracking: Tracking) -> list[Statement] | None:
        """Refuses an event that does not continue the recorded head: the match is then
        quarantined, its row kept; its later events in the batch write nothing."""
        match_id = domain_event.originator_id
        if match_id in self._broken:
            return []
        known = self._heads
        if known is None or match_id not in known:
            known = heads.recorded_heads(self.view, [match_id])  # outside a batch
        reason = heads.break_in_chain(domain_event, known[match_id], match_id in self._taken)
        if reason is None:
            if self._heads is not None:
                self._heads[match_id] = (domain_event.originator_version, domain_event.chain)
                self._taken.add(match_id)
            return None
        logger.error("match list quarantines match %s: %s", match_id, reason)
        if self._heads is not None:
            self._broken.add(match_id)
        movement = getattr(domain_event, "movement", 0) or 0
        kind = type(domain_event).__qualname__
        taken = known[match_id] if match_id in self._taken else None
        return [
            *([] if taken is None else [_head_statement(match_id, taken)]),
            *heads.quarantine_statements(
                match_id, movement, tracking.notification_id, kind, reason
            ),
        ]

    def every_event(self, domain_event: Any) -> list[Statement]:
        """Moves the head to the event: outside a batch, or with the match's last event
        of the batch (the class docstring)."""
        match_id = domain_event.originator_id
        if self._last is not None and self._last.get(match_id) is not domain_event:
            return []
        return [_head_statement(match_id, (domain_event.originator_version, domain_event.chain))]

    @handles(Match.Created)
    def created(self, e: Match.Created, tracking: Tracking) -> list[Statement]:
        return [
            (
                "INSERT INTO {match_list} (match_id, position, ruleset, ruleset_version, "
                "status, min_seats, max_seats, seat_count, movement, created_at) "
                "VALUES (:match_id, :position, :ruleset, :version, 'open', "
                ":min, :max, 0, 0, :at)",
                {
                    "match_id": e.originator_id,
                    "position": tracking.notification_id,
                    "ruleset": e.ruleset,
                    "version": e.ruleset_version,
                    "min": e.seats["min"],
                    "max": e.seats["max"],
                    "at": e.timestamp,
                },
            )
        ]

    @handles(Match.SeatJoined)
    def seat_joined(self, e: Match.SeatJoined, tracking: Tracking) -> list[Statement]:
        return [
            (
                "INSERT INTO {match_seats} (match_id, seat, name) VALUES (:match_id, :seat, :name)",
                {"match_id": e.originator_id, "seat": e.seat, "name": e.name},
            ),
            (
                "UPDATE {match_list} SET seat_count = seat_count + 1 WHERE match_id = :match_id",
                {"match_id": e.originator_id},
            ),
        ]

    @handles(Match.SeatAdded)
    def seat_added(self, e: Match.SeatJoined, tracking: Tracking) -> list[Statement]:
        """A seat joining the running match (B-Chess) is listed like one joining before."""
        return self.seat_joined(e, tracking)

    @handles(Match.Started)
    def started(self, e: Match.Started, tracking: Tracking) -> list[Statement]:
        return [
            _update_match(
                e.originator_id, status="started", started_at=e.timestamp, movement=e.movement
            )
        ]

    @handles(Match.DeadlineSet)
    def deadline_set(self, e: Match.DeadlineSet, tracking: Tracking) -> list[Statement]:
        return [_update_match(e.originator_id, deadline=e.deadline)]

    @handles(Match.MovementResolved)
    def movement_resolved(self, e: Match.MovementResolved, tracking: Tracking) -> list[Statement]:
        return [_update_match(e.originator_id, movement=e.movement + 1, deadline=None)]

    @handles(Match.Paused)
    def paused(self, e: Match.Paused, tracking: Tracking) -> list[Statement]:
        """A paused match has no running deadline (its resume sets the shifted one)."""
        return [_update_match(e.originator_id, deadline=None)]

    @handles(Match.Finished)
    def finished(self, e: Match.Finished, tracking: Tracking) -> list[Statement]:
        return [
            _update_match(
                e.originator_id,
                status="finished",
                finished_at=e.timestamp,
                result=e.outcome["result"],
                deadline=None,
                rematch_due=asks_rematch(e.outcome),
            ),
            (
                "UPDATE {match_list} SET finished_version = COALESCE(finished_version, :version), "
                "finished_chain = COALESCE(finished_chain, :chain) WHERE match_id = :match_id",
                {"match_id": e.originator_id, "version": e.originator_version, "chain": e.chain},
            ),
        ]

    @handles(Match.Corrected)
    def corrected(self, e: Match.Corrected, tracking: Tracking) -> list[Statement]:
        """A correction restarts the match before the corrected close (its timeline's
        events then update the row as usual); the first Finished stays recorded."""
        restart = e.restart
        return [
            _update_match(
                e.originator_id,
                status="started",
                movement=restart["movement"],
                deadline=None if restart["paused"] else _instant(restart["deadline"]),
                finished_at=None,
                result=None,
                rematch_due=False,
            )
        ]

    @handles(Match.Voided)
    def voided(self, e: Match.Voided, tracking: Tracking) -> list[Statement]:
        return [_update_match(e.originator_id, status="void", deadline=None, rematch_due=False)]

    @handles(Match.DisputeFiled)
    def dispute_filed(self, e: Match.DisputeFiled, tracking: Tracking) -> list[Statement]:
        return [
            (
                "UPDATE {match_list} SET open_disputes = open_disputes + 1 "
                "WHERE match_id = :match_id",
                {"match_id": e.originator_id},
            )
        ]

    @handles(Match.DisputeRuled)
    def dispute_ruled(self, e: Match.DisputeRuled, tracking: Tracking) -> list[Statement]:
        return [
            (
                "UPDATE {match_list} SET open_disputes = open_disputes - 1, "
                "ruled_disputes = ruled_disputes + 1 WHERE match_id = :match_id",
                {"match_id": e.originator_id},
            )
        ]

    @handles(Match.ReplayOf)
    def rematch_created(self, e: Match.ReplayOf, tracking: Tracking) -> list[Statement]:
        """The rematch exists (its ReplayOf is saved with its Created): none is due (DW-5)."""
        return [_update_match(UUID(e.original_id), rematch_due=False)]


class Deadlines(ReadModel):
    """One row per movement that got a deadline: when it is due, and whether it closed.

    A movement that re-arms ("periodic") gets its row only once an order is pending
    ("armed"): until then no deadline of it is due, so the sweep never finds it.
    An order that makes its movement ready (every owing seat has ordered, early
    close) marks the row ready: due now, so that a resolution lost in a crash
    between the order and its resolution is the next sweep's.
    """

    name = "deadlines"

    @handles(Match.DeadlineSet)
    def deadline_set(self, e: Match.DeadlineSet, tracking: Tracking) -> list[Statement]:
        key = {"match_id": e.originator_id, "movement": e.movement, "due_at": e.deadline}
        if e.reason == "periodic":  # waits for an order: not due until "armed"
            return []
        if e.reason in ("opened", "armed", "resumed"):
            return [(DUE_AT, key)]
        return [(EXTEND, key)]  # "extended", "referee": a movement already due at some instant

    @handles(Match.OrderSubmitted)
    def order_submitted(self, e: Match.OrderSubmitted, tracking: Tracking) -> list[Statement]:
        if not e.ready:
            return []
        key = {"match_id": e.originator_id, "movement": e.movement, "due_at": e.received_at}
        return [(READY, key)]

    @handles(Match.Paused)
    def paused(self, e: Match.Paused, tracking: Tracking) -> list[Statement]:
        """A paused movement is due at no instant: its row goes until the resume sets the
        shifted deadline again (so the sweep never finds it meanwhile)."""
        return [
            (
                "DELETE FROM {deadlines} WHERE match_id = :match_id AND movement = :movement",
                {"match_id": e.originator_id, "movement": e.movement},
            )
        ]

    @handles(Match.Resumed)
    def resumed(self, e: Match.Resumed, tracking: Tracking) -> list[Statement]:
        """A movement every owing seat ordered during the pause is due at the resume."""
        if not e.ready:
            return []
        key = {"match_id": e.originator_id, "movement": e.movement, "due_at": e.timestamp}
        return [(READY, key)]

    @handles(Match.MovementClosed)
    def movement_closed(self, e: Match.MovementClosed, tracking: Tracking) -> list[Statement]:
        return [
            (
                "UPDATE {deadlines} SET closed = TRUE, closed_at = :at "
                "WHERE match_id = :match_id AND movement = :movement",
                {"match_id": e.originator_id, "movement": e.movement, "at": e.timestamp},
            )
        ]

    @handles(Match.Finished)
    def finished(self, e: Match.Finished, tracking: Tracking) -> list[Statement]:
        return [_close_every_movement(e.originator_id, e.timestamp)]

    @handles(Match.Voided)
    def voided(self, e: Match.Voided, tracking: Tracking) -> list[Statement]:
        """A void match plays no more: as when it finishes."""
        return [_close_every_movement(e.originator_id, e.timestamp)]

    @handles(Match.Corrected)
    def corrected(self, e: Match.Corrected, tracking: Tracking) -> list[Statement]:
        """A correction reopens the corrected movement at its deadline then (none while
        paused) and forgets the later movements' rows: the new timeline sets them."""
        restart, key = e.restart, {"match_id": e.originator_id, "movement": e.movement}
        statements: list[Statement] = [
            (
                "DELETE FROM {deadlines} WHERE match_id = :match_id AND movement >= :movement",
                key,
            )
        ]
        if restart["deadline"] is not None and restart["paused"] is None:
            statements.append((DUE_AT, {**key, "due_at": _instant(restart["deadline"])}))
        return statements


class Scoreboards(ReadModel):
    """The scores after each resolved movement: per seat (with its rank) and per team."""

    name = "scoreboards"

    @handles(Match.MovementResolved)
    def movement_resolved(self, e: Match.MovementResolved, tracking: Tracking) -> list[Statement]:
        key = {"match_id": e.originator_id, "movement": e.movement}
        ranking = [int(seat) for seat in e.outcome.get("ranking", [])]
        statements: list[Statement] = [
            (
                "INSERT INTO {scoreboard_seats} (match_id, movement, seat, score, rank) "
                "VALUES (:match_id, :movement, :seat, :score, :rank)",
                {
                    **key,
                    "seat": int(seat),
                    "score": score,
                    "rank": ranking.index(int(seat)) + 1
                    if int(seat) in ranking
                    else len(ranking) + 1,
                },
            )
            for seat, score in e.outcome.get("scores", {}).items()
        ]
        statements += [
            (
                "INSERT INTO {scoreboard_teams} (match_id, movement, team, score) "
                "VALUES (:match_id, :movement, :team, :score)",
                {**key, "team": team, "score": score},
            )
            for team, score in e.outcome.get("team_scores", {}).items()
        ]
        return statements

    @handles(Match.Corrected)
    def corrected(self, e: Match.Corrected, tracking: Tracking) -> list[Statement]:
        return _forget_scores(e, tracking)


def _close_every_movement(match_id: Any, at: datetime) -> Statement:
    """Returns the statement closing every open movement row of a match that plays no more."""
    return (
        "UPDATE {deadlines} SET closed = TRUE, closed_at = :at "
        "WHERE match_id = :match_id AND NOT closed",
        {"match_id": match_id, "at": at},
    )


def _forget_scores(e: Match.Corrected, tracking: Tracking) -> list[Statement]:
    """Returns the statements forgetting a corrected match's scores from the corrected
    movement on: its new timeline's resolutions replace them."""
    key = {"match_id": e.originator_id, "movement": e.movement}
    return [
        (f"DELETE FROM {{{table}}} WHERE match_id = :match_id AND movement >= :movement", key)
        for table in ("scoreboard_seats", "scoreboard_teams")
    ]


class Standings(ReadModel):
    """Wins, draws, losses and points per entrant (a player, else a seat name) and
    ruleset, over finished matches."""

    name = "standings"

    @handles(Player.Created)
    def player_created(self, e: Player.Created, tracking: Tracking) -> list[Statement]:
        """Keeps the player's name, which its rows show (rows counted before take it too)."""
        key = {"player_id": str(e.originator_id), "name": e.name}
        return [
            (
                "INSERT INTO {standings_players} (player_id, name) VALUES (:player_id, :name) "
                "ON CONFLICT (player_id) DO UPDATE SET name = excluded.name",
                key,
            ),
            ("UPDATE {standings} SET player = :name WHERE player_id = :player_id", key),
        ]

    @handles(Match.Created)
    def created(self, e: Match.Created, tracking: Tracking) -> list[Statement]:
        return [
            (
                "INSERT INTO {standings_matches} (match_id, ruleset) VALUES (:match_id, :ruleset)",
                {"match_id": e.originator_id, "ruleset": e.ruleset},
            )
        ]

    @handles(Match.SeatJoined)
    def seat_joined(self, e: Match.SeatJoined, tracking: Tracking) -> list[Statement]:
        player_id = e.player_id  # None: a name only (or a seat stored before players)
        return [
            (
                "INSERT INTO {standings_seats} (match_id, seat, player, player_id, entrant) "
                "VALUES (:match_id, :seat, :player, :player_id, :entrant)",
                {
                    "match_id": e.originator_id,
                    "seat": e.seat,
                    "player": e.name,
                    "player_id": player_id,
                    "entrant": entrant(e.name, player_id),
                },
            )
        ]

    @handles(Match.SeatAdded)
    def seat_added(self, e: Match.SeatJoined, tracking: Tracking) -> list[Statement]:
        """A seat joining the running match (B-Chess) stands like one joining before."""
        return self.seat_joined(e, tracking)

    @handles(Match.Finished)
    def finished(self, e: Match.Finished, tracking: Tracking) -> list[Statement]:
        return _count_results(e.originator_id, e.outcome, 1)

    @handles(Match.Corrected)
    def corrected(self, e: Match.Corrected, tracking: Tracking) -> list[Statement]:
        """A correction of a finished match takes the result that no longer stands out of
        the standings (the new timeline's Finished counts its own)."""
        if e.voided_outcome is None:
            return []
        return _count_results(e.originator_id, e.voided_outcome, -1)

    @handles(Match.Voided)
    def voided(self, e: Match.Voided, tracking: Tracking) -> list[Statement]:
        """A voided rematch's result, if it had finished, no longer counts."""
        if e.voided_outcome is None:
            return []
        return _count_results(e.originator_id, e.voided_outcome, -1)


def _count_results(match_id: Any, outcome: dict[str, Any], sign: int) -> list[Statement]:
    """Returns the statements adding (sign 1) or taking out (sign -1) a finished outcome's
    results for each seat of the match."""
    statements: list[Statement] = []
    for seat in sorted(int(s) for s in outcome.get("scores", {})):
        result = seat_result(outcome, seat)
        key = {"match_id": match_id, "seat": seat}
        statements += [
            (
                "UPDATE {standings_seats} SET result = :result "
                "WHERE match_id = :match_id AND seat = :seat",
                {**key, "result": result if sign > 0 else None},
            ),
            (
                ADD_RESULT,
                {
                    **key,
                    "played": sign,
                    "wins": sign * int(result == "win"),
                    "draws": sign * int(result == "draw"),
                    "losses": sign * int(result == "loss"),
                    "points": sign * POINTS[result],
                },
            ),
        ]
    if sign < 0:  # a player whose only result went has no standing
        statements.append(("DELETE FROM {standings} WHERE played = 0", {}))
    return statements


DUE_AT = (
    "INSERT INTO {deadlines} (match_id, movement, due_at, extensions, closed) "
    "VALUES (:match_id, :movement, :due_at, 0, FALSE) "
    "ON CONFLICT (match_id, movement) DO UPDATE SET due_at = excluded.due_at"
)
# the row may not exist yet (a movement that re-arms is armed after its first order)
READY = (
    "INSERT INTO {deadlines} (match_id, movement, due_at, extensions, closed, ready) "
    "VALUES (:match_id, :movement, :due_at, 0, FALSE, TRUE) "
    "ON CONFLICT (match_id, movement) DO UPDATE SET ready = TRUE"
)
EXTEND = (
    "UPDATE {deadlines} SET due_at = :due_at, extensions = extensions + 1 "
    "WHERE match_id = :match_id AND movement = :movement"
)
POINTS = {"win": WIN_POINTS, "draw": DRAW_POINTS, "loss": 0}
# a player's row shows its name (the seat's name if the log holds no such player)
ADD_RESULT = (
    "INSERT INTO {standings} AS s "
    "(ruleset, entrant, player, player_id, played, wins, draws, losses, points) "
    "SELECT m.ruleset, p.entrant, COALESCE(n.name, p.player), p.player_id, "
    ":played, :wins, :draws, :losses, :points "
    "FROM {standings_seats} p JOIN {standings_matches} m ON m.match_id = p.match_id "
    "LEFT JOIN {standings_players} n ON n.player_id = p.player_id "
    "WHERE p.match_id = :match_id AND p.seat = :seat "
    "ON CONFLICT (ruleset, entrant) DO UPDATE SET played = s.played + excluded.played, "
    "wins = s.wins + excluded.wins, draws = s.draws + excluded.draws, "
    "losses = s.losses + excluded.losses, points = s.points + excluded.points"
)

PROJECTIONS: tuple[type[ReadModel], ...] = (MatchList, Deadlines, Scoreboards, Standings)


def entrant(name: str, player_id: str | None) -> str:
    """Returns the standings key of a seat: its player's id if it named one, else its name."""
    return f"name:{name}" if player_id is None else f"player:{player_id}"


def seat_result(outcome: dict[str, Any], seat: int) -> str:
    """Returns "win", "draw" or "loss" for a seat of a finished match (module docstring)."""
    winners = [int(w) for w in outcome.get("winners", [])]
    if outcome.get("result") == "draw":
        return "draw" if not winners or seat in winners else "loss"
    return "win" if outcome.get("result") == "win" and seat in winners else "loss"


def _instant(text: str | None) -> datetime | None:
    """Returns an ISO 8601 instant a correction's restart carries, as a datetime."""
    return None if text is None else datetime.fromisoformat(text)


def _head_statement(match_id: Any, head: heads.Head) -> Statement:
    """Returns the statement moving the match list's head forward to `head`."""
    return (
        "UPDATE {match_list} SET head_version = :version, head_chain = :chain "
        "WHERE match_id = :match_id AND (head_version IS NULL OR head_version < :version)",
        {"match_id": match_id, "version": head[0], "chain": head[1]},
    )


def _update_match(match_id: Any, **columns: Any) -> Statement:
    """Returns an UPDATE of one match_list row setting the given columns."""
    assignments = ", ".join(f"{column} = :{column}" for column in columns)
    return (
        f"UPDATE {{match_list}} SET {assignments} WHERE match_id = :match_id",
        {**columns, "match_id": match_id},
    )
