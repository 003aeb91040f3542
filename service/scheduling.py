"""The scheduling port: how the service asks for a movement to be resolved later.

The database is the truth about what is due (DESIGN.md, Time): beat's sweep
finds every due movement whatever happens to the broker. When a deadline is
set, the service also asks its scheduler for a countdown task that resolves
the movement at the deadline, cutting the lateness to the broker's own;
deadlines further away than `countdown_seconds` (kept below the broker's
visibility timeout, past which Redis would deliver the held task again) rely
on the sweep alone.

The service sends Celery tasks by name and never imports `workers/`:
`workers.resolve_movement(match_id, movement)` and `workers.sweep_due()`.

Deadlines stored together for the same instant (a worker's drain of a burst: every
match it resolved opens its next movement at the same intended instant) ask for one
task per COUNTDOWN_GROUP movements instead of one each (`ask_for_countdowns`): a
`workers.resolve_movements` batch with that eta, which a worker runs as the countdown
task of each of its movements. Why: sending a task costs about as much CPU as resolving
a movement (about 0.9 ms on Redis, issue 46, bench/deadlines.md), and a worker sending a
thousand at the end of its drain takes a core from the other worker's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol
from uuid import UUID

from celery import Celery

from service.settings import Settings

RESOLVE_MOVEMENT = "workers.resolve_movement"
RESOLVE_MOVEMENTS = "workers.resolve_movements"  # the sweep's batch; with an eta, a countdown
SWEEP_DUE = "workers.sweep_due"
QUEUE = "drts"
COUNTDOWN_GROUP = 50  # movements due at one instant in one countdown batch, at most

# a deadline stored: (match id, movement, deadline, now), as `Scheduler.deadline_set` takes
Countdown = tuple[UUID, int, datetime, datetime]

logger = logging.getLogger(__name__)


class Scheduler(Protocol):
    """Asks for work to be done later on behalf of the service."""

    def deadline_set(
        self, match_id: UUID, movement: int, deadline: datetime, now: datetime
    ) -> None:
        """Called after a deadline was stored: resolve `movement` at `deadline` if possible."""


class NoScheduler:
    """Schedules nothing: the sweep (or `drts match resolve-due`) finds due movements."""

    def deadline_set(
        self, match_id: UUID, movement: int, deadline: datetime, now: datetime
    ) -> None:
        """Does nothing."""


@dataclass
class RecordingScheduler:
    """Keeps what it was asked, for tests: (match id, movement, deadline) in order."""

    calls: list[tuple[UUID, int, datetime]] = field(default_factory=list)

    def deadline_set(
        self, match_id: UUID, movement: int, deadline: datetime, now: datetime
    ) -> None:
        """Records the request."""
        self.calls.append((match_id, movement, deadline))


class CeleryScheduler:
    """Sends `workers.resolve_movement` with `eta=deadline` for deadlines close enough.

    A failed send is logged and swallowed: the deadline is stored, so the
    sweep resolves the movement anyway, a sweep interval later.
    """

    def __init__(self, app: Celery, countdown_seconds: float = 600.0) -> None:
        self.app, self.horizon = app, timedelta(seconds=countdown_seconds)

    def deadline_set(
        self, match_id: UUID, movement: int, deadline: datetime, now: datetime
    ) -> None:
        """Sends the countdown task unless the deadline is beyond the horizon."""
        if deadline - now > self.horizon:
            return
        self._send(RESOLVE_MOVEMENT, (str(match_id), movement), deadline, f"match {match_id}")

    def deadlines_set(self, calls: Sequence[Countdown]) -> None:
        """Sends the countdown tasks of deadlines stored together: the movements due at one
        instant as `workers.resolve_movements` batches of up to COUNTDOWN_GROUP with that
        eta, a movement alone at its instant as `deadline_set` does (module docstring).
        Deadlines beyond the horizon are left to the sweep."""
        at_instant: dict[datetime, list[Countdown]] = {}
        for call in calls:
            if call[2] - call[3] <= self.horizon:
                at_instant.setdefault(call[2], []).append(call)
        for deadline, group in at_instant.items():
            for first in range(0, len(group), COUNTDOWN_GROUP):
                chunk = group[first : first + COUNTDOWN_GROUP]
                if len(chunk) == 1:
                    self.deadline_set(*chunk[0])
                    continue
                at = deadline.isoformat()
                due = [[str(match_id), movement, at] for match_id, movement, *_ in chunk]
                self._send(RESOLVE_MOVEMENTS, (due,), deadline, f"{len(chunk)} matches")

    def _send(self, name: str, args: tuple[object, ...], deadline: datetime, what: str) -> None:
        """Sends a countdown task with eta `deadline`; a broker failure is logged."""
        try:
            self.app.send_task(
                name,
                args=args,
                eta=deadline.astimezone(UTC),
                retry=True,
                retry_policy={"max_retries": 2, "interval_start": 0.1, "interval_step": 0.2},
            )
        except Exception:  # any broker failure: the sweep still finds the movements
            logger.warning(
                "countdown task for %s due at %s not sent; the sweep will resolve it",
                what,
                deadline.isoformat(),
                exc_info=True,
            )


def ask_for_countdowns(scheduler: Scheduler, calls: Sequence[Countdown]) -> None:
    """Asks the scheduler for the countdown tasks of deadlines stored together: in one go
    where it can group them (`deadlines_set`), else one by one."""
    grouped = getattr(scheduler, "deadlines_set", None)
    if grouped is not None:
        grouped(calls)
        return
    for call in calls:
        scheduler.deadline_set(*call)


def producer_app(settings: Settings) -> Celery:
    """Returns a Celery app that only sends tasks by name to the configured broker."""
    app = Celery("drts-producer", broker=settings.broker_url, set_as_current=False)
    app.conf.update(
        broker_connection_timeout=5,
        broker_connection_retry_on_startup=True,
        broker_transport_options=transport_options(settings),
        task_default_queue=QUEUE,
    )
    return app


def transport_options(settings: Settings) -> dict[str, Any]:
    """Returns the broker transport options (the SQLAlchemy transport takes none)."""
    if settings.broker_url.startswith(("redis", "rediss", "sentinel")):
        return {"visibility_timeout": settings.visibility_timeout}
    return {}


def celery_scheduler(
    settings: Settings, app_factory: Callable[[Settings], Celery] = producer_app
) -> CeleryScheduler:
    """Returns a scheduler sending countdown tasks to the configured broker."""
    return CeleryScheduler(app_factory(settings), settings.countdown_seconds)


def scheduler_for(settings: Settings) -> Scheduler:
    """Returns the Celery scheduler when DRTS_BROKER_URL is set, else one that does nothing."""
    return celery_scheduler(settings) if settings.broker_configured else NoScheduler()
