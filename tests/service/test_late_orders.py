"""An order that arrives after its movement's deadline, before any worker has acted.

DESIGN.md (Time): an order either lands before the movement closes or is
rejected with a reason. The deadline is the cut-off: a late order first lets
the deadline pass (the silence policy applies to the seats still silent),
then it is judged against what is open.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from domain.errors import MovementClosedError
from service.usecases.resolution import SETTLING


def started_toy(matches, **config):
    new = matches.create_match(
        "toy", {"close_early": False, "deadline_seconds": 60, **config}, seed="late"
    )
    tokens = [matches.join(new.match_id, name).token for name in ("alice", "bob")]
    matches.start(new.match_id, new.referee_token)
    return new.match_id, tokens


def types(matches, match_id):
    return [item["type"] for item in matches.event_log(match_id)]


def test_a_late_order_is_rejected_once_the_deadline_has_resolved_the_movement(matches, clock):
    match_id, (alice, bob) = started_toy(matches, silence="hold")
    matches.submit_order(match_id, alice, "2")
    clock.advance(61)
    with pytest.raises(MovementClosedError, match=r"movement 1 .* is not open: it closed at"):
        matches.submit_order(match_id, bob, "3", movement=1)
    log = types(matches, match_id)
    assert log.index("MovementResolved") < log.index("OrderRejected")
    closed = next(e for e in matches.event_log(match_id) if e["type"] == "MovementClosed")
    assert [o["seat"] for o in closed["data"]["orders"]] == [1]  # bob's late order is not in it


def test_a_late_order_without_a_movement_lands_in_the_movement_open_at_its_receipt(matches, clock):
    """Issue 13: as with a worker on time, the deadline at 60 s opened movement 2 by 61 s,
    so an order without `movement` received then is judged there, whoever processed it."""
    match_id, (alice, bob) = started_toy(matches, silence="hold")
    matches.submit_order(match_id, alice, "2")
    clock.advance(61)
    receipt = matches.submit_order(match_id, bob, "3")
    assert receipt.movement == 2
    log = types(matches, match_id)
    assert log.index("MovementResolved") < log.index(
        "OrderSubmitted", log.index("MovementResolved")
    )


def test_a_late_order_under_a_strike_policy_strikes_first_then_lands(matches, clock):
    """DW-6 style: the overrun earns its strike even though the order then arrives."""
    match_id, (alice, bob) = started_toy(
        matches, silence="strike", max_strikes=3, extension_seconds=45
    )
    matches.submit_order(match_id, alice, "2")
    clock.advance(61)
    receipt = matches.submit_order(match_id, bob, "3")
    assert receipt.movement == 1
    assert matches.summary(match_id).strikes == {"2": 1}
    assert types(matches, match_id)[-3:] == ["SeatStruck", "DeadlineSet", "OrderSubmitted"]


def test_an_order_before_the_deadline_is_taken_into_the_movement(matches, clock):
    match_id, (alice, _) = started_toy(matches, silence="hold")
    clock.advance(59)
    matches.submit_order(match_id, alice, "2")
    assert "MovementResolved" not in types(matches, match_id)


def test_an_order_received_before_the_deadline_processed_after_its_close_names_the_race(
    matches, clock
):
    """Issue 13: never filed into the next movement, never refused as late: the refusal
    says it outlived the settling time (docs/operations.md)."""
    match_id, (_alice, bob) = started_toy(matches, silence="hold")
    deadline = matches.get_match(match_id).deadline
    clock.reach(deadline)
    matches.resolve(match_id, 1, deadline)  # the resolution won the race
    received = deadline - timedelta(milliseconds=45)
    with pytest.raises(MovementClosedError, match="outlived the settling time"):
        matches.submit_order(match_id, bob, "3", received_at=received)
    rejected = next(e for e in matches.event_log(match_id) if e["type"] == "OrderRejected")
    assert rejected["data"]["movement"] == 1
    assert matches.get_match(match_id).pending == []  # nothing landed in movement 2


def test_a_worker_on_time_waits_out_the_settling_time_before_resolving(matches, clock):
    """Issue 13: an order received just before the deadline is written before the close."""
    match_id, (alice, _) = started_toy(matches, silence="hold")
    deadline = matches.get_match(match_id).deadline
    clock.reach(deadline)
    waited: list[float] = []

    def sleep(seconds: float) -> None:
        waited.append(seconds)
        matches.submit_order(match_id, alice, "2", received_at=deadline - timedelta(milliseconds=1))
        clock.advance(seconds)

    matches.resolution.sleep = sleep
    closing = matches.resolve(match_id, 1)
    assert waited == [SETTLING.total_seconds()] and closing is not None
    closed = next(e for e in matches.event_log(match_id) if e["type"] == "MovementClosed")
    assert [o["seat"] for o in closed["data"]["orders"]] == [1]


def test_an_order_after_the_finish_is_refused_and_nothing_is_stored(matches, clock):
    """Issue 40 (docs/integrity.md, Orders after the finish): nothing is pending once a
    match has finished, so a refusal then is answered (409 movement_closed) and not
    recorded: a seat cannot append to a settled log, and verify stays ok."""
    match_id, (alice, bob) = started_toy(matches, silence="hold", rounds=1, close_early=True)
    matches.submit_order(match_id, alice, "2")
    matches.submit_order(match_id, bob, "3")
    assert matches.summary(match_id).status == "finished"
    version = matches.get_match(match_id).version
    with pytest.raises(MovementClosedError, match="is finished"):
        matches.submit_order(match_id, bob, "1")
    assert matches.get_match(match_id).version == version
    assert matches.verify_chain(match_id).ok


def test_a_late_order_that_lets_the_last_deadline_pass_stores_the_close_not_its_refusal(
    matches, clock
):
    """The late order first lets the due deadline pass (DESIGN.md, Time): that close, and
    the finish it gives, are recorded; the order meets a finished match, its refusal not."""
    match_id, (alice, bob) = started_toy(matches, silence="hold", rounds=1)
    matches.submit_order(match_id, alice, "2")
    clock.advance(61)
    with pytest.raises(MovementClosedError):
        matches.submit_order(match_id, bob, "3")
    log = types(matches, match_id)
    assert log[-1] == "Finished" and "OrderRejected" not in log
    assert matches.verify_chain(match_id).ok


def test_a_refusal_stored_after_the_finish_by_an_earlier_drts_still_verifies(matches, clock):
    """Stored matches are forever: a log holding an OrderRejected after Finished (as drts
    recorded one before issue 40) verifies ok; a refusal changes nothing in the match."""
    match_id, (alice, bob) = started_toy(matches, silence="hold", rounds=1, close_early=True)
    matches.submit_order(match_id, alice, "2")
    matches.submit_order(match_id, bob, "3")
    match = matches.get_match(match_id)
    meta = {"seat": 2, "movement": 1, "received_at": clock(), "source": "api", "message_id": None}
    refused = MovementClosedError(f"match {match_id} is finished; movement 1 is closed")
    match._record_refusal(meta, "1", "ab" * 16, refused, clock())  # as before issue 40
    matches.store.save(match)
    assert types(matches, match_id)[-2:] == ["Finished", "OrderRejected"]
    report = matches.verify_chain(match_id)
    assert report.ok, report.problems
