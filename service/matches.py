"""The Matches application: the use cases of playing a match (load, call the domain, save).

Persistence comes from `service.settings` (DRTS_DATABASE_URL). The service
reads the clock and draws seeds, tokens and salts with `secrets`; the Match
aggregate only records. Writes use optimistic concurrency: a command that
loses a race reloads the match and decides again, so two callers resolving
the same movement give exactly one resolution. Reads are in service/views.py.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ClassVar, TypeVar
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError, Recording
from eventsourcing.utils import get_topic

from domain.errors import DrtsError
from domain.integrity import commitment
from domain.match import Match, Receipt
from domain.rules.contract import JSON, Step
from domain.table import DeadlinePassed
from service import views
from service.errors import ConcurrentWriteError, MatchNotFoundError
from service.scheduling import NoScheduler, Scheduler, scheduler_for
from service.settings import Settings, load_settings

SNAPSHOT_INTERVAL = 25
MAX_ATTEMPTS = 10
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


@dataclass(frozen=True)
class NewMatch:
    """A created match; the referee token is shown once (None on an idempotent retry)."""

    match_id: UUID
    referee_token: str | None
    created: bool = True


@dataclass(frozen=True)
class NewSeat:
    """A joined seat; its token is shown once."""

    match_id: UUID
    seat: int
    token: str


@dataclass(frozen=True)
class Closing:
    """What resolving a due movement did: strikes, eliminations, an extension or a resolution."""

    match_id: UUID
    movement: int
    strikes: tuple[int, ...]
    eliminated: tuple[int, ...]
    resolved: bool
    steps: tuple[Step, ...]
    finished: bool


@dataclass(frozen=True)
class OrderReceipt:
    """An accepted order: seat, movement, receipt digest, and the closing it triggered if any."""

    match_id: UUID
    seat: int
    movement: int
    digest: str
    received_at: datetime
    closing: Closing | None = None


@dataclass(frozen=True)
class DueMovement:
    """A movement that should be resolved now: deadline passed or every owing seat ordered."""

    match_id: UUID
    movement: int
    deadline: datetime | None
    ready: bool


class Matches(Application[UUID]):
    """Creates matches, seats players, takes orders, resolves movements, serves replays."""

    snapshotting_intervals: ClassVar[dict[Any, int]] = {Match: SNAPSHOT_INTERVAL}

    def __init__(self, env: Mapping[str, str] | None = None,
                 clock: Callable[[], datetime] = utc_now,
                 scheduler: Scheduler | None = None) -> None:
        super().__init__(env)
        self.clock = clock
        self.scheduler: Scheduler = scheduler or NoScheduler()

    # -- commands ---------------------------------------------------------------------------

    def create_match(self, ruleset: str, config: Mapping[str, JSON] | None = None,
                     seats: int | None = None, idempotency_key: str | None = None,
                     seed: str | None = None, deadline_seconds: int | None = None) -> NewMatch:
        """Creates a match and returns its id and referee token; a retried key finds the first."""
        if idempotency_key is not None:
            earlier = self._keyed_match(idempotency_key)
            if earlier is not None:
                return NewMatch(earlier, None, created=False)
        token = secrets.token_urlsafe(32)
        match = Match.create(uuid4(), ruleset, dict(config or {}), seed or secrets.token_hex(32),
                             commitment(token), self.clock(), seats, deadline_seconds)
        if idempotency_key is None:
            self.save(match)
            return NewMatch(match.id, token)
        key = IdempotencyKey._create(IdempotencyKey.Created, id=IdempotencyKey.id_for(
            idempotency_key), match_id=match.id)
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

    def start(self, match_id: UUID | str, referee_token: str, state: JSON = None,
              movement: int = 1) -> None:
        """Starts the match (the referee may give a starting state and movement number)."""
        self._retrying(match_id, lambda m: m.start(commitment(referee_token), self.clock(),
                                                   state, movement))

    def submit_order(self, match_id: UUID | str, token: str, order: str | Mapping[str, JSON],
                     source: str = "api", message_id: str | None = None,
                     movement: int | None = None, resolve_when_ready: bool = True) -> OrderReceipt:
        """Takes an order from the seat holding `token`; a ready movement then resolves."""
        salt, now = secrets.token_hex(16), self.clock()

        def submit(match: Match) -> tuple[Receipt, bool]:
            receipt = match.submit_order(commitment(token), order if isinstance(order, str)
                                         else dict(order), salt, now, source, message_id,
                                         movement)
            return receipt, resolve_when_ready and match.is_ready()
        receipt, ready = self._retrying(match_id, submit)
        closing = self.resolve(match_id, receipt.movement, now) if ready else None
        return OrderReceipt(self.match_id(match_id), receipt.seat, receipt.movement,
                            receipt.digest, receipt.received_at, closing)

    def resolve(self, match_id: UUID | str, movement: int,
                now: datetime | None = None) -> Closing | None:
        """Resolves `movement` if it is due (deadline passed, or ready to close early).

        Idempotent: once the movement has closed, it returns None and records nothing.
        """
        at = now or self.clock()

        def close(match: Match) -> Closing | None:
            passed = match.close_movement(movement, at)
            return None if passed is None else _closing(match, movement, passed)
        return self._retrying(match_id, close)

    def resolve_due(self, now: datetime | None = None) -> list[Closing]:
        """Resolves every movement due at `now`; returns what each resolution did."""
        at = now or self.clock()
        closings = (self.resolve(due.match_id, due.movement, at) for due in self.due_movements(at))
        return [closing for closing in closings if closing is not None]

    def referee_seed(self, match_id: UUID | str, referee_token: str) -> str:
        """Returns the match seed to its referee before it is revealed (the look is recorded)."""
        def look(match: Match) -> str:
            match.check_referee(commitment(referee_token))
            if not match.finished:
                match.note_secret_viewed("referee", "seed", self.clock())
            return match.seed
        return self._retrying(match_id, look)

    def note_secret_viewed(self, match_id: UUID | str, what: str) -> None:
        """Records that the referee looked at secret data of a match."""
        self._retrying(match_id, lambda m: m.note_secret_viewed("referee", what, self.clock()))

    # -- queries ----------------------------------------------------------------------------

    def summary(self, match_id: UUID | str) -> dict[str, JSON]:
        """Returns the public summary: ruleset, seats, status, open movement, deadline, outcome."""
        return views.summary(self.get_match(match_id))

    def state(self, match_id: UUID | str, movement: int | None = None, step: int | None = None,
              token: str | None = None) -> dict[str, JSON]:
        """Returns the state when `movement` was open (now by default), or at its `step`-th step.

        At a step, `steps` lists that movement's resolution steps up to it; the
        state is the one the movement was resolved from. Spectators and seats
        get the ruleset's view; the referee gets the full dumped state.
        """
        match = self.get_match(match_id)
        viewer = views.viewer_of(match, self._hash(token))
        version = views.version_at(match, movement, step)
        past = match if version == match.version else self.get_match(match.id, version)
        return {"match_id": str(match.id), "movement": movement or match.movement, "step": step,
                "version": version, "state": views.state_view(past, viewer),
                "steps": list(past.steps[:step]) if step else [], "outcome": past.outcome}

    def scores(self, match_id: UUID | str, movement: int | None = None) -> dict[str, JSON]:
        """Returns the outcome (scores, ranking, result) when `movement` was open, or now."""
        match = self.get_match(match_id)
        version = views.version_at(match, movement, None)
        past = match if version == match.version else self.get_match(match.id, version)
        return {"match_id": str(match.id), "movement": movement or match.movement,
                "outcome": past.outcome}

    def event_log(self, match_id: UUID | str, token: str | None = None,
                  after: int = 0) -> list[dict[str, JSON]]:
        """Returns the events in their public form; sealed values only where the viewer may see."""
        match = self.get_match(match_id)
        return views.event_log(self, match, views.viewer_of(match, self._hash(token)), after)

    def pending_orders(self, match_id: UUID | str, token: str) -> list[dict[str, JSON]]:
        """Returns the token holder's own orders in the open movement."""
        match = self.get_match(match_id)
        return views.pending_orders(match, match.seat_of(commitment(token)))

    def replay(self, match_id: UUID | str) -> views.ReplayReport:
        """Replays the match from its first event and checks it against the stored match."""
        return views.replay(self, self.get_match(match_id).id)

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
        topic, start = get_topic(Match.Created), 1
        while True:
            notes = self.recorder.select_notifications(start=start, limit=500, topics=[topic])
            yield from (UUID(str(note.originator_id)) for note in notes)
            if len(notes) < 500:
                return
            start = notes[-1].id + 1

    def due_movements(self, now: datetime | None = None) -> list[DueMovement]:
        """Returns the movements due at `now` (deadline passed, or ready to close early).

        Scans every match for now; the deadlines read model (a later issue)
        will answer this with one indexed query.
        """
        at, due = now or self.clock(), []
        for match_id in self.match_ids():
            match = self.get_match(match_id)
            ready = match.is_ready()
            if ready or match.is_due(at):
                due.append(DueMovement(match_id, match.movement, match.deadline, ready))
        return due

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
        """Asks the scheduler to resolve each movement whose deadline was just stored."""
        for recording in recordings:
            new = recording.domain_event
            if isinstance(new, Match.DeadlineSet):
                self.scheduler.deadline_set(new.originator_id, new.movement, new.deadline,
                                            self.clock())

    def _saved(self, match: Match) -> bool:
        """Saves the match's new events; returns False if another writer got there first."""
        if not match.pending_events:
            return True
        try:
            self.save(match)
        except IntegrityError:
            return False
        return True

    @staticmethod
    def _hash(token: str | None) -> str | None:
        return None if token is None else commitment(token)

    def _load(self, match_id: UUID | str) -> Match:
        return self.get_match(match_id)

    def _keyed_match(self, idempotency_key: str) -> UUID | None:
        try:
            key: IdempotencyKey = self.repository.get(IdempotencyKey.id_for(idempotency_key))
        except AggregateNotFoundError:
            return None
        return UUID(str(key.match_id))


def connect(settings: Settings | None = None, clock: Callable[[], datetime] = utc_now,
            scheduler: Scheduler | None = None) -> Matches:
    """Returns the Matches application on the configured store (keep the reference).

    Unless given a scheduler, it sends countdown tasks when DRTS_BROKER_URL is set.
    """
    settings = settings or load_settings()
    return Matches(env=settings.event_store_env(), clock=clock,
                   scheduler=scheduler or scheduler_for(settings))


def _closing(match: Match, movement: int, passed: DeadlinePassed) -> Closing:
    return Closing(match.id, movement, passed.strikes, passed.forfeited,
                   passed.resolution is not None, passed.steps, match.finished)
