"""Issue 13: orders racing a deadline on real threads land by their received time.

Several threads submit orders around a movement's deadline while a worker thread
resolves it at the deadline, on the real clock, on the SQLite file store and on
PostgreSQL. Every order received before the deadline is in that movement (taken, or
refused only for legality); every order received after it is refused naming the
close and its received time (when it asked for the closed movement) or lands in the
next movement (the toy game holds a silent seat, so the match goes on). An order
received before the deadline whose processing outlived the settling time may be refused
as raced, as docs/operations.md says (a thread waiting on SQLite's write lock); one
processed within it never is.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest

from domain.errors import DrtsError, MovementClosedError
from service.matches import Matches
from service.results import OrderReceipt
from service.settings import Settings
from service.store.application import utc_now
from service.usecases.resolution import SETTLING

ORDERS = ["1", "2", "3", "4"]  # "4" is out of range: refused for legality alone
WINDOW = timedelta(seconds=0.4)  # submissions run from deadline - WINDOW to deadline + WINDOW
SUBMITTERS = 3
PAUSE = 0.02


@dataclass(frozen=True)
class Attempt:
    """One submission: when it was received, the movement it asked for, what happened,
    and when its processing ended."""

    received: datetime
    asked: int | None
    text: str
    result: OrderReceipt | DrtsError
    finished: datetime


@pytest.fixture
def app(database_url: str, toy_rulesets: None) -> Iterator[Matches]:
    """The Matches application on the real clock."""
    matches = Matches(env=Settings(database_url).event_store_env())
    yield matches
    matches.close()


def race(app: Matches) -> tuple[str, datetime, list[Attempt]]:
    """Plays one toy match's first deadline with submitter threads and a worker thread;
    returns the match id, the deadline and every submission."""
    config = {
        "close_early": False,
        # Three seconds: the setup below may take more than a second on a loaded host,
        # and the submitters must start before the deadline (CI failed once with 1 s).
        "deadline_seconds": 3,
        "silence": "hold",
        "rounds": 5,
        "extension_seconds": 1,
    }
    new = app.create_match("toy", config, seed="race")
    match_id = str(new.match_id)
    tokens = [app.join(match_id, name).token for name in ("alice", "bob")]
    app.start(match_id, str(new.referee_token))
    deadline = app.get_match(match_id).deadline
    assert deadline is not None
    margin = (deadline - utc_now()).total_seconds()
    assert margin > WINDOW.total_seconds(), f"the setup left {margin:.2f} s before the deadline"
    attempts: list[Attempt] = []
    lock = threading.Lock()

    def pause_until(moment: datetime) -> None:
        time.sleep(max(0.0, (moment - utc_now()).total_seconds()))

    def submitter(k: int) -> None:
        pause_until(deadline - WINDOW + timedelta(seconds=PAUSE * k / SUBMITTERS))
        i = 0
        while (received := utc_now()) < deadline + WINDOW:
            asked, text = (1 if i % 2 else None), ORDERS[(k + i) % len(ORDERS)]
            try:
                result: OrderReceipt | DrtsError = app.submit_order(
                    match_id, tokens[(k + i) % 2], text, movement=asked, received_at=received
                )
            except DrtsError as error:
                result = error
            with lock:
                attempts.append(Attempt(received, asked, text, result, utc_now()))
            i += 1
            time.sleep(PAUSE)

    def worker() -> None:
        pause_until(deadline)
        app.resolve(match_id, 1)  # waits out the settling time, as a worker on time does

    threads = [threading.Thread(target=submitter, args=(k,)) for k in range(SUBMITTERS)]
    threads.append(threading.Thread(target=worker))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert not any(thread.is_alive() for thread in threads)
    return match_id, deadline, attempts


def test_orders_racing_a_deadline_land_by_their_received_time(app: Matches) -> None:
    match_id, deadline, attempts = race(app)
    before = [a for a in attempts if a.received < deadline]
    after = [a for a in attempts if a.received >= deadline]
    assert len(before) >= 10 and len(after) >= 10  # both sides of the deadline were raced
    for attempt in before:
        if is_raced(attempt):
            continue
        if isinstance(attempt.result, DrtsError):  # refused for legality only
            assert attempt.text == "4", attempt
            assert attempt.result.code == "illegal_order", attempt
        else:
            assert attempt.result.movement == 1, attempt
    for attempt in after:
        result = attempt.result
        if attempt.asked == 1:
            assert isinstance(result, MovementClosedError), attempt
            assert deadline.isoformat() in str(result), attempt
            assert attempt.received.isoformat() in str(result), attempt
        elif isinstance(result, DrtsError):
            assert (attempt.text, result.code) == ("4", "illegal_order"), attempt
        else:
            assert result.movement == 2, attempt
    closed = next(
        item
        for item in app.event_log(match_id)
        if item["type"] == "MovementClosed" and item["data"]["movement"] == 1
    )
    assert closed["data"]["intended_at"] == deadline.isoformat()
    taken = {a.result.digest for a in before if isinstance(a.result, OrderReceipt)}
    assert {order["digest"] for order in closed["data"]["orders"]} == taken


def is_raced(attempt: Attempt) -> bool:
    """Returns whether an order received before the deadline was refused as raced: its
    processing outlived the settling time, so the close was recorded first
    (docs/operations.md, received time and the settling time). Fails for such a refusal
    of an order processed within the settling time: the worker must wait it out."""
    result = attempt.result
    if not (isinstance(result, MovementClosedError) and "outlived the settling" in str(result)):
        return False
    assert attempt.finished - attempt.received > SETTLING, attempt
    return True
