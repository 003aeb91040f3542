"""The deadline tasks: thin, named, taking ids, each calling one service method.

- `workers.resolve_movement(match_id, movement)`: `Matches.resolve_isolated`,
  which re-checks the movement number and the deadline and records nothing
  once the movement has closed, so duplicates, redeliveries and races with the
  sweep give one resolution. A lost optimistic-concurrency race retries; any
  other failure is counted and, repeated, quarantines the match, which the
  sweep then leaves (service/quarantine.py).
- `workers.sweep_due()`: beat's sweep; queues one `resolve_movement` per
  movement `Matches.due_movements(now)` reports (a ready movement is due at
  once), creates the rematches a crash left missing, and records in the
  database when it last succeeded (service/health.py).

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
from typing import Any

from celery import Celery, shared_task

from service.errors import ConcurrentWriteError
from service.health import record_sweep
from service.mail.notices import SEND_NOTICES, NoticeSender
from service.mail.outbox import SEND_MAIL, TemporaryRelayError, send_through_relay, transport_for
from service.matches import Matches, connect
from service.results import Closing
from service.scheduling import RESOLVE_MOVEMENT, CeleryScheduler
from service.settings import Settings

REQUEUE_AFTER_SECONDS = 10.0  # the sweep queues a due movement again only after this

_lock = threading.Lock()
_services: dict[int, tuple[int, Matches]] = {}
_queued: dict[tuple[str, int], float] = {}


@shared_task(
    name="workers.resolve_movement",
    bind=True,
    autoretry_for=(ConcurrentWriteError,),
    retry_backoff=1,
    retry_backoff_max=10,
    retry_jitter=True,
    max_retries=5,
)
def resolve_movement(self: Any, match_id: str, movement: int) -> str:
    """Resolves `movement` of the match if it is due; says what happened ("nothing due"
    also when the resolution failed: the failure is counted and logged)."""
    return describe(service(self.app).resolve_isolated(match_id, movement))


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
        queued = _queue_due(self.app, matches)
        matches.create_missing_rematches()
    except Exception as error:
        with contextlib.suppress(Exception):  # a database that is down cannot count it
            record_sweep(matches.read_models, matches.clock(), error)
        raise
    record_sweep(matches.read_models, matches.clock())
    return queued


def _queue_due(app: Celery, matches: Matches) -> int:
    """Sends one resolve task per due movement not queued lately; returns how many."""
    queued = 0
    for due in matches.due_movements():
        key = (str(due.match_id), due.movement)
        if not _claim(key):
            continue
        app.send_task(RESOLVE_MOVEMENT, args=key, expires=REQUEUE_AFTER_SECONDS)
        queued += 1
    return queued


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
