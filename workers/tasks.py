"""The deadline tasks: thin, named, taking ids, each calling one service method.

- `workers.resolve_movement(match_id, movement)`: the countdown task. It
  resolves its movement together with every other countdown task this worker
  holds whose deadline has passed too, in batches until none is left (a burst:
  `Matches.resolve_batch`, service/batches.py); those tasks, when their turn
  comes, find their movement taken and do nothing. Resolving re-checks
  the movement number and the deadline and records nothing once the movement
  has closed, so duplicates, redeliveries and races with the sweep give one
  resolution. A race lost ten times in a row is left to the sweep; any other
  failure is counted and, repeated, quarantines the match, which the sweep
  then leaves (service/quarantine.py).
- `workers.resolve_movements(due)`: resolves a batch of [match id, movement,
  deadline] the sweep found due (`Matches.resolve_batch`).
- `workers.sweep_due()`: beat's sweep; queues the movements
  `Matches.due_movements(now)` reports (a ready movement is due at once) in
  `resolve_movements` batches of up to BATCH_SIZE, creates the rematches a
  crash left missing, and records in the database when it last succeeded
  (service/health.py). A sweep that found nothing due loads the matches of the
  countdown tasks this worker holds that fall due soon (`warm_held`), so that a
  burst of deadlines finds them loaded.

- `workers.send_mail(message)`: sends one message (as text) through the relay of
  DRTS_SMTP_URL (service/mail/outbox.py); a relay that is down or says 4xx is tried
  again with backoff (for about an hour), a permanent refusal is logged and dropped.
- `workers.send_notices()`: beat's, every 10 s: one pass of the outbox of results,
  reminders and dispute notices (service/mail/notices.py), which keeps its own retries.

One Matches application per worker process and Celery app, made on first use
after the fork (a psycopg pool must not cross a fork).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from celery import Celery, shared_task
from celery.worker import state as worker_state

from service.health import record_sweep
from service.mail.notices import SEND_NOTICES, NoticeSender
from service.mail.outbox import SEND_MAIL, TemporaryRelayError, send_through_relay, transport_for
from service.matches import Matches, connect
from service.results import Closing, DueMovement
from service.scheduling import RESOLVE_MOVEMENT, RESOLVE_MOVEMENTS, CeleryScheduler
from service.settings import Settings

REQUEUE_AFTER_SECONDS = 10.0  # the sweep queues a due movement again only after this
# How often a worker process's sweep looks for the rematches a crash left missing (DW-5):
# the look catches the match list up with every event, costly in a burst of resolutions,
# and such a crash is rare. It looks when it found nothing due and the last look is
# REMATCH_REPAIR_SECONDS old, or when the last look is REMATCH_REPAIR_LATEST old.
REMATCH_REPAIR_SECONDS = 30.0
REMATCH_REPAIR_LATEST = 300.0
# A sweep that found nothing due loads the matches of the countdown tasks falling due within
# WARM_AHEAD_SECONDS, for at most WARM_BUDGET_SECONDS (a solo worker runs nothing else
# meanwhile): a burst of deadlines then costs each resolution a fast-forward, not a load.
WARM_AHEAD_SECONDS = 30.0
WARM_BUDGET_SECONDS = 0.25
BATCH_SIZE = 50  # movements in one batch the sweep sends (batches spread over the workers)
HELD_BATCH = 200  # held countdown tasks due together resolved in one batch
MAX_BATCHED = 20_000  # movements a process remembers having taken into a batch

_lock = threading.Lock()
_services: dict[int, tuple[int, Matches]] = {}
_queued: dict[tuple[str, int], float] = {}
_batched: dict[tuple[str, int], float] = {}


@dataclass(frozen=True)
class Due:
    """A movement a worker was asked to resolve, with its deadline when known."""

    match_id: UUID
    movement: int
    deadline: datetime | None


@shared_task(name=RESOLVE_MOVEMENT, bind=True)
def resolve_movement(self: Any, match_id: str, movement: int) -> str:
    """Resolves `movement` of the match if it is due, with the other countdown tasks this
    worker holds that are due too, in batches until none is left; says what happened to
    this one ("nothing due" also when the resolution failed: the failure is counted and
    logged).

    Why drain them all here: a worker runs the held tasks that fell due at most ten at
    a time, with up to a second's wait between (kombu's Hub.fire_timers), so a task
    left for its own turn may wait many seconds in a burst. Its turn then finds it taken.
    """
    key = (match_id, movement)
    if not _take([key]):
        return "nothing due: taken into an earlier batch"
    mine = Due(UUID(match_id), movement, eta_of(self.request.eta))
    drained = resolve_with_held(service(self.app), mine, self.request.id)
    account = describe(drained.closing)
    if drained.held:  # where the held tasks' resolutions show in the log: here
        account += f"; with it {drained.resolved} of {drained.held} held due movement(s) resolved"
    return account


@dataclass(frozen=True)
class Drained:
    """What a countdown task resolved: its own movement (`closing`, None: nothing due) and,
    of the `held` countdown tasks due too that it took, how many `resolved`."""

    closing: Closing | None
    held: int
    resolved: int


def resolve_with_held(matches: Matches, mine: Due, current: str) -> Drained:
    """Resolves the current task's movement with the held countdown tasks due too, then
    the rest of those in batches of HELD_BATCH until none is left."""
    with matches.countdowns_held():  # the next movements' tasks once every batch is saved
        closings = matches.resolve_batch([mine, *held_due(current, datetime.now(UTC))])
        while fellows := held_due(current, datetime.now(UTC), HELD_BATCH):
            closings += matches.resolve_batch(fellows)
    others = closings[1:]
    return Drained(closings[0], len(others), sum(c is not None for c in others))


@shared_task(name=RESOLVE_MOVEMENTS, bind=True)
def resolve_movements(self: Any, due: list[list[Any]]) -> str:
    """Resolves a batch of [match id, movement, deadline (ISO) or None]; says how many
    movements it resolved."""
    batch = [Due(UUID(match_id), movement, eta_of(at)) for match_id, movement, at in due]
    closings = service(self.app).resolve_batch(batch)
    return f"resolved {sum(c is not None for c in closings)} of {len(batch)} movements"


@shared_task(
    name=SEND_MAIL,
    bind=True,
    autoretry_for=(TemporaryRelayError, OSError),
    retry_backoff=2,
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=12,
)
def send_mail(self: Any, message: str) -> str:
    """Sends the message through the configured relay; says what happened."""
    settings: Settings = self.app.conf.drts_settings
    return send_through_relay(settings.smtp_url, message)


@shared_task(name=SEND_NOTICES, bind=True)
def send_notices(self: Any) -> str:
    """Sends the outbox's notices (results, reminders, dispute notices) that are due; says
    how many went, how many wait for the relay, how many it refused."""
    settings: Settings = self.app.conf.drts_settings
    sender = NoticeSender(
        service(self.app), transport_for(settings), settings.mail_reminder_seconds
    )
    done = sender.run()
    return f"notices: {done.sent} sent, {done.deferred} deferred, {done.failed} refused"


@shared_task(name="workers.sweep_due", bind=True)
def sweep_due(self: Any) -> int:
    """Queues a resolve task for every due movement not queued lately, creates the rematches
    a crash left missing, and records the sweep's success or failure in the database (read
    by /health and `drts run`); returns how many tasks it queued."""
    matches = service(self.app)
    try:
        due = matches.due_movements()
        queued = _queue_due(self.app, due)
        _repair_rematches(matches, idle=not due)
        if not due:
            warm_held(matches, datetime.now(UTC))
    except Exception as error:
        with contextlib.suppress(Exception):  # a database that is down cannot count it
            record_sweep(matches.read_models, matches.clock(), error)
        raise
    record_sweep(matches.read_models, matches.clock())
    return queued


_last_rematch_repair = [-REMATCH_REPAIR_LATEST]  # time.monotonic() of this process's last look


def _repair_rematches(matches: Matches, idle: bool) -> None:
    """Creates the rematches a crash left missing, when this process's last look is
    REMATCH_REPAIR_SECONDS old and the sweep is `idle`, or REMATCH_REPAIR_LATEST old."""
    waited = time.monotonic() - _last_rematch_repair[0]
    if waited >= REMATCH_REPAIR_LATEST or (idle and waited >= REMATCH_REPAIR_SECONDS):
        _last_rematch_repair[0] = time.monotonic()
        matches.create_missing_rematches()


def _queue_due(app: Celery, found: list[DueMovement]) -> int:
    """Sends the due movements not queued lately in batches; returns how many."""
    due = [d for d in found if _claim((str(d.match_id), d.movement))]
    for first in range(0, len(due), BATCH_SIZE):
        batch = [
            [str(d.match_id), d.movement, d.deadline and d.deadline.isoformat()]
            for d in due[first : first + BATCH_SIZE]
        ]
        app.send_task(RESOLVE_MOVEMENTS, args=(batch,), expires=REQUEUE_AFTER_SECONDS)
    return len(due)


def held_due(current: str, now: datetime, limit: int = HELD_BATCH - 1) -> list[Due]:
    """Takes the countdown tasks this worker process holds whose deadline has passed at
    `now` and that no batch took yet, but the current one, up to `limit`; returns their
    movements."""
    found = [
        due
        for task_id, due in held_countdowns()
        if task_id != current and (due.deadline is None or due.deadline <= now)
    ]
    taken = _take([(str(d.match_id), d.movement) for d in found], limit)
    return [d for d in found if (str(d.match_id), d.movement) in taken]


def warm_held(matches: Matches, now: datetime) -> int:
    """Loads the matches of the countdown tasks this worker process holds that fall due
    within WARM_AHEAD_SECONDS of `now`, soonest first, for at most WARM_BUDGET_SECONDS
    (`Matches.warm`); returns how many it loaded. When a burst of them falls due, resolving
    each then only fast-forwards it over the orders stored since (issue 31)."""
    horizon = now + timedelta(seconds=WARM_AHEAD_SECONDS)
    soon = sorted(
        (due.deadline, due.match_id)
        for _, due in held_countdowns()
        if due.deadline is not None and now < due.deadline <= horizon
    )
    match_ids = [match_id for _, match_id in soon[: matches.kept.size]]
    budget = timedelta(seconds=WARM_BUDGET_SECONDS)
    return matches.warm(match_ids, until=matches.clock() + budget) if match_ids else 0


def held_countdowns() -> Iterator[tuple[str, Due]]:
    """Yields (task id, movement) of each countdown task this worker process holds
    (celery.worker.state.requests: reserved, or waiting for their eta); a malformed one
    is skipped (its own run refuses it)."""
    for request in list(worker_state.requests.values()):
        if request.name != RESOLVE_MOVEMENT:
            continue
        try:
            match_id, movement = request.args
            yield request.id, Due(UUID(str(match_id)), int(movement), eta_of(request.eta))
        except (ValueError, TypeError):
            continue


def eta_of(value: datetime | str | None) -> datetime | None:
    """Returns a task's eta (a datetime or its ISO text) as an aware datetime (UTC when
    it carries no offset)."""
    if value is None:
        return None
    eta = value if isinstance(value, datetime) else datetime.fromisoformat(value)
    return eta if eta.tzinfo is not None else eta.replace(tzinfo=UTC)


def _take(keys: list[tuple[str, int]], limit: int | None = None) -> set[tuple[str, int]]:
    """Marks the movements as resolved by this process (in a batch) and returns those
    no batch had taken in the last while, the first `limit` of them if given: the
    others' tasks then do nothing."""
    now = time.monotonic()
    with _lock:
        if len(_batched) + len(keys) > MAX_BATCHED:
            for stale in [k for k, at in _batched.items() if now - at > REQUEUE_AFTER_SECONDS]:
                del _batched[stale]
            if len(_batched) + len(keys) > MAX_BATCHED:  # a forgotten one costs one load
                _batched.clear()
        fresh = [key for key in dict.fromkeys(keys) if key not in _batched][:limit]
        _batched.update(dict.fromkeys(fresh, now))
        return set(fresh)


def service(app: Celery) -> Matches:
    """Returns this process's Matches application for the Celery app (made after fork)."""
    with _lock:
        cached = _services.get(id(app))
        if cached is None or cached[0] != os.getpid():
            settings: Settings = app.conf.drts_settings
            matches = connect(settings, scheduler=CeleryScheduler(app, settings.countdown_seconds))
            cached = _services[id(app)] = (os.getpid(), matches)
        return cached[1]


def describe(closing: Closing | None) -> str:
    """Returns a one-line account of a closing, for the worker's log."""
    if closing is None:
        return "nothing due"
    done = [f"struck seat(s) {list(closing.strikes)}"] if closing.strikes else []
    done += [f"eliminated seat(s) {list(closing.eliminated)}"] if closing.eliminated else []
    done.append(
        f"resolved movement {closing.movement}"
        if closing.resolved
        else f"extended movement {closing.movement}"
    )
    return ", ".join(done) + (", match finished" if closing.finished else "")


def _claim(key: tuple[str, int]) -> bool:
    """Returns whether this process should queue `key` now (not queued in the last while)."""
    now = time.monotonic()
    with _lock:
        for stale in [k for k, at in _queued.items() if now - at > REQUEUE_AFTER_SECONDS]:
            del _queued[stale]
        if key in _queued:
            return False
        _queued[key] = now
        return True


def close_services(app: Celery) -> None:
    """Closes this process's Matches application for the Celery app, if it made one."""
    with _lock:
        cached = _services.pop(id(app), None)
    if cached is not None and cached[0] == os.getpid():
        cached[1].close()
