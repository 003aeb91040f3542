"""The Matches application: the use cases of playing a match (load, call the domain, save).

Persistence comes from `service.settings` (DRTS_DATABASE_URL). The service
reads the clock and draws seeds, tokens and salts with `secrets`; the Match
aggregate only records. Writes use optimistic concurrency: a command that
loses a race reloads the match and decides again, so two callers resolving
the same movement give exactly one resolution. Reads are in service/views.py;
listings, due movements, scoreboards and standings read the read models
(service/readmodels/), which this application keeps caught up with its log.
Opening the application on a database upgrades it (SQLite) or refuses it
(PostgreSQL) unless it is at the latest migration (service/schema.py).
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, TypeVar
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError, JSONTranscoder, Recording
from eventsourcing.utils import get_topic

from domain.errors import DrtsError, InvalidDeadlineError, MovementClosedError, NotASeatError
from domain.integrity import commitment
from domain.match import Match, Receipt
from domain.rules.contract import JSON
from domain.table import DeadlinePassed
from service import phases, schema, views
from service.errors import (
    ConcurrentWriteError,
    InvalidCursorError,
    MatchNotFoundError,
    MissingTokenError,
)
from service.readmodels import queries
from service.readmodels.runner import ReadModels, read_models_for
from service.results import (
    ActionTaken,
    Closing,
    DueMovement,
    EventPage,
    NewMatch,
    NewSeat,
    OrderReceipt,
    Page,
)
from service.scheduling import NoScheduler, Scheduler, scheduler_for
from service.settings import Settings, load_settings
from service.transcodings import register_values

SNAPSHOT_INTERVAL = 25
MAX_ATTEMPTS = 10
POLL_SECONDS = 0.1  # how often a long-polling reader asks the store for a newer event
MAX_CURSOR = 2**62
IDEMPOTENCY_NAMESPACE = uuid5(NAMESPACE_URL, "https://drts/idempotency-keys")

T = TypeVar("T")


def utc_now() -> datetime:
    """Returns the current UTC instant."""
    return datetime.now(UTC)


class IdempotencyKey(Aggregate):
    """A client's idempotency key for create, pointing at the match it created."""

    class Created(Aggregate.Created):
        match_id: UUID

    @event(Created)
    def __init__(self, match_id: UUID) -> None:
        self.match_id = match_id

    @staticmethod
    def id_for(key: str) -> UUID:
        """Returns the aggregate id of a key (uuid5, so a retry finds it)."""
        return uuid5(IDEMPOTENCY_NAMESPACE, key)


class Matches(Application[UUID]):
    """Creates matches, seats players, takes orders, resolves movements, serves replays."""

    snapshotting_intervals: ClassVar[dict[Any, int]] = {Match: SNAPSHOT_INTERVAL}

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        clock: Callable[[], datetime] = utc_now,
        scheduler: Scheduler | None = None,
        operator_token: str | None = None,
    ) -> None:
        schema.prepare(env or {})
        super().__init__(env)
        self._read_models: ReadModels | None = None
        self.clock = clock
        self.scheduler: Scheduler = scheduler or NoScheduler()
        self.operator_token_hash = commitment(operator_token) if operator_token else None

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        """Registers eventsourcing's transcodings and those of the Match's typed values."""
        super().register_transcodings(transcoder)
        register_values(transcoder)

    # -- commands ---------------------------------------------------------------------------

    def create_match(
        self,
        ruleset: str,
        config: Mapping[str, JSON] | None = None,
        seats: int | None = None,
        idempotency_key: str | None = None,
        seed: str | None = None,
        deadline_seconds: int | None = None,
        preset: str | None = None,
        version: int | None = None,
    ) -> NewMatch:
        """Creates a match and returns its id and referee token; a retried key finds the first.

        The match is pinned to `version` of the ruleset (the latest for None);
        a `preset`'s values are expanded into the recorded config, under
        `config`'s own.
        """
        if idempotency_key is not None:
            earlier = self._keyed_match(idempotency_key)
            if earlier is not None:
                return NewMatch(earlier, None, created=False)
        token = secrets.token_urlsafe(32)
        match = Match.create(
            uuid4(),
            ruleset,
            dict(config or {}),
            seed or secrets.token_hex(32),
            commitment(token),
            self.clock(),
            seats,
            deadline_seconds,
            preset,
            version,
        )
        if idempotency_key is None:
            self.save(match)
            return NewMatch(match.id, token)
        key = IdempotencyKey._create(
            IdempotencyKey.Created, id=IdempotencyKey.id_for(idempotency_key), match_id=match.id
        )
        try:
            self.save(key, match)  # one transaction: the loser of a race stores neither
        except IntegrityError:
            return NewMatch(self._keyed_match(idempotency_key) or match.id, None, created=False)
        return NewMatch(match.id, token)

    def join(self, match_id: UUID | str, name: str) -> NewSeat:
        """Seats a player named `name`; returns the seat number and its token (shown once)."""
        token = secrets.token_urlsafe(32)
        seat = self._retrying(match_id, lambda m: m.join(name, commitment(token), self.clock()))
        return NewSeat(self.match_id(match_id), seat, token)

    def start(
        self, match_id: UUID | str, referee_token: str | None, state: JSON = None, movement: int = 1
    ) -> None:
        """Starts the match (the referee may give a starting state and movement number)."""
        self._retrying(
            match_id,
            lambda m: m.start(self._as_referee(m, referee_token), self.clock(), state, movement),
        )

    def reissue_seat_token(
        self, match_id: UUID | str, referee_token: str | None, seat: int
    ) -> NewSeat:
        """Gives a seat a new token (shown once) at the referee's request; the old one stops."""
        token = secrets.token_urlsafe(32)
        self._retrying(
            match_id,
            lambda m: m.reissue_seat_token(
                self._as_referee(m, referee_token), seat, commitment(token), self.clock()
            ),
        )
        return NewSeat(self.match_id(match_id), seat, token)

    def extend_deadline(
        self,
        match_id: UUID | str,
        referee_token: str | None,
        seconds: float | None = None,
        until: datetime | None = None,
        movement: int | None = None,
    ) -> datetime:
        """Moves the open movement's deadline later, by `seconds` or to `until`; returns it.

        The referee's (or the operator's) act, recorded as a DeadlineSet with
        reason "referee"; a near deadline gets its countdown task like any other.
        """
        if (seconds is None) == (until is None):
            raise InvalidDeadlineError("give either seconds to add or a new deadline (until)")
        if seconds is not None and not seconds > 0:
            raise InvalidDeadlineError(f"seconds to add must be positive, got {seconds}")

        def extend(match: Match) -> datetime:
            current = match.deadline or self.clock()
            deadline = until or current + timedelta(seconds=seconds or 0)
            match.extend_deadline(
                self._as_referee(match, referee_token),
                match.movement if movement is None else movement,
                deadline,
                self.clock(),
            )
            return deadline

        return self._retrying(match_id, extend)

    def act(
        self,
        match_id: UUID | str,
        referee_token: str | None,
        action: str,
        args: Mapping[str, JSON],
        reason: str,
    ) -> ActionTaken:
        """Takes one of the game's referee actions (referee or operator token), recorded as
        a RefereeActed event naming who acted and why; returns its steps and the outcome."""
        now, by = self.clock(), self._referee_name(referee_token)

        def act(match: Match) -> ActionTaken:
            token_hash = self._as_referee(match, referee_token)
            steps = match.act(token_hash, action, dict(args), reason, by, now)
            return ActionTaken(
                match.id,
                match.movement,
                action,
                match.version,
                steps,
                views.outcome_json(match.outcome),
            )

        with self._rematch_if_finished(match_id):
            return self._retrying(match_id, act)

    def submit_order(
        self,
        match_id: UUID | str,
        token: str | None,
        order: str | Mapping[str, JSON],
        source: str = "api",
        message_id: str | None = None,
        movement: int | None = None,
        resolve_when_ready: bool = True,
    ) -> OrderReceipt:
        """Takes an order from the seat holding `token`; a ready movement then resolves."""
        salt, now, token_hash = secrets.token_hex(16), self.clock(), self._seat_hash(token)

        def submit(match: Match) -> tuple[Receipt, bool]:
            receipt = match.submit_order(
                token_hash,
                order if isinstance(order, str) else dict(order),
                salt,
                now,
                source,
                message_id,
                movement,
            )
            return receipt, resolve_when_ready and receipt.ready

        with self._rematch_if_finished(match_id):
            receipt, ready = self._retrying(match_id, submit)
        closing = self.resolve(match_id, receipt.movement, now) if ready else None
        return OrderReceipt(
            self.match_id(match_id),
            receipt.seat,
            receipt.movement,
            receipt.digest,
            receipt.received_at,
            closing,
        )

    def resolve(
        self, match_id: UUID | str, movement: int, now: datetime | None = None
    ) -> Closing | None:
        """Resolves `movement` if it is due (deadline passed, or ready to close early); a
        match that finishes asking for a rematch then gets it (`create_rematch_if_due`).

        Idempotent: once the movement has closed, it returns None and records nothing
        (but still creates a rematch that is due and missing, as after a crash).
        """
        at = now or self.clock()

        def close(match: Match) -> tuple[Closing | None, bool]:
            passed = match.close_movement(movement, at)
            closing = None if passed is None else _closing(match, movement, passed)
            return closing, match.wants_rematch()

        closing, rematch_due = self._retrying(match_id, close)
        rematch_id = self.create_rematch_if_due(match_id) if rematch_due else None
        return None if closing is None else replace(closing, rematch_id=rematch_id)

    def create_rematch_if_due(self, match_id: UUID | str) -> UUID | None:
        """Creates the rematch of a match whose outcome asks for one (DW-5); returns its
        id, or None when no rematch is due.

        Idempotent: the drawn match first records the rematch's id (ReplayLinked); a
        second call, or one after a crash between the two saves, finds that id and
        creates the rematch only if it is missing.
        """
        now = self.clock()
        rematch_id = self._retrying(match_id, lambda m: m.link_rematch(uuid4(), now))
        if rematch_id is None:
            return None
        try:
            self._load(rematch_id)
        except MatchNotFoundError:
            original = self._load(match_id)
            rematch = Match.rematch(original, rematch_id, secrets.token_hex(32), now)
            with contextlib.suppress(IntegrityError):  # a racing caller created it
                self.save(rematch)
        return rematch_id

    def resolve_due(self, now: datetime | None = None) -> list[Closing]:
        """Resolves every movement due at `now`; returns what each resolution did."""
        at = now or self.clock()
        closings = (self.resolve(due.match_id, due.movement, at) for due in self.due_movements(at))
        return [closing for closing in closings if closing is not None]

    def referee_seed(self, match_id: UUID | str, referee_token: str | None) -> str:
        """Returns the match seed to its referee before it is revealed (the look is recorded)."""

        def look(match: Match) -> str:
            match.check_referee(self._as_referee(match, referee_token))
            if not match.finished:
                match.note_secret_viewed(self._referee_name(referee_token), "seed", self.clock())
            return match.seed

        return self._retrying(match_id, look)

    def note_secret_viewed(self, match_id: UUID | str, what: str, viewer: str = "referee") -> None:
        """Records that the referee (or the operator) looked at secret data of a match."""
        self._retrying(match_id, lambda m: m.note_secret_viewed(viewer, what, self.clock()))

    # -- queries ----------------------------------------------------------------------------

    def summary(self, match_id: UUID | str) -> dict[str, JSON]:
        """Returns the public summary: ruleset, seats, status, open movement, deadline, outcome."""
        return views.summary(self.get_match(match_id))

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
            self.read_models, ruleset, status, limit, _cursor_position(cursor)
        )
        return Page(items, None if after is None else str(after))

    def scoreboard(self, match_id: UUID | str) -> dict[str, JSON]:
        """Returns the scores after each resolved movement, per seat and team (public)."""
        board = queries.scoreboard(self.read_models, self.match_id(match_id))
        if board is None:
            raise MatchNotFoundError(f"no match with id {str(match_id)!r}")
        return board

    def standings(
        self, ruleset: str | None = None, limit: int = 100, cursor: str | None = None
    ) -> Page:
        """Returns a page of standings (wins, draws, losses, points per player name and
        ruleset over finished matches), best first within each ruleset.
        """
        items, offset = queries.standing_rows(
            self.read_models, ruleset, limit, _cursor_position(cursor)
        )
        return Page(items, None if offset is None else str(offset))

    def state(
        self,
        match_id: UUID | str,
        movement: int | None = None,
        phase: int | None = None,
        token: str | None = None,
        seat: int | None = None,
    ) -> dict[str, JSON]:
        """Returns the state when `movement` was open (now by default), or after phase
        `phase` of its resolution (service/phases.py: 0 is the state it started from).

        Spectators and seats get the ruleset's view; the referee gets the full
        dumped state, or a seat's view when asking for `seat` (a seat may ask
        only for its own). A seat looking now also gets its own pending orders
        (`orders`). A phase without a movement is one of the open movement,
        which has none yet (MovementNotResolvedError).
        """
        match = self.get_match(match_id)
        looker = self.viewer(match, token)
        viewer = views.seat_view_of(match, looker, seat)
        if phase is not None:
            at = match.movement if movement is None else movement
            return phases.phase_state(self, match, at, phase, viewer)
        version = views.version_at(match, movement)
        past = self._at_version(match, version)
        # a seat (by its own token) looking now sees its own pending orders with the board
        own = (
            views.pending_orders(match, looker.seat)
            if (looker.seat is not None and past is match)
            else []
        )
        return {
            "match_id": str(match.id),
            "movement": movement or match.movement,
            "phase": None,
            "phase_name": None,
            "phases": [],
            "version": version,
            "state": views.state_view(past, viewer),
            "steps": [],
            "outcome": views.outcome_json(past.outcome),
            "orders": own,
        }

    def scores(self, match_id: UUID | str, movement: int | None = None) -> dict[str, JSON]:
        """Returns the outcome (scores, ranking, result) when `movement` was open, or now."""
        match = self.get_match(match_id)
        version = views.version_at(match, movement)
        past = self._at_version(match, version)
        return {
            "match_id": str(match.id),
            "movement": movement or match.movement,
            "outcome": views.outcome_json(past.outcome),
        }

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
    ) -> list[dict[str, JSON]]:
        """Returns the events in their public form; sealed values only where the viewer may see."""
        match = self.get_match(match_id)
        return views.event_log(self, match, self.viewer(match, token), after)

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
        viewer = self.viewer(match, token)
        if match.version <= after and wait > 0 and self.wait_for_events(match.id, after, wait):
            match = self.get_match(match.id)
        items = views.event_log(self, match, viewer, after, limit + 1)
        more = len(items) > limit
        items = items[:limit]
        return EventPage(
            match.id,
            items,
            int(items[-1]["version"]) if more else None,
            max([match.version, *(int(i["version"]) for i in items)]),
        )

    def wait_for_events(self, match_id: UUID, after: int, seconds: float) -> bool:
        """Waits until the match has an event after version `after`, or `seconds` pass.

        One indexed query every POLL_SECONDS; returns whether a newer event came.
        """
        give_up = time.monotonic() + seconds
        while not self.recorder.select_events(match_id, gt=after, limit=1):
            left = give_up - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(POLL_SECONDS, left))
        return True

    def pending_orders(self, match_id: UUID | str, token: str | None) -> list[dict[str, JSON]]:
        """Returns the open movement's orders: a seat's own, or every seat's to the referee
        (whose look at unrevealed orders is recorded).
        """
        match = self.get_match(match_id)
        if token is None:
            raise MissingTokenError(f"the orders of match {match.id} need a seat or referee token")
        viewer = self.viewer(match, token)
        orders = views.pending_orders(match, viewer.seat)
        if viewer.referee and orders:
            self.note_secret_viewed(match.id, "open orders", viewer.name)
        return orders

    def replay(self, match_id: UUID | str, token: str | None = None) -> views.ReplayReport:
        """Replays the match from its first event and checks it against the stored match."""
        match = self.get_match(match_id)
        return views.replay(self, match.id, self.viewer(match, token))

    def verify_chain(self, match_id: UUID | str) -> views.ChainReport:
        """Verifies the chain and seals of every stored event; names the first bad one."""
        return views.verify(self, self.match_id(match_id))

    def get_match(self, match_id: UUID | str, version: int | None = None) -> Match:
        """Returns the match (at a past version if given); raises MatchNotFoundError."""
        try:
            match: object = self.repository.get(self.match_id(match_id), version=version)
        except AggregateNotFoundError:
            raise MatchNotFoundError(f"no match with id {str(match_id)!r}") from None
        if not isinstance(match, Match):
            raise MatchNotFoundError(f"no match with id {str(match_id)!r}")
        return match

    def match_ids(self) -> Iterator[UUID]:
        """Yields the id of every match in the store, oldest first.

        A full scan of the event log's Created notifications: the read-model
        issue replaces it with a match list table.
        """
        return (match_id for _, match_id in self._created_since(1))

    def viewer(self, match: Match, token: str | None) -> views.Viewer:
        """Returns who holds the token: the referee (or operator), a seat, or anyone (None)."""
        if token is None:
            return views.Viewer()
        if self.is_operator(token):
            return views.Viewer(referee=True, name="operator")
        return views.viewer_of(match, commitment(token))

    def is_operator(self, token: str | None) -> bool:
        """Returns whether the token is the operator token configured at start-up."""
        return token is not None and commitment(token) == self.operator_token_hash

    def due_movements(self, now: datetime | None = None) -> list[DueMovement]:
        """Returns the open movements whose deadline has passed at `now`, earliest first
        (one indexed query of the deadlines read model).
        """
        return [
            DueMovement(due.match_id, due.movement, due.due_at)
            for due in queries.due(self.read_models, now or self.clock())
        ]

    @property
    def read_models(self) -> ReadModels:
        """Returns the read models of this store (made on first use)."""
        if self._read_models is None:
            self._read_models = read_models_for(self)
        return self._read_models

    def close(self) -> None:
        """Stops following the log and closes the store."""
        if self._read_models is not None:
            self._read_models.close()
        super().close()

    @staticmethod
    def match_id(match_id: UUID | str) -> UUID:
        """Returns a match id as a UUID; raises MatchNotFoundError for a malformed one."""
        if isinstance(match_id, UUID):
            return match_id
        try:
            return UUID(match_id)
        except ValueError:
            raise MatchNotFoundError(f"no match with id {match_id!r} (not a UUID)") from None

    # -- private ----------------------------------------------------------------------------

    def _retrying(self, match_id: UUID | str, command: Callable[[Match], T]) -> T:
        """Loads the match, runs the command, saves; reloads and retries on a lost race.

        Events recorded before the command raises (a rejected order) are saved too.
        """
        for _ in range(MAX_ATTEMPTS):
            match = self._load(match_id)
            try:
                result = command(match)
            except DrtsError:
                if self._saved(match):
                    raise
                continue
            if self._saved(match):
                return result
        raise ConcurrentWriteError(f"match {match_id} kept changing under {MAX_ATTEMPTS} attempts")

    def _notify(self, recordings: list[Recording[UUID]]) -> None:
        """Asks the scheduler to resolve each deadline just stored (whoever stored it: a
        command, a rematch, a retried save)."""
        for recording in recordings:
            new = recording.domain_event
            if isinstance(new, Match.DeadlineSet) and new.reason != "periodic":
                # a movement that re-arms waits for an order; its arming asks for the task
                self.scheduler.deadline_set(
                    new.originator_id, new.movement, new.deadline, self.clock()
                )

    @contextlib.contextmanager
    def _rematch_if_finished(self, match_id: UUID | str) -> Iterator[None]:
        """Creates a rematch that became due when a command refused as too late (the match
        is over: MovementClosedError) had first let the due deadline pass and finish it."""
        try:
            yield
        except MovementClosedError:
            self.create_rematch_if_due(match_id)
            raise

    def _saved(self, match: Match) -> bool:
        """Saves the match's new events; returns False if another writer got there first."""
        if not match.pending_events:
            return True
        try:
            self.save(match)
        except IntegrityError:
            return False
        return True

    def _as_referee(self, match: Match, token: str | None) -> str:
        """Returns the token hash the match checks for its referee (the operator acts as one)."""
        if token is None:
            raise MissingTokenError(f"match {match.id}: this needs the referee token")
        return match.referee_token_hash if self.is_operator(token) else commitment(token)

    def _referee_name(self, token: str | None) -> str:
        return "operator" if self.is_operator(token) else "referee"

    def _seat_hash(self, token: str | None) -> str:
        """Returns the hash of a seat token; raises for none, or for the operator's."""
        if token is None:
            raise MissingTokenError("an order needs the token of the seat that sends it")
        if self.is_operator(token):
            raise NotASeatError("the operator token holds no seat: send orders with a seat token")
        return commitment(token)

    def _created_since(self, start: int) -> Iterator[tuple[int, UUID]]:
        """Yields (log position, match id) of every Created event from position `start` on."""
        topic = get_topic(Match.Created)
        while True:
            notes = self.recorder.select_notifications(start=start, limit=500, topics=[topic])
            yield from ((note.id, UUID(str(note.originator_id))) for note in notes)
            if len(notes) < 500:
                return
            start = notes[-1].id + 1

    def _at_version(self, match: Match, version: int) -> Match:
        """Returns the match as it was at `version` (itself when that is its latest)."""
        return match if version == match.version else self.get_match(match.id, version)

    def _load(self, match_id: UUID | str) -> Match:
        return self.get_match(match_id)

    def _keyed_match(self, idempotency_key: str) -> UUID | None:
        try:
            key: IdempotencyKey = self.repository.get(IdempotencyKey.id_for(idempotency_key))
        except AggregateNotFoundError:
            return None
        return UUID(str(key.match_id))


def connect(
    settings: Settings | None = None,
    clock: Callable[[], datetime] = utc_now,
    scheduler: Scheduler | None = None,
) -> Matches:
    """Returns the Matches application on the configured store (keep the reference).

    Unless given a scheduler, it sends countdown tasks when DRTS_BROKER_URL is set.
    """
    settings = settings or load_settings()
    return Matches(
        env=settings.event_store_env(),
        clock=clock,
        scheduler=scheduler or scheduler_for(settings),
        operator_token=settings.operator_token,
    )


def _cursor_position(cursor: str | None) -> int:
    """Returns the position a listing cursor names (0: the start); raises InvalidCursorError."""
    if cursor is None:
        return 0
    if not (cursor.isascii() and cursor.isdigit()) or not 1 <= int(cursor) <= MAX_CURSOR:
        raise InvalidCursorError(f"cursor {cursor!r} is not one this listing gave out")
    return int(cursor)


def _closing(match: Match, movement: int, passed: DeadlinePassed) -> Closing:
    return Closing(
        match.id,
        movement,
        passed.strikes,
        passed.forfeited,
        passed.resolution is not None,
        passed.steps,
        match.finished,
    )
