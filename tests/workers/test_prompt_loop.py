"""A worker holding countdown tasks takes its next task at once (workers/prompt_loop.py).

On RabbitMQ a worker that held countdowns waited up to 10 s in kombu's poll
before each next task: its last task's acknowledgement and its next read sat on
the hub's ready list, and a held countdown's higher prefetch count was sent
only a turn later. First the step's two parts on a real kombu hub, then a real
worker on both brokers."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any
from uuid import uuid4

import pytest
from kombu.asynchronous import Hub

from service.scheduling import RESOLVE_MOVEMENT, SWEEP_DUE
from tests.workers.conftest import Cluster, wait_for
from workers.app import create_app
from workers.prompt_loop import PromptLoop, before_poll


@pytest.fixture
def hub() -> Iterator[Hub]:
    """A kombu hub with a reader that never fires (a poll needs one) and a timer an
    hour away (as a held countdown's), so that each of its polls would wait."""
    made = Hub()
    quiet, other = socket.socketpair()
    made.add_reader(quiet, lambda: None)
    made.call_later(3600, lambda: None)
    yield made
    made.close()
    quiet.close()
    other.close()


def polls_of(hub: Hub) -> list[tuple[float, list[Any]]]:
    """Records each poll's timeout and events, polling without waiting (a poll that
    would have waited shows as no events)."""
    record: list[tuple[float, list[Any]]] = []
    poll = hub.poller.poll

    def recorded(timeout: float) -> Any:
        events = poll(0)
        record.append((timeout, list(events or ())))
        return events

    hub.poller.poll = recorded
    return record


def consumer(hub: Hub, prev: int = 1, value: int = 1) -> Any:
    sent: list[int] = []
    qos = SimpleNamespace(prev=prev, value=value, update=lambda: sent.append(qos.value))
    return SimpleNamespace(hub=hub, qos=qos, sent=sent)


def test_a_callback_made_ready_during_a_turn_wakes_the_coming_poll(hub: Hub) -> None:
    ran: list[str] = []
    hub.call_later(0, lambda: hub.call_soon(lambda: ran.append("ack")))  # as a solo task's ack
    parent = consumer(hub)
    PromptLoop(parent).start(parent)
    polls, loop = polls_of(hub), hub.create_loop()
    next(loop)
    timeout, events = polls[0]
    assert timeout > 0  # a poll that waits (a worker's hub: up to 10 s)
    assert [fd for fd, _ in events] == [hub._waker.fileno()]
    next(loop)
    assert ran == ["ack"]


def test_without_the_step_that_poll_would_wait(hub: Hub) -> None:
    hub.call_later(0, lambda: hub.call_soon(lambda: None))
    polls, loop = polls_of(hub), hub.create_loop()
    next(loop)
    [(timeout, events)] = polls
    assert timeout > 0 and events == []


def test_a_pending_prefetch_count_is_sent_before_the_poll(hub: Hub) -> None:
    raised = consumer(hub, prev=1, value=2)  # a countdown task was just received
    before_poll(raised)
    assert raised.sent == [2]
    unchanged = consumer(hub, prev=2, value=2)
    before_poll(unchanged)
    assert unchanged.sent == []


def test_the_step_adds_its_tick_to_the_hub_and_removes_it(hub: Hub) -> None:
    parent = consumer(hub)
    step = PromptLoop(parent)
    step.start(parent)
    assert step.tick in hub.on_tick
    step.stop(parent)
    assert not hub.on_tick and step.tick is None


def test_a_consumer_without_a_hub_gets_no_tick() -> None:
    parent = SimpleNamespace(hub=None)
    step = PromptLoop(parent)
    step.start(parent)
    step.stop(parent)
    assert step.tick is None


def test_the_hub_still_reads_its_sockets(hub: Hub) -> None:
    reader, writer = socket.socketpair()
    read: list[bytes] = []
    hub.add_reader(reader, lambda: read.append(reader.recv(16)))
    parent = consumer(hub)
    PromptLoop(parent).start(parent)
    writer.send(b"deliver")
    next(hub.create_loop())
    assert read == [b"deliver"]
    hub.remove(reader)
    reader.close()
    writer.close()


def test_every_drts_worker_has_the_step() -> None:
    assert PromptLoop in create_app().steps["consumer"]


def test_a_worker_holding_countdowns_takes_task_after_task_at_once(cluster: Cluster) -> None:
    later = datetime.now(UTC) + timedelta(seconds=500)  # past the sweep's warming horizon
    with cluster.workers(1):
        for _ in range(3):
            cluster.send(RESOLVE_MOVEMENT, str(uuid4()), 1, eta=later)
        sweeps = [cluster.send(SWEEP_DUE) for _ in range(12)]
        # measured on RabbitMQ: 0.5 s for the twelve with the step, 19.5 s without it (each
        # waited 1.5 to 10 s in the hub's poll); 10 s is room for a loaded machine
        wait_for(lambda: all(sweep.ready() for sweep in sweeps), timeout=10)
        assert [sweep.get(timeout=1) for sweep in sweeps] == [0] * 12
