"""A movement that re-arms (issue 11): B-Chess's Turn of the Field, played by `toy_rearm`.

The movement fires every period from its opening; a firing with no order pending writes
nothing and the next period starts; the first order records the firing that will resolve
it ("armed"), so the deadline stays derivable from the events, and the deadlines read
model, the sweep, the resolve task and the Match agree without looping.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from domain.errors import MovementClosedError
from service.matches import Matches

PERIOD = 60


@pytest.fixture
def field(scheduled: Matches) -> Matches:
    """The Matches application recording what its scheduler is asked (tests/conftest.py)."""
    return scheduled


def started(app: Matches) -> tuple[Any, list[str], datetime]:
    new = app.create_match("toy_rearm", {"deadline_seconds": PERIOD}, seed="field")
    tokens = [app.join(new.match_id, name).token for name in ("alice", "bob")]
    opened = app.clock()
    app.start(new.match_id, str(new.referee_token))
    return new, tokens, opened


def deadlines(app: Matches, match_id: Any) -> list[tuple[int, str, str]]:
    return [
        (e["data"]["movement"], e["data"]["reason"], e["data"]["deadline"])
        for e in app.event_log(match_id)
        if e["type"] == "DeadlineSet"
    ]


def at(moment: datetime) -> str:
    return moment.isoformat()


def test_empty_periods_write_nothing_and_an_order_resolves_at_the_end_of_its_period(
    field, clock, scheduler
):
    new, (alice, _), t0 = started(field)
    period = timedelta(seconds=PERIOD)
    assert deadlines(field, new.match_id) == [(1, "periodic", at(t0 + period))]
    before = field.event_log(new.match_id)
    for k in (1, 2, 3):  # three firings with nothing pending
        clock.now = t0 + k * period
        assert field.due_movements() == [] and field.resolve_due() == []
        assert field.resolve(new.match_id, 1) is None  # a countdown task finds nothing either
    assert field.event_log(new.match_id) == before
    assert scheduler.calls == []  # nothing asked for a waiting movement

    clock.now = t0 + 3 * period + timedelta(seconds=20)  # period 4
    field.submit_order(new.match_id, alice, "2")
    fires = t0 + 4 * period
    assert deadlines(field, new.match_id)[-1] == (1, "armed", at(fires))
    assert scheduler.calls == [(new.match_id, 1, fires)]
    clock.now = fires - timedelta(seconds=1)
    assert field.due_movements() == [] and field.resolve(new.match_id, 1) is None
    clock.now = fires
    assert [(d.movement, d.deadline) for d in field.due_movements()] == [(1, fires)]
    (closing,) = field.resolve_due()
    assert closing.resolved and closing.steps[0].text == "seat 1 picks 2"
    closed = next(e for e in field.event_log(new.match_id) if e["type"] == "MovementClosed")
    assert closed["timestamp"] == at(fires)
    assert deadlines(field, new.match_id)[-1] == (2, "periodic", at(fires + period))
    assert field.verify_chain(new.match_id).ok and field.replay(new.match_id).agrees


def test_a_late_resolution_keeps_the_next_movement_on_the_period_grid(field, clock):
    new, (alice, _), t0 = started(field)
    field.submit_order(new.match_id, alice, "1")
    clock.now = t0 + timedelta(seconds=PERIOD + 25)  # the worker ran 25 s late
    assert field.resolve(new.match_id, 1).resolved
    next_firing = t0 + timedelta(seconds=2 * PERIOD)  # not 25 s later: the grid stays
    assert deadlines(field, new.match_id)[-1] == (2, "periodic", at(next_firing))


def test_an_order_at_the_instant_of_a_firing_waits_for_the_next_one(field, clock):
    new, (alice, _), t0 = started(field)
    clock.now = t0 + timedelta(seconds=2 * PERIOD)
    field.submit_order(new.match_id, alice, "3")
    assert deadlines(field, new.match_id)[-1] == (
        1,
        "armed",
        at(t0 + 3 * timedelta(seconds=PERIOD)),
    )


def test_a_referee_extension_moves_the_grid_the_firings_follow(field, clock):
    new, (alice, _), t0 = started(field)
    clock.now = t0 + timedelta(seconds=10)
    field.extend_deadline(new.match_id, str(new.referee_token), seconds=30)
    assert field.due_movements(t0 + timedelta(days=1)) == []  # still waiting for an order
    clock.now = t0 + timedelta(seconds=100)
    field.submit_order(new.match_id, alice, "1")
    assert deadlines(field, new.match_id)[-1] == (1, "armed", at(t0 + timedelta(seconds=150)))


def test_a_late_order_after_an_armed_firing_first_lets_the_movement_resolve(field, clock):
    """As for any deadline: the firing that fell due applies first, then the order is judged."""
    new, (alice, bob), t0 = started(field)
    field.submit_order(new.match_id, alice, "1")
    clock.now = t0 + timedelta(seconds=PERIOD + 5)  # the firing at t0 + 60 was due
    with pytest.raises(MovementClosedError, match=r"movement 1 .* is not open"):
        field.submit_order(new.match_id, bob, "2", movement=1)  # without: it lands in 2
    assert field.summary(new.match_id).movement == 2
    assert deadlines(field, new.match_id)[-1] == (
        2,
        "periodic",
        at(t0 + 2 * timedelta(seconds=PERIOD)),
    )
