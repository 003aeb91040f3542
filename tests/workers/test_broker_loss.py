"""The kombu crash behind issue 42's dead worker, on a real Redis of the test's own
(tests/support/brokers.py), and workers.broker.CollectingConnection, which avoids it.

The sequence is the one a worker goes through when its Redis dies
(celery/worker/consumer/consumer.py, on_connection_error_after_connected):
`collect()`, then `close()`, on a connection whose default channel has a BRPOP
pending and holds an unacknowledged message, beside another channel holding one
too. tests/end_to_end/test_broker_outage.py shows it with real `drts worker`s.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kombu import Consumer, Producer, Queue
from kombu.connection import Connection

from tests.support.brokers import PrivateBroker, private_broker
from workers.broker import CollectingConnection

pytestmark = pytest.mark.timeout(60)


LOST: list[Any] = []  # the channels of a test's lost connection


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[PrivateBroker]:
    own = private_broker("redis", tmp_path / "redis")
    own.start()
    yield own
    own.stop()
    for channel in LOST:  # kombu would restore their messages at exit, to a dead broker
        channel.qos._on_collect.cancel()
    LOST.clear()


def lose_broker_holding_messages(connection: Connection, broker: PrivateBroker) -> None:
    """Consumes one message on the default channel and one on another, unacknowledged,
    leaves the default channel waiting in BRPOP (as a worker's is), and kills Redis."""
    channels = [connection.default_channel, connection.channel()]
    LOST.extend(channels)
    for number, channel in enumerate(channels):
        queue = Queue(f"held-{number}", channel=channel)
        queue.declare()
        Producer(channel).publish({"n": number}, routing_key=queue.name)
        Consumer(channel, [queue], callbacks=[lambda body, message: None]).consume()
    for _ in channels:
        with contextlib.suppress(TimeoutError):  # nothing more came; the next BRPOP is sent
            connection.drain_events(timeout=1)
    assert all(len(channel.qos._delivered) == 1 for channel in channels)
    default = channels[0]
    if not default._in_poll:  # the poller's turn went to the other channel: wait on this one
        default._brpop_start()
    broker.kill()


def test_kombu_closing_a_collected_connection_raises_attribute_error(redis: PrivateBroker):
    """celery/kombu#582, #970 and celery 5.7's collect-then-close: if this stops raising,
    kombu fixed it and CollectingConnection (workers/broker.py) may go."""
    connection = Connection(redis.url)
    lose_broker_holding_messages(connection, redis)
    connection.collect()
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'hostname'"):
        connection.close()


def test_a_collected_connection_closes_quietly_after_its_broker_died(redis: PrivateBroker):
    connection = CollectingConnection(redis.url)
    lose_broker_holding_messages(connection, redis)
    connection.collect()
    connection.close()  # raised AttributeError before: the worker exited
    assert connection._default_channel is None
    redis.start()  # a new connection from the same settings works on the restarted broker
    with CollectingConnection(redis.url) as again:
        again.ensure_connection(max_retries=3)
        assert again.connected
