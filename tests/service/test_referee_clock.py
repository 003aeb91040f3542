"""The referee's own actions (issue 18): forfeit, pause and resume, through the Matches
application on SQLite and PostgreSQL; docs/referee.md. Scenario files in
tests/scenarios/referee/ check each rule's events; these check what they leave in the
store: read models, secrecy, the audit and the sweep."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from domain.match import Match
from service.matches import Matches
from tests.service.readmodel_support import snapshots

DRTS_POSTAL = {"close_early": True, "movement_seconds": 600}
TEAMS = ["green"] * 3 + ["yellow"] * 3 + ["blue"] * 2


def drts(matches: Matches) -> tuple[Any, list[str]]:
    new = matches.create_match("drts_team23", DRTS_POSTAL, seats=8, seed="referee-clock")
    tokens = [matches.join(new.match_id, f"seat {n}").token for n in range(1, 9)]
    matches.start(new.match_id, new.referee_token)
    return new, tokens


def district_war(matches: Matches) -> tuple[Any, list[str]]:
    new = matches.create_match("district_war", {}, seed="referee-clock")
    tokens = [matches.join(new.match_id, name).token for name in ("alice", "bob")]
    matches.start(new.match_id, new.referee_token)
    matches.submit_order(new.match_id, tokens[1], "first 1")  # DW-2: seat 1 places first
    return new, tokens


def test_a_forfeited_seats_open_order_is_revealed_at_the_close_but_not_used(matches, clock):
    new, tokens = drts(matches)
    matches.submit_order(new.match_id, tokens[7], "team blue")  # seat 8, then forfeited
    matches.act(new.match_id, new.referee_token, "forfeit", {"seat": 8}, "left the club")
    for seat, team in enumerate(TEAMS[:7], 1):
        matches.submit_order(new.match_id, tokens[seat - 1], f"team {team}")
    match = matches.get_match(new.match_id)
    assert match.movement == 2 and match.eliminated == [8]
    closed = next(
        e for e in matches.events.get(new.match_id) if isinstance(e, Match.MovementClosed)
    )
    assert (closed.orders[0]["seat"], closed.orders[0]["used"]) == (8, False)
    assert all(o["used"] for o in closed.orders[1:])
    assert matches.audit(new.match_id, new.referee_token).exact
    assert verified(matches, new.match_id)


def test_a_pause_takes_the_movement_off_the_sweep_until_the_resume(matches, clock):
    new, _ = district_war(matches)
    deadline = matches.get_match(new.match_id).deadline
    clock.advance(30)
    matches.act(new.match_id, new.referee_token, "pause", {}, "the board is disputed")
    clock.advance(300)  # far past the 90 s limit
    assert matches.due_movements() == []
    assert matches.resolve(new.match_id, 2) is None  # a late task changes nothing
    assert matches.summary(new.match_id).paused["deadline"] == deadline.isoformat()
    matches.act(new.match_id, new.referee_token, "resume", {}, "settled")
    shifted = deadline + timedelta(seconds=300)
    match = matches.get_match(new.match_id)
    assert match.deadline == shifted and match.paused is None and match.strikes == {}
    assert matches.summary(new.match_id).paused is None
    clock.reach(shifted - timedelta(seconds=1))
    assert matches.due_movements() == []
    clock.reach(shifted)
    assert [d.movement for d in matches.due_movements()] == [2]
    matches.read_models.catch_up()
    followed = snapshots(matches.read_models)
    for name in matches.read_models.projections:
        matches.read_models.rebuild(name)
    assert snapshots(matches.read_models) == followed


def test_open_orders_stay_sealed_through_a_pause_and_are_revealed_at_the_close(matches, clock):
    new, tokens = drts(matches)
    matches.act(new.match_id, new.referee_token, "pause", {}, "a dispute")
    for seat, team in enumerate(TEAMS, 1):
        clock.advance(1)
        matches.submit_order(new.match_id, tokens[seat - 1], f"team {team}")
    assert matches.get_match(new.match_id).movement == 1  # all ordered, yet paused: open
    seen_by_seat_2 = matches.event_log(new.match_id, tokens[1])
    orders = [e for e in seen_by_seat_2 if e["type"] == "OrderSubmitted"]
    assert len(orders) == 8
    assert [e["data"]["seat"] for e in orders if "sealed" in e] == [2]
    assert not any(e["data"]["ready"] for e in orders)
    clock.advance(5)
    matches.act(new.match_id, new.referee_token, "resume", {}, "dispute dismissed")
    match = matches.get_match(new.match_id)
    assert match.movement == 2  # every seat had ordered: it closes at the resume
    closed = next(
        e for e in matches.events.get(new.match_id) if isinstance(e, Match.MovementClosed)
    )
    resumed = next(e for e in matches.events.get(new.match_id) if isinstance(e, Match.Resumed))
    assert closed.intended_at == resumed.timestamp and closed.reason == "all_ordered"
    assert all(
        "sealed" in e
        for e in matches.event_log(new.match_id, tokens[1])
        if e["type"] == "OrderSubmitted"
    )
    assert matches.audit(new.match_id, new.referee_token).exact


def test_extend_and_reissue_record_the_referees_reason(matches, clock):
    new, _ = district_war(matches)
    matches.extend_deadline(new.match_id, new.referee_token, 60, reason="mail server down")
    matches.reissue_seat_token(new.match_id, new.referee_token, 1, "lost it")
    matches.reissue_seat_token(new.match_id, new.referee_token, 2)
    items = matches.event_log(new.match_id)
    extended = [e["data"] for e in items if e["type"] == "DeadlineSet"][-1]
    assert (extended["reason"], extended["note"]) == ("referee", "mail server down")
    reissued = [e["data"]["reason"] for e in items if e["type"] == "SeatTokenReissued"]
    assert reissued == ["lost it", None]
    assert verified(matches, new.match_id)


def verified(matches: Matches, match_id: Any) -> bool:
    """Returns whether the match's chain, seals and read-model heads verify."""
    return matches.verify_chain(match_id).ok
