"""The scheduling port: movement policies through the service, and countdown tasks asked for."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from domain.errors import InvalidDeadlineError, InvalidTokenError
from service.matches import Matches
from service.scheduling import (
    COUNTDOWN_GROUP,
    RESOLVE_MOVEMENT,
    RESOLVE_MOVEMENTS,
    CeleryScheduler,
    NoScheduler,
    RecordingScheduler,
    ask_for_countdowns,
    scheduler_for,
)
from service.settings import SettingsError, load_settings


def started(
    app: Matches, ruleset: str, config: dict[str, Any] | None = None, seats: int = 2
) -> tuple[Any, list[str]]:
    new = app.create_match(ruleset, config or {}, seed="sched")
    tokens = [app.join(new.match_id, f"p{i}").token for i in range(seats)]
    app.start(new.match_id, str(new.referee_token))
    return new, tokens


def types(app: Matches, match_id: Any) -> list[str]:
    return [str(item["type"]) for item in app.event_log(match_id)]


def test_opening_a_movement_asks_for_a_countdown_at_its_deadline(scheduled, scheduler, clock):
    new, _ = started(scheduled, "toy", {"deadline_seconds": 45})
    assert scheduler.calls == [(new.match_id, 1, clock.now + timedelta(seconds=45))]


def test_a_movement_that_may_close_early_resolves_on_the_last_owed_order(scheduled, scheduler):
    new, (alice, bob) = started(scheduled, "toy")
    assert scheduled.submit_order(new.match_id, alice, "1").closing is None
    receipt = scheduled.submit_order(new.match_id, bob, "2")
    assert receipt.closing is not None and receipt.closing.resolved
    assert types(scheduled, new.match_id).count("MovementResolved") == 1
    assert [call[1] for call in scheduler.calls] == [1, 2]  # the next movement's clock


def test_a_movement_that_may_not_close_early_waits_for_its_deadline(scheduled, clock):
    new, (alice, bob) = started(scheduled, "toy", {"close_early": False})
    scheduled.submit_order(new.match_id, alice, "1")
    assert scheduled.submit_order(new.match_id, bob, "2").closing is None
    assert scheduled.resolve(new.match_id, 1) is None
    clock.advance(60)
    assert [d.movement for d in scheduled.due_movements()] == [1]
    assert scheduled.resolve(new.match_id, 1).resolved


def test_a_sequential_game_resolves_on_the_order_and_starts_the_next_clock(
    scheduled, scheduler, clock
):
    new, (_, dmo) = started(scheduled, "district_war", {"placement_seconds": 30})
    clock.advance(5)
    receipt = scheduled.submit_order(new.match_id, dmo, "first 1")
    assert receipt.closing is not None and receipt.closing.resolved
    assert scheduled.get_match(new.match_id).movement == 2
    assert scheduler.calls[-1] == (new.match_id, 2, clock.now + timedelta(seconds=30))


def test_district_war_strikes_and_extends_by_45_seconds_when_its_clock_runs_out(
    scheduled, scheduler, clock
):
    new, (_, dmo) = started(scheduled, "district_war")
    scheduled.submit_order(new.match_id, dmo, "first 1")
    clock.advance(89)
    assert scheduled.resolve(new.match_id, 2) is None  # not yet due
    clock.advance(1)
    closing = scheduled.resolve(new.match_id, 2)
    assert closing is not None and closing.strikes == (1,) and not closing.resolved
    assert scheduler.calls[-1] == (new.match_id, 2, clock.now + timedelta(seconds=45))
    assert types(scheduled, new.match_id)[-2:] == ["SeatStruck", "DeadlineSet"]


class FakeCelery:
    """Takes `send_task` calls; fails them when asked to."""

    def __init__(self, fail: bool = False) -> None:
        self.sent: list[tuple[str, tuple[Any, ...], Any]] = []
        self.fail = fail

    def send_task(self, name: str, args: tuple[Any, ...], eta: Any, **options: Any) -> None:
        if self.fail:
            raise ConnectionError("broker down")
        self.sent.append((name, args, eta))


def test_the_celery_scheduler_sends_a_countdown_task_by_name_for_a_near_deadline(clock):
    fake = FakeCelery()
    match_id = Matches.match_id("0b9f4e26-76a0-4b3c-9d59-2b7e4b1b7d5e")
    deadline = clock.now + timedelta(seconds=20)
    CeleryScheduler(fake, 600).deadline_set(match_id, 3, deadline, clock.now)  # type: ignore[arg-type]
    assert fake.sent == [(RESOLVE_MOVEMENT, (str(match_id), 3), deadline)]


def test_a_deadline_beyond_the_countdown_horizon_is_left_to_the_sweep(clock):
    fake = FakeCelery()
    match_id = Matches.match_id("0b9f4e26-76a0-4b3c-9d59-2b7e4b1b7d5e")
    far = clock.now + timedelta(seconds=601)
    CeleryScheduler(fake, 600).deadline_set(match_id, 1, far, clock.now)  # type: ignore[arg-type]
    assert fake.sent == []


def test_a_broker_that_is_down_does_not_fail_the_command(clock, caplog):
    fake = FakeCelery(fail=True)
    match_id = Matches.match_id("0b9f4e26-76a0-4b3c-9d59-2b7e4b1b7d5e")
    CeleryScheduler(fake, 600).deadline_set(match_id, 1, clock.now, clock.now)  # type: ignore[arg-type]
    assert "the sweep will resolve it" in caplog.text


def test_deadlines_stored_together_for_one_instant_ask_for_one_task_per_group(clock):
    """Issue 46: a task costs about as much to send as a resolution; the movements due at
    one instant go as `resolve_movements` batches with that eta, COUNTDOWN_GROUP at most;
    a movement alone at its instant as its own countdown task; a far one not at all."""
    fake = FakeCelery()
    together = clock.now + timedelta(seconds=90)
    alone, far = together + timedelta(seconds=1), clock.now + timedelta(seconds=601)
    ids = [Matches.match_id(f"0b9f4e26-76a0-4b3c-9d59-{n:012d}") for n in range(2 * 50 + 7)]
    calls = [(match_id, 2, together, clock.now) for match_id in ids]
    calls += [(ids[0], 3, alone, clock.now), (ids[1], 3, far, clock.now)]
    CeleryScheduler(fake, 600).deadlines_set(calls)  # type: ignore[arg-type]
    at = together.isoformat()
    batches = [
        (
            RESOLVE_MOVEMENTS,
            ([[str(m), 2, at] for m in ids[first : first + COUNTDOWN_GROUP]],),
            together,
        )
        for first in range(0, len(ids), COUNTDOWN_GROUP)
    ]
    assert COUNTDOWN_GROUP == 50 and [len(b[1][0]) for b in batches] == [50, 50, 7]
    assert fake.sent == [*batches, (RESOLVE_MOVEMENT, (str(ids[0]), 3), alone)]


def test_a_scheduler_that_cannot_group_is_asked_one_deadline_at_a_time(clock):
    recording = RecordingScheduler()
    ids = [Matches.match_id(f"0b9f4e26-76a0-4b3c-9d59-{n:012d}") for n in range(3)]
    ask_for_countdowns(recording, [(match_id, 1, clock.now, clock.now) for match_id in ids])
    assert recording.calls == [(match_id, 1, clock.now) for match_id in ids]


def test_a_broker_that_is_down_does_not_fail_a_grouped_send(clock, caplog):
    ids = [Matches.match_id(f"0b9f4e26-76a0-4b3c-9d59-{n:012d}") for n in range(2)]
    calls = [(match_id, 1, clock.now, clock.now) for match_id in ids]
    CeleryScheduler(FakeCelery(fail=True), 600).deadlines_set(calls)  # type: ignore[arg-type]
    assert "countdown task for 2 matches due at" in caplog.text
    assert "the sweep will resolve it" in caplog.text


def test_countdown_tasks_are_sent_only_when_a_broker_is_configured():
    assert isinstance(scheduler_for(load_settings({})), NoScheduler)
    configured = scheduler_for(load_settings({"DRTS_BROKER_URL": "redis://127.0.0.1:6379/0"}))
    assert isinstance(configured, CeleryScheduler)


def test_broker_settings_default_to_the_embedded_sqlite_broker():
    settings = load_settings({})
    assert settings.broker_url == "sqla+sqlite:///drts-broker.sqlite"
    assert not settings.broker_configured
    assert (settings.sweep_seconds, settings.countdown_seconds) == (2.0, 600.0)
    tuned = load_settings(
        {
            "DRTS_BROKER_URL": "amqp://guest:guest@127.0.0.1:5672//",
            "DRTS_SWEEP_SECONDS": "1",
            "DRTS_COUNTDOWN_SECONDS": "300",
        }
    )
    assert tuned.broker_url.startswith("amqp://") and tuned.sweep_seconds == 1.0
    assert tuned.countdown_seconds == 300.0


def test_a_bad_number_of_seconds_is_refused_by_name():
    with pytest.raises(SettingsError, match="DRTS_SWEEP_SECONDS='often'"):
        load_settings({"DRTS_SWEEP_SECONDS": "often"})


def test_the_referee_extends_a_deadline_and_the_old_countdown_finds_nothing_due(
    scheduled, scheduler, clock
):
    new, _ = started(scheduled, "toy", {"close_early": False, "deadline_seconds": 60})
    deadline = scheduled.extend_deadline(new.match_id, str(new.referee_token), seconds=120)
    assert deadline == clock.now + timedelta(seconds=180)
    assert scheduler.calls[-1] == (new.match_id, 1, deadline)
    clock.advance(60)
    assert scheduled.resolve(new.match_id, 1) is None  # the first countdown task, now early
    clock.advance(120)
    assert scheduled.resolve(new.match_id, 1).resolved
    reasons = [
        item["data"]["reason"]
        for item in scheduled.event_log(new.match_id)
        if item["type"] == "DeadlineSet"
    ]
    assert reasons == ["opened", "referee", "opened"]
    assert scheduled.verify_chain(new.match_id).ok


def test_a_referee_extension_names_its_deadline_or_its_seconds(scheduled, clock):
    new, (alice, _) = started(scheduled, "toy")
    until = clock.now + timedelta(hours=2)
    assert scheduled.extend_deadline(new.match_id, str(new.referee_token), until=until) == until
    with pytest.raises(InvalidDeadlineError, match="either seconds"):
        scheduled.extend_deadline(new.match_id, str(new.referee_token))
    with pytest.raises(InvalidDeadlineError, match="positive"):
        scheduled.extend_deadline(new.match_id, str(new.referee_token), seconds=-5)
    with pytest.raises(InvalidTokenError):
        scheduled.extend_deadline(new.match_id, alice, seconds=60)
