"""Issue 13: a match's events are a function of its orders, their received times and the
intended deadlines, never of when a worker ran.

The property: for random matches (toy with strikes and with elimination, District War,
DRTS Team 23 closing early), random order arrival
times and random worker schedules (on time, late by any amount, down for several
deadlines, two workers racing), the events compared without their processing
timestamps, chain values, salts and digests equal those an always-on-time worker gives.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import DrtsError
from domain.rules import registry
from service.clock import START, ManualClock
from service.matches import Matches
from service.settings import Settings
from tests.support.toy_ruleset import TOYS

GAMES: dict[str, tuple[str, dict[str, Any], list[str]]] = {  # ruleset, config, order texts
    "toy": (
        "toy",
        {
            "silence": "strike",
            "max_strikes": 3,
            "extension_seconds": 4,
            "deadline_seconds": 10,
            "rounds": 3,
        },
        ["1", "2", "3"],
    ),
    "toy_forfeit": (
        "toy",
        {"silence": "elimination", "deadline_seconds": 10, "extension_seconds": 5},
        ["1", "2", "3"],
    ),
    "district_war": (
        "district_war",
        {"troops": 2, "placement_seconds": 10, "extension_seconds": 4, "max_strikes": 3},
        ["first 1", "first 2", "c5", "e4", "d6", "f2", "b5", "a1"],
    ),
    "drts_team23": (
        "drts_team23",
        {"movements": 3, "max_movements": 5, "movement_seconds": 10, "close_early": True},
        ["hold", "team green", "water hold", "team blue", "fire hold", "team yellow"],
    ),
}
HORIZON = 120.0
UNSTABLE = {"digest", "salt", "token_hash"}


@pytest.fixture(scope="module")
def world() -> Iterator[tuple[Matches, ManualClock]]:
    saved = dict(registry.REGISTRY)
    for toy in TOYS:
        registry.REGISTRY[toy.info.name] = {toy.info.version: toy}
    clock = ManualClock()
    with tempfile.TemporaryDirectory(prefix="drts-i13-") as directory:
        app = Matches(
            env=Settings(f"sqlite:///{directory}/i13.sqlite").event_store_env(), clock=clock
        )
        yield app, clock
        app.close()
    registry.REGISTRY.clear()
    registry.REGISTRY.update(saved)


def play(
    app: Matches,
    clock: ManualClock,
    game: str,
    orders: list[tuple[float, int, int]],
    workers: list[float] | None,
) -> list[dict[str, Any]]:
    """Plays one match; `workers` None: a worker at every deadline, on time."""
    ruleset, config, texts = GAMES[game]
    clock.now = START
    new = app.create_match(ruleset, config, seed="i13")
    seats = registry.get_ruleset(ruleset).info.min_seats
    tokens = [app.join(new.match_id, f"p{seat}").token for seat in range(1, seats + 1)]
    app.start(new.match_id, str(new.referee_token))
    timeline = [
        (t, 0, ("order", (seat - 1) % seats + 1, texts[i % len(texts)])) for t, seat, i in orders
    ]
    timeline += [(t, 1, ("worker", 0, "")) for t in (workers or [])]
    timeline.append((HORIZON, 2, ("worker", 0, "")))
    for at, _, (kind, seat, text) in sorted(timeline):
        instant = START + timedelta(seconds=at)
        if workers is None or (kind == "worker" and at == HORIZON):
            on_time(app, clock, new.match_id, instant)
        clock.reach(instant)
        if kind == "order":
            with contextlib.suppress(DrtsError):
                app.submit_order(new.match_id, tokens[seat - 1], text, received_at=instant)
        elif workers is not None:
            app.resolve_due(instant)
    return comparable(app, new.match_id)


def on_time(app: Matches, clock: ManualClock, match_id: Any, until: Any) -> None:
    """Resolves every deadline up to `until` at its instant, as a worker always on time."""
    while True:
        match = app.get_match(match_id)
        if not match.is_open() or match.deadline is None or match.deadline > until:
            return
        if not match.is_due(match.deadline):
            return  # a movement that re-arms, waiting for an order
        clock.reach(match.deadline)
        app.resolve(match_id, match.movement, match.deadline)


def comparable(app: Matches, match_id: Any) -> list[dict[str, Any]]:
    """Returns the events from the start, without timestamps, chains, salts, digests."""
    items = app.event_log(match_id)
    start = next(i for i, item in enumerate(items) if item["type"] == "Started")
    return [
        {"type": item["type"], "data": scrub(item["data"], str(match_id))} for item in items[start:]
    ]


def scrub(value: Any, match_id: str) -> Any:
    if isinstance(value, dict):
        return {k: scrub(v, match_id) for k, v in value.items() if k not in UNSTABLE}
    if isinstance(value, list):
        return [scrub(v, match_id) for v in value]
    return value.replace(match_id, "M") if isinstance(value, str) else value


arrivals = st.lists(
    st.tuples(
        st.floats(0, 100, allow_nan=False).map(lambda x: round(x, 3)),
        st.integers(1, 8),  # a seat, taken modulo the match's seats
        st.integers(0, 20),
    ),
    max_size=12,
)
schedules = st.one_of(
    st.lists(st.floats(0, HORIZON, allow_nan=False).map(lambda x: round(x, 3)), max_size=10),
    st.lists(st.floats(0, HORIZON, allow_nan=False).map(lambda x: round(x, 3)), max_size=4).map(
        lambda ts: [t for t in ts for _ in (0, 1)]
    ),  # two workers racing at each instant
    st.just([]),  # down the whole time: only the final sweep
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(game=st.sampled_from(sorted(GAMES)), orders=arrivals, workers=schedules)
def test_events_do_not_depend_on_when_workers_ran(world, game, orders, workers):
    """Issue 13 and DW-6: every deadline passes at its intended instant (strikes,
    extensions from the intended limit, forfeits, resolutions), whoever processes it."""
    app, clock = world
    assert play(app, clock, game, orders, workers) == play(app, clock, game, orders, None)
