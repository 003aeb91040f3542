"""Beat's scheduler: Celery's PersistentScheduler, living through a broker that goes away.

`drts beat` (and `drts run`'s beat) use `Scheduler` (the app's `beat_scheduler`).
When the broker is down at start, beat waits for it (the settings of
workers/broker.py: retries without end, 2, 4, 6 ... s apart, then every 30 s)
and says so once. When the broker goes away later, a send that fails is not
tried again at every tick: the entries that fall due are skipped (the next
sweep sweeps everything) until a retry time that backs off from 1 s to
MAX_BACKOFF_SECONDS; the log says once that sends fail, with the error, and
once that they work again, with how long they failed. Any other error of a
send is logged as Celery logs it, every time.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery.beat import PersistentScheduler, ScheduleEntry
from kombu.exceptions import OperationalError

logger = logging.getLogger("celery.beat")
FIRST_BACKOFF_SECONDS = 1.0
MAX_BACKOFF_SECONDS = 16.0


class Outage:
    """The broker's state as beat's sends see it: since when sends fail, when to try again."""

    def __init__(self) -> None:
        self.since: float | None = None
        self.retry_at = 0.0
        self.backoff = FIRST_BACKOFF_SECONDS
        self.skipped = 0

    def should_wait(self, now: float) -> bool:
        """Returns whether a send due at `now` is skipped (the broker failed, retry later)."""
        if self.since is None or now >= self.retry_at:
            return False
        self.skipped += 1
        return True

    def failed(self, now: float, error: BaseException) -> None:
        """Notes a send that failed for want of the broker; logs the first of an outage."""
        if self.since is None:
            self.since = now
            logger.error(
                "beat: cannot send to the broker (%s); due entries are skipped and sends "
                "retried with backoff (1 s doubling to %g s) until it answers; the next line "
                "about it says when it does.",
                error,
                MAX_BACKOFF_SECONDS,
            )
        else:
            self.backoff = min(self.backoff * 2, MAX_BACKOFF_SECONDS)
        self.retry_at = now + self.backoff

    def sent(self, now: float) -> None:
        """Notes a send that went through; logs the end of an outage."""
        if self.since is not None:
            logger.warning(
                "beat: the broker answers again, after %.1f s; %d due sends were skipped",
                now - self.since,
                self.skipped,
            )
        self.since, self.backoff, self.skipped = None, FIRST_BACKOFF_SECONDS, 0


class Scheduler(PersistentScheduler):
    """PersistentScheduler that says once when the broker goes away, and backs off."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.outage = Outage()
        super().__init__(*args, **kwargs)

    def apply_entry(self, entry: ScheduleEntry, producer: Any = None) -> None:
        """Sends the entry's task, unless the broker failed lately (see the module)."""
        now = time.monotonic()
        if self.outage.should_wait(now):
            logger.debug("beat: %s skipped: the broker failed lately", entry.name)
            return
        logger.info("Scheduler: Sending due task %s (%s)", entry.name, entry.task)
        try:
            self.apply_async(entry, producer=producer, advance=False)
        except Exception as error:
            cause = error.__cause__ or error.__context__
            if not isinstance(cause, self.broker_errors()):
                logger.error("Message Error: %s", error, exc_info=True)
                return
            self.outage.failed(time.monotonic(), cause)
        else:
            self.outage.sent(time.monotonic())

    def broker_errors(self) -> tuple[type[BaseException], ...]:
        """Returns the errors that mean the broker cannot be reached."""
        connection = self.connection
        return (OperationalError, *connection.connection_errors, *connection.channel_errors)

    def _ensure_connected(self) -> Any:
        """Connects beat's producer, waiting for a broker that is down (said once)."""
        said: list[bool] = []

        def failed(error: BaseException, interval: float) -> None:
            if not said:
                said.append(True)
                logger.error(
                    "beat: cannot connect to the broker (%s); retrying with backoff (2, 4, 6 "
                    "... s, then every 30 s) until it answers.",
                    error,
                )

        began = time.monotonic()
        connection = self.connection.ensure_connection(
            failed, self.app.conf.broker_connection_max_retries
        )
        if said:
            logger.warning("beat: connected to the broker, after %.1f s", time.monotonic() - began)
        return connection
