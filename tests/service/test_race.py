"""Racing writers: two workers resolving the same movement give exactly one resolution."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from domain.match import Match
from service.matches import Matches
from service.settings import Settings

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("toy_rulesets")]


def lockstep(matches: Matches, barrier: threading.Barrier) -> Matches:
    """Makes the first load for a command in each thread wait for the other thread's
    first load, so that both commands decide on the same version and then race to save
    (the store's `load_for_command`, which `retrying` calls, wrapped on this store)."""
    store, local = matches.store, threading.local()
    load = store.load_for_command

    def first_waits(*args: Any, **kwargs: Any) -> Match:
        match = load(*args, **kwargs)
        if not getattr(local, "waited", False):
            local.waited = True
            barrier.wait(timeout=20)
        return match

    store.load_for_command = first_waits  # type: ignore[method-assign]
    return matches


def race(database_url: str, clock: Any, *commands: Callable[[Matches], Any]) -> list[Any]:
    """Runs two commands on two applications (two workers) in two threads, in lockstep."""
    barrier = threading.Barrier(2)
    env = Settings(database_url).event_store_env()
    apps = [lockstep(Matches(env, clock), barrier) for _ in range(2)]
    results: list[Any] = [None, None]
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            results[i] = commands[i](apps[i])
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    for app in apps:
        app.close()
    assert not errors, errors
    return results


def test_two_racing_resolvers_give_exactly_one_resolution(matches, database_url, clock):
    new = matches.create_match("toy", seed="race")
    alice = matches.join(new.match_id, "alice")
    matches.join(new.match_id, "bob")
    matches.start(new.match_id, str(new.referee_token))
    matches.submit_order(new.match_id, alice.token, "2")
    at = clock.advance(60)
    resolve = lambda app: app.resolve(new.match_id, 1, at)  # noqa: E731
    results = race(database_url, clock, resolve, resolve)
    assert sum(result is not None for result in results) == 1
    log = [item["type"] for item in matches.event_log(new.match_id)]
    assert log.count("MovementClosed") == 1 and log.count("MovementResolved") == 1
    assert matches.verify_chain(new.match_id).ok


def test_two_seats_ordering_at_once_both_land(matches, database_url, clock):
    new = matches.create_match("toy", {"close_early": False}, seed="race")
    seats = [matches.join(new.match_id, name) for name in ("alice", "bob")]
    matches.start(new.match_id, str(new.referee_token))
    results = race(
        database_url,
        clock,
        lambda app: app.submit_order(new.match_id, seats[0].token, "1"),
        lambda app: app.submit_order(new.match_id, seats[1].token, "3"),
    )
    assert {r.seat for r in results} == {1, 2}
    log = [item["type"] for item in matches.event_log(new.match_id)]
    assert log.count("OrderSubmitted") == 2
