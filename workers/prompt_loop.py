"""A worker on RabbitMQ takes its next task at once, not up to 10 s late.

drts workers prefetch one task at a time and acknowledge it late
(workers/app.py); every deadline within DRTS_COUNTDOWN_SECONDS is a countdown
task (an eta) that the worker holds until its time, so kombu's hub has timers
scheduled nearly always, and then each turn of the hub polls for up to 10 s
(kombu.asynchronous.hub.Hub.fire_timers, max_delay). Two things the worker
needs before RabbitMQ sends it the next message can wait behind that poll
(celery 5.7.0, kombu 5.7.0, py-amqp 5.4.2):

- the acknowledgement of the task just run, and the reader's next read: both
  are put on the hub's ready list (`Consumer.call_soon_ack`, and
  kombu.transport.base.Transport._make_reader's `call_soon(_read)`) while
  the hub runs that list, and the hub runs them only after its next poll;
- the higher prefetch count for a countdown task just received
  (`QoS.increment_eventually`: a held task does not count against the
  prefetch), which asynloop sends only between two turns of the hub.

While the task is unacknowledged and the count not raised, RabbitMQ has used
up the worker's prefetch and sends nothing, so nothing wakes the poll: each
sweep, batch, tournament round or mail pass waited up to 10 s (a round robin
of 4 players, 8 short tasks, took 20 to 60 s instead of 1 s). Redis is not
affected: kombu applies its prefetch limit in the client and polls it
every turn.

`PromptLoop` is a consumer step that adds a tick to the hub; kombu runs the
ticks after the ready list and the timers, right before the poll. The tick
sends a pending prefetch count (as asynloop would a turn later), and when
callbacks are waiting on the ready list it wakes the hub, so that the poll
returns at once and the next turn runs them. Nothing else changes: the same
callbacks run in the same order on the loop's own thread. The blocking loop of
green pools (synloop) has no hub and updates the count before each read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import bootsteps


class PromptLoop(bootsteps.StartStopStep):
    """Keeps the worker's hub from polling while its next message is held back by it."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        self.tick: Callable[[], None] | None = None
        super().__init__(parent, **kwargs)

    def start(self, parent: Any) -> None:
        """Adds the tick to the consumer's hub (none in synloop: nothing to do)."""
        if parent.hub is None:
            return
        self.tick = lambda: before_poll(parent)
        parent.hub.on_tick.add(self.tick)

    def stop(self, parent: Any) -> None:
        """Removes the tick (the consumer restarts its steps after a lost connection)."""
        if self.tick is not None and parent.hub is not None:
            parent.hub.on_tick.discard(self.tick)
        self.tick = None

    shutdown = stop


def before_poll(consumer: Any) -> None:
    """Sends the consumer's prefetch count if it changed since it was last sent, and
    wakes the hub if callbacks wait on its ready list."""
    qos = getattr(consumer, "qos", None)
    if qos is not None and qos.prev != qos.value:
        qos.update()
    wake_if_ready(consumer.hub)


def wake_if_ready(hub: Any) -> None:
    """Makes the hub's coming poll return at once when its ready list is not empty.

    kombu's hub wakes itself only for callbacks added from another thread
    (`Hub.call_soon`); this reads its private `_ready` and `_waker`, so a kombu
    that renames them fails tests/workers/test_prompt_loop.py rather than
    stalling in silence.
    """
    waker = hub._waker
    if hub._ready and waker is not None:
        waker.wake()
