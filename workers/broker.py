"""How a worker lives through a broker that goes away: settings, a kombu fix, one log line.

A worker (and beat, workers/beat.py) must outlive a broker that restarts, or
that is down when it starts, on Redis and RabbitMQ alike (docs/operations.md,
"When the broker goes away"). Four parts:

- `RESILIENCE`: the Celery settings for it. Connection retries are unbounded
  (`broker_connection_max_retries=None`; Celery's default gives up after 100
  and the worker exits), on start-up too; kombu backs off 2, 4, 6 ... s, then
  every 30 s. A task running when the broker goes away is left to finish
  (`worker_cancel_long_running_tasks_on_connection_loss=False`): what it
  resolves is saved in the database, the truth about what is due; only its
  acknowledgement is lost, and a redelivery of an idempotent task does nothing.
- `AMQP`: the Celery app's broker classes with `CollectingConnection`, which
  works around a crash of celery 5.7 and kombu 5.7 when a Redis broker dies
  under a worker holding unacknowledged messages (its docstring says how).
- `Consumer`: the worker's consumer, quiet about the channels of a lost
  connection (its docstring says why).
- `OutageLog`: the worker's log says once that the broker cannot be reached
  and once when it is back, instead of a line at every retry.
"""

from __future__ import annotations

import logging
import time
import warnings
from typing import Any

import amqp.exceptions
import kombu.exceptions
import redis.exceptions
from celery import bootsteps
from celery.app.amqp import AMQP as CeleryAMQP
from celery.exceptions import CPendingDeprecationWarning
from celery.signals import celeryd_after_setup
from celery.worker.consumer import consumer as celery_consumer
from kombu.connection import Connection as KombuConnection

# What a dead broker raises, on Redis and RabbitMQ alike
BROKER_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    kombu.exceptions.OperationalError,
    amqp.exceptions.ConnectionError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
)
LOOP_CLEANUP = "Error cleaning up after event loop: %r"  # celery.worker.loops, at a loss

RESILIENCE: dict[str, Any] = {
    "broker_connection_retry_on_startup": True,  # a broker down at start: wait for it
    "broker_connection_retry": True,  # a broker lost later: reconnect
    "broker_connection_max_retries": None,  # for ever (Celery's default: 100, then exit)
    "broker_channel_error_retry": True,  # a channel error is recovered like a lost connection
    "worker_cancel_long_running_tasks_on_connection_loss": False,
}


@celeryd_after_setup.connect
def quiet_cancel_warning(**_: Any) -> None:
    """Ignores the warning Celery gives at every connection loss that the default of
    worker_cancel_long_running_tasks_on_connection_loss changes in Celery 6: drts sets it
    (RESILIENCE), so it says nothing to an operator. Run once the worker's logging is set
    up, because that setup makes Celery's deprecation warnings "always" shown."""
    warnings.filterwarnings(
        "ignore",
        message=r"(?s).*worker_cancel_long_running_tasks_on_connection_loss",
        category=CPendingDeprecationWarning,
    )


class CollectingConnection(KombuConnection):
    """A kombu Connection whose `collect()` also forgets its default channel.

    Why: when a Redis broker dies, celery 5.7's consumer (on_connection_error_
    after_connected, since celery/celery#10242 for #9705) calls `collect()` and
    then `close()` on the lost connection. kombu's redis Channel.close raises
    the connection error while it reads its pending BRPOP, before it marks
    itself closed; `collect()` swallows that, drops the transport's client,
    but keeps the default channel. `close()` then closes that channel a second
    time, and this time it restores the unacknowledged messages, which builds
    a Redis pool from the dropped client: `AttributeError: 'NoneType' object
    has no attribute 'hostname'` in kombu.transport.redis._connparams. It is
    not a connection error, so it escapes kombu's and celery's `ignore_errors`
    and the worker exits with "Unrecoverable error". The same AttributeError
    from a channel outliving its transport is celery/kombu#582 and #970; no
    upstream fix at kombu 5.7.0 / celery 5.7.0.

    After `collect()` the connection has no transport, so the channel cannot
    be used or closed any more: forgetting it is what `collect()` ("clear out
    references") means. The messages it held unacknowledged stay in the
    broker's unacked set and come back after the visibility timeout, or, on
    a broker restarted empty, are gone; either way beat's sweep finds every
    due movement in the database.
    """

    def collect(self, socket_timeout: float | None = None) -> None:
        """Drops the connection's resources without talking to the broker, the default
        channel included."""
        try:
            super().collect(socket_timeout)  # type: ignore[no-untyped-call]
        finally:
            self._default_channel = None


class AMQP(CeleryAMQP):
    """Celery's broker classes with `CollectingConnection` (Celery(amqp=...))."""

    Connection = CollectingConnection


class Consumer(celery_consumer.Consumer):
    """The worker's consumer (the app's `worker_consumer`), with the channels of a lost
    connection forgotten before the consumer's steps restart.

    Why: since celery/celery#10242 (5.7) the consumer drops a lost connection
    (`c.connection = None`) before it restarts its steps; the Gossip step then
    closes its channel through `ignore_errors(c.connection, ...)`, and closing
    it on a dead broker raises a connection error that `ignore_errors(None,
    ...)` cannot catch: "Error on restarting Gossip: AttributeError('NoneType'
    object has no attribute 'connection_errors')", with a traceback, at every
    outage. Those channels died with their connection; the steps make new
    ones on the next.
    """

    def on_close(self) -> None:
        """Clears what the lost connection held (Celery's), then the consumer steps'
        consumers when the connection is gone."""
        super().on_close()
        if self.connection is None:
            for step in self.blueprint.steps.values():
                if isinstance(step, bootsteps.ConsumerStep):
                    step.consumers = None


class OutageLog(logging.Filter):
    """Keeps a worker's log to one line when it loses (or cannot reach) its broker and one
    when it is connected again.

    Celery logs "Cannot connect to ...: Trying again in N seconds" at every
    retry; this filter, on the consumer's logger, lets the first such line of
    an outage through, rewritten to say that it retries with backoff until the
    broker answers, and drops the others; on the connection step's logger it
    adds to "Connected to ..." how long the broker was away and how many
    attempts failed. On the event loop's logger it drops "Error cleaning up
    after event loop" when the error is the dead broker's (a traceback at every
    RabbitMQ outage, of a socket already known to be gone). State is per
    process (one consumer per worker process).
    """

    def __init__(self) -> None:
        super().__init__()
        self.down_since: float | None = None  # when the broker was lost or first refused
        self.attempts = 0  # connection attempts that failed since
        self.said = False  # whether the one "cannot connect" line of this outage went out

    def filter(self, record: logging.LogRecord) -> bool:
        """Returns whether the record goes to the log (rewriting it if it is kept)."""
        args = record.args if isinstance(record.args, tuple) else (record.args,)
        if record.msg is celery_consumer.CONNECTION_ERROR:
            return self._failed(record, args)
        if record.msg == LOOP_CLEANUP and record.exc_info:
            return not isinstance(record.exc_info[1], BROKER_ERRORS)
        if args and args[0] is celery_consumer.CONNECTION_RETRY:  # "connection ... lost"
            self.down_since = self.down_since or time.monotonic()
        elif record.msg == "Connected to %s" and self.down_since is not None:
            away, attempts = time.monotonic() - self.down_since, self.attempts
            self.down_since, self.attempts, self.said = None, 0, False
            record.msg = "Connected to %s again, after %.1f s without the broker (%d attempts)"
            record.args = (*args, away, attempts)
        return True

    def _failed(self, record: logging.LogRecord, args: tuple[Any, ...]) -> bool:
        self.attempts += 1
        self.down_since = self.down_since or time.monotonic()
        if self.said:
            return False
        self.said = True
        record.msg = (
            "consumer: Cannot connect to %s: %s. Retrying with backoff (2, 4, 6 ... s, then "
            "every 30 s) until the broker answers; the next line about it says when it does."
        )
        record.args = args[:2]
        return True


OUTAGE_LOG = OutageLog()
OUTAGE_LOGGERS = (
    "celery.worker.consumer.consumer",
    "celery.worker.consumer.connection",
    "celery.worker.loops",
)


def install_outage_log() -> None:
    """Adds `OUTAGE_LOG` to the loggers of the worker's consumer (once per process)."""
    for name in OUTAGE_LOGGERS:
        logger = logging.getLogger(name)
        if OUTAGE_LOG not in logger.filters:
            logger.addFilter(OUTAGE_LOG)
