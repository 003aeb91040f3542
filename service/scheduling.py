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
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol
from uuid import UUID

from celery import Celery

from service.settings import Settings

RESOLVE_MOVEMENT = "workers.resolve_movement"
RESOLVE_MOVEMENTS = "workers.resolve_movements"  # a batch, sent by the sweep
SWEEP_DUE = "workers.sweep_due"
QUEUE = "drts"

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
        try:
            self.app.send_task(
                RESOLVE_MOVEMENT,
                args=(str(match_id), movement),
                eta=deadline.astimezone(UTC),
                retry=True,
                retry_policy={"max_retries": 2, "interval_start": 0.1, "interval_step": 0.2},
            )
        except Exception:  # any broker failure: the sweep still finds the movement
            logger.warning(
                "countdown task for match %s movement %s not sent; the sweep will resolve it",
                match_id,
                movement,
                exc_info=True,
            )


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
