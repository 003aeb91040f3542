"""The worker's tasks: thin, named, taking ids, each calling one service function.

When work runs (draining the held countdown tasks, queueing the sweep's batches,
warming matches, pacing the rematch repair) is service/workpolicy.py's `WorkPolicy`,
one per worker process with its state; these bodies adapt Celery to it and to the
Matches application:

- `workers.resolve_movement(match_id, movement)`: the countdown task (`WorkPolicy.
  countdown`): resolves its movement with every other countdown task this worker holds
  whose deadline has passed too. Resolving re-checks the movement number and the
  deadline and records nothing once the movement has closed, so duplicates,
  redeliveries and races with the sweep give one resolution. A race lost ten times in a
  row is left to the sweep; any other failure is counted and, repeated, quarantines the
  match, which the sweep then leaves (service/usecases/quarantine.py).
- `workers.resolve_movements(due)`: resolves a batch of [match id, movement,
  deadline] the sweep found due (`Matches.resolve_batch`); a batch sent with an eta is
  the countdown task of movements due at one instant (`CeleryScheduler.deadlines_set`),
  run as `resolve_movement` runs for one (`WorkPolicy.countdown_batch`).
- `workers.sweep_due()`: beat's sweep (`WorkPolicy.sweep`): queues the movements
  `Matches.due_movements(now)` reports in `resolve_movements` batches, creates the
  rematches a crash left missing, warms the held matches falling due soon, and records
  in the database when it last succeeded (service/health.py).
- `workers.advance_tournament(tournament_id)`: takes every step of the tournament that
  is due (`Tournaments.advance`: results, matches, rounds, the finish). It is sent after
  a resolution task finds a tournament match finished, and the sweep advances every
  unfinished tournament as a backstop (a match finished by an order or a referee's act
  outside a worker); every step is decided afresh and saved with optimistic concurrency,
  so duplicates and redeliveries pair a round once (service/tournaments/).
- `workers.send_mail(message)`: sends one message (as text) through the relay of
  DRTS_SMTP_URL (service/channels/mail/outbox.py); a relay that is down or says 4xx is tried
  again with backoff (for about an hour), a permanent refusal is logged and dropped.
- `workers.send_notices()`: beat's, every 10 s: one pass of the outbox of results,
  reminders and dispute notices (service/channels/mail/notices.py), which keeps its own retries.

One Matches application and one WorkPolicy per worker process and Celery app, made on
first use after the fork (a psycopg pool must not cross a fork). With DRTS_FOLLOW_LOG=worker
(opt-in; the default is api) each worker process follows the log for the read models
(`follow_log`, started by workers/app.py once the worker is ready; on PostgreSQL one
process per database leads: service/readmodels/runner.py's Follower).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from celery import Celery, shared_task
from celery.worker import state as worker_state

from service.channels.mail.notices import SEND_NOTICES, NoticeSender
from service.channels.mail.outbox import (
    SEND_MAIL,
    TemporaryRelayError,
    send_through_relay,
    transport_for,
)
from service.matches import Matches, connect
from service.scheduling import RESOLVE_MOVEMENT, RESOLVE_MOVEMENTS, SWEEP_DUE, CeleryScheduler
from service.settings import Settings
from service.tournaments import ADVANCE_TOURNAMENT, Tournaments
from service.workpolicy import REQUEUE_AFTER_SECONDS, Batch, Due, WorkPolicy

logger = logging.getLogger(__name__)
_lock = threading.Lock()
# this process's (pid, Matches, WorkPolicy) for each Celery app (made after the fork)
_processes: dict[int, tuple[int, Matches, WorkPolicy]] = {}


@shared_task(name=RESOLVE_MOVEMENT, bind=True)
def resolve_movement(self: Any, match_id: str, movement: int) -> str:
    """Resolves `movement` of the match if it is due, with the held countdown tasks due
    too (`WorkPolicy.countdown`); says what happened to this one."""
    mine = Due(UUID(match_id), movement, eta_of(self.request.eta))
    said = policy(self.app).countdown(service(self.app), mine, self.request.id)
    tournaments_after(self.app, [match_id])
    return said


@shared_task(name=RESOLVE_MOVEMENTS, bind=True)
def resolve_movements(self: Any, due: list[list[Any]]) -> str:
    """Resolves a batch of [match id, movement, deadline (ISO) or None]; says how many
    movements it resolved. A batch with an eta is the countdown task of movements due at
    one instant (`CeleryScheduler.deadlines_set`), run as a countdown task of each
    (`WorkPolicy.countdown_batch`); without one, the sweep's."""
    batch = [Due(UUID(match_id), movement, eta_of(at)) for match_id, movement, at in due]
    if self.request.eta is not None:
        said = policy(self.app).countdown_batch(service(self.app), batch, self.request.id)
    else:
        closings = service(self.app).resolve_batch(batch)
        said = f"resolved {sum(c is not None for c in closings)} of {len(batch)} movements"
    tournaments_after(self.app, [str(d.match_id) for d in batch])
    return said


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


@shared_task(name=SWEEP_DUE, bind=True)
def sweep_due(self: Any) -> int:
    """Beat's sweep (`WorkPolicy.sweep`); returns how many movements it queued."""

    def send(batch: Batch) -> None:
        self.app.send_task(RESOLVE_MOVEMENTS, args=(batch,), expires=REQUEUE_AFTER_SECONDS)

    return policy(self.app).sweep(service(self.app), send)


@shared_task(name=ADVANCE_TOURNAMENT, bind=True)
def advance_tournament(self: Any, tournament_id: str) -> str:
    """Takes every step due of the tournament (`Tournaments.advance`); says which."""
    steps = Tournaments(service(self.app)).advance(tournament_id)
    return "; ".join(steps) or "nothing due"


def tournaments_after(app: Celery, match_ids: list[str]) -> None:
    """Sends `advance_tournament` for the tournament of each finished match given; a
    failed send is logged (the sweep advances the tournament anyway)."""
    tournaments = Tournaments(service(app))
    if not tournaments.ids():  # one query of the log: no tournament, no match to look at
        return
    for match_id in dict.fromkeys(match_ids):
        try:
            if not service(app).get_match(match_id).finished:
                continue
            found = tournaments.tournament_of(match_id)
            if found is not None:
                app.send_task(ADVANCE_TOURNAMENT, args=(str(found),))
        except Exception:
            logger.warning("no advance sent for match %s", match_id, exc_info=True)


def held_countdowns() -> Iterator[tuple[str, Due]]:
    """Yields (task id, movement) of each movement of the countdown tasks this worker
    process holds (celery.worker.state.requests: reserved, or waiting for their eta): a
    `resolve_movement` task's, and each of a `resolve_movements` batch with an eta (the
    countdown of movements due together). A malformed one is skipped (its own run
    refuses it)."""
    for request in list(worker_state.requests.values()):
        try:
            if request.name == RESOLVE_MOVEMENT:
                match_id, movement = request.args
                yield request.id, Due(UUID(str(match_id)), int(movement), eta_of(request.eta))
            elif request.name == RESOLVE_MOVEMENTS and request.eta is not None:
                eta = eta_of(request.eta)
                for match_id, movement, _ in request.args[0]:
                    yield request.id, Due(UUID(str(match_id)), int(movement), eta)
        except (ValueError, TypeError, IndexError):
            continue


def eta_of(value: datetime | str | None) -> datetime | None:
    """Returns a task's eta (a datetime or its ISO text) as an aware datetime (UTC when
    it carries no offset)."""
    if value is None:
        return None
    eta = value if isinstance(value, datetime) else datetime.fromisoformat(value)
    return eta if eta.tzinfo is not None else eta.replace(tzinfo=UTC)


def _process(app: Celery) -> tuple[int, Matches, WorkPolicy]:
    """Returns this process's Matches application and WorkPolicy for the Celery app."""
    with _lock:
        made = _processes.get(id(app))
        if made is None or made[0] != os.getpid():
            settings: Settings = app.conf.drts_settings
            matches = connect(settings, scheduler=CeleryScheduler(app, settings.countdown_seconds))
            made = _processes[id(app)] = (os.getpid(), matches, WorkPolicy(held_countdowns))
        return made


def service(app: Celery) -> Matches:
    """Returns this process's Matches application for the Celery app (made after fork)."""
    return _process(app)[1]


def policy(app: Celery) -> WorkPolicy:
    """Returns this process's WorkPolicy for the Celery app (made after fork)."""
    return _process(app)[2]


def follow_log(app: Celery) -> bool:
    """Starts this process's follower of the log for the read models (`ReadModels.start`:
    live on PostgreSQL, a timer on SQLite) when the settings give the workers that job
    (DRTS_FOLLOW_LOG=worker); returns whether they do. Idempotent."""
    settings: Settings = app.conf.drts_settings
    if settings.log_follower != "worker":
        return False
    service(app).read_models.start()
    return True


def close_services(app: Celery) -> None:
    """Closes this process's Matches application for the Celery app, if it made one."""
    with _lock:
        made = _processes.pop(id(app), None)
    if made is not None and made[0] == os.getpid():
        made[1].close()
