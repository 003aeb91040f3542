"""Commands on one match take turns in a process (service/store/matchcache.py `Turns`, issue
46): threads of one API process sending one match's orders at once no longer race each
other to the store, each loading the match anew; commands on other matches never wait,
and a turn held too long is waited for only TURN_WAIT."""

from __future__ import annotations

import threading
import time
from typing import Any
from uuid import uuid4

import pytest

from service.matches import Matches
from service.settings import Settings
from service.store.application import MatchStore
from service.store.matchcache import Turns

pytestmark = pytest.mark.timeout(60)
SEATS = 8


@pytest.fixture
def matches(database_url: str) -> Any:
    app = Matches(env=Settings(database_url).event_store_env())
    yield app
    app.close()


def test_threads_sending_one_matchs_orders_at_once_never_lose_a_race(matches, monkeypatch):
    """Eight threads send the eight seats' orders of one DRTS Team 23 movement at once:
    every order is taken, the last resolves the movement, and no save lost a race to
    another thread of the process (each would have reloaded the match from the store)."""
    created = matches.create_match("drts_team23", {"close_early": True}, seed="turns")
    match_id = created.match_id
    tokens = [matches.join(match_id, f"p{seat}").token for seat in range(1, SEATS + 1)]
    matches.start(match_id, str(created.referee_token))
    lost = []
    saved = MatchStore._saved

    def counting(store: MatchStore, match: Any) -> bool:
        done = saved(store, match)
        if not done:
            lost.append(match.version)
        return done

    monkeypatch.setattr(MatchStore, "_saved", counting)
    barrier = threading.Barrier(SEATS)
    receipts: list[Any] = []

    def send(token: str) -> None:
        barrier.wait(timeout=20)
        receipts.append(matches.submit_order(match_id, token, "hold"))

    threads = [threading.Thread(target=send, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(receipts) == SEATS and all(r.movement == 1 for r in receipts)
    assert matches.get_match(match_id).movement == 2  # the eighth order resolved it
    assert lost == []
    assert len(matches.store.turns) == 0  # nothing held once the commands are done


def hold_turn(turns: Turns, match_id: Any, held: threading.Event, release: threading.Event):
    """Starts a thread that takes the match's turn and holds it until `release`."""

    def run() -> None:
        with turns.turn(match_id):
            held.set()
            release.wait(timeout=20)

    thread = threading.Thread(target=run)
    thread.start()
    assert held.wait(timeout=20)
    return thread


def test_a_command_waits_for_the_turn_on_its_match():
    turns, match_id = Turns(wait=20), uuid4()
    held, release, order = threading.Event(), threading.Event(), []
    holder = hold_turn(turns, match_id, held, release)

    def second() -> None:
        with turns.turn(match_id) as got:
            order.append(("second", got))

    waiter = threading.Thread(target=second)
    waiter.start()
    time.sleep(0.1)
    order.append(("first releases", True))
    release.set()
    for thread in (holder, waiter):
        thread.join(timeout=20)
    assert order == [("first releases", True), ("second", True)]


def test_a_command_on_another_match_does_not_wait():
    turns = Turns(wait=20)
    held, release = threading.Event(), threading.Event()
    holder = hold_turn(turns, uuid4(), held, release)
    with turns.turn(uuid4()) as got:
        assert got
        assert len(turns) == 2
    release.set()
    holder.join(timeout=20)
    assert len(turns) == 0


def test_a_turn_held_too_long_is_waited_for_only_the_wait():
    turns, match_id = Turns(wait=0.2), uuid4()
    held, release = threading.Event(), threading.Event()
    holder = hold_turn(turns, match_id, held, release)
    began = time.monotonic()
    with turns.turn(match_id) as got:
        waited = time.monotonic() - began
    release.set()
    holder.join(timeout=20)
    assert not got and 0.2 <= waited < 10


def test_a_thread_may_take_its_own_turn_again():
    turns, match_id = Turns(wait=20), uuid4()
    with turns.turn(match_id) as outer, turns.turn(match_id) as inner:
        assert outer and inner
    assert len(turns) == 0
