"""The Matches application, on SQLite and on PostgreSQL (the `matches` fixture runs both)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import (
    IllegalOrderError,
    InvalidOrderError,
    InvalidTokenError,
    MovementClosedError,
    SeatTakenError,
    UnknownRulesetError,
)
from domain.integrity import commitment, first_broken_link, receipt_digest
from service.errors import MatchNotFoundError, MovementNotFoundError, PhaseNotFoundError
from service.matches import SNAPSHOT_INTERVAL, Matches
from tests.support.matches import new_match, started


def types(matches: Matches, match_id: Any) -> list[str]:
    return [item["type"] for item in matches.event_log(match_id)]


def test_creates_a_match_with_a_random_id_and_a_referee_token(matches):
    first, second = matches.create_match("toy"), matches.create_match("toy")
    assert first.match_id != second.match_id and first.match_id.version == 4
    assert first.referee_token and first.created
    assert matches.summary(first.match_id).status == "open"
    assert list(matches.match_ids()) == [first.match_id, second.match_id]


def test_a_retried_create_with_the_same_idempotency_key_finds_the_first_match(matches):
    first = matches.create_match("toy", idempotency_key="req-1")
    again = matches.create_match("toy", idempotency_key="req-1")
    other = matches.create_match("toy", idempotency_key="req-2")
    assert again.match_id == first.match_id and not again.created and again.referee_token is None
    assert other.match_id != first.match_id
    assert len(list(matches.match_ids())) == 2


def test_an_unknown_ruleset_is_refused_by_name(matches):
    with pytest.raises(UnknownRulesetError, match="'chess960'"):
        matches.create_match("chess960")


def test_seat_tokens_are_returned_once_and_stored_only_as_hashes(matches):
    new, alice, bob = new_match(matches)
    assert (alice.seat, bob.seat) == (1, 2)
    log = str(matches.event_log(new.match_id, new.referee_token))
    assert alice.token not in log and new.referee_token not in log
    assert commitment(alice.token) in log


def test_a_duplicate_seat_is_refused_and_nothing_changes(matches):
    new, _, _ = new_match(matches, seats=2)
    before = matches.event_log(new.match_id)
    with pytest.raises(SeatTakenError, match="'alice' already holds seat 1"):
        matches.join(new.match_id, "alice")
    with pytest.raises(SeatTakenError, match="all 2 seats are taken"):
        matches.join(new.match_id, "carol")
    assert matches.event_log(new.match_id) == before


def test_bad_input_gives_clear_errors_and_keeps_what_is_stored(matches, clock):
    new, alice, bob = started(matches, {"close_early": False})
    matches.submit_order(new.match_id, alice.token, "2")
    before = matches.event_log(new.match_id)
    with pytest.raises(MatchNotFoundError, match="'no-such-match'"):
        matches.submit_order("no-such-match", alice.token, "1")
    with pytest.raises(MatchNotFoundError, match="00000000-0000-4000-8000-000000000000"):
        matches.summary("00000000-0000-4000-8000-000000000000")
    with pytest.raises(InvalidTokenError, match=str(new.match_id)):
        matches.submit_order(new.match_id, "wrong-token", "1")
    with pytest.raises(IllegalOrderError, match="pick 7 is out of range"):
        matches.submit_order(new.match_id, bob.token, "7")
    with pytest.raises(InvalidOrderError, match="'seven'"):
        matches.submit_order(new.match_id, bob.token, "seven")
    with pytest.raises(MovementClosedError, match=r"movement 5 .* is not open"):
        matches.submit_order(new.match_id, bob.token, "1", movement=5)
    after = matches.event_log(new.match_id)
    assert after[: len(before)] == before
    assert [item["type"] for item in after[len(before) :]] == ["OrderRejected"] * 3
    assert matches.pending_orders(new.match_id, alice.token)[0]["order"] == {"pick": 2}
    assert matches.verify_chain(new.match_id).ok


def test_an_order_for_a_closed_movement_is_rejected(matches):
    new, alice, bob = started(matches)
    matches.submit_order(new.match_id, alice.token, "1")
    matches.submit_order(new.match_id, bob.token, "2")
    with pytest.raises(MovementClosedError, match=r"movement 1 of match .* is not open"):
        matches.submit_order(new.match_id, alice.token, "3", movement=1)


def test_a_later_order_from_a_seat_replaces_its_earlier_one(matches, clock):
    new, alice, _ = started(matches, {"close_early": False})
    matches.submit_order(new.match_id, alice.token, "1")
    matches.submit_order(new.match_id, alice.token, "3")
    closing = matches.resolve(new.match_id, 1, clock.advance(60))
    assert closing is not None and closing.resolved
    assert [s.text for s in closing.steps if s.rule == "TOY-1"] == ["seat 1 picks 3"]
    closed = next(i for i in matches.event_log(new.match_id) if i["type"] == "MovementClosed")
    assert [o["used"] for o in closed["data"]["orders"]] == [False, True]


def test_orders_accumulate_when_the_game_says_so(matches, clock):
    new, alice, _ = started(matches, {"close_early": False}, ruleset="toy_acc")
    matches.submit_order(new.match_id, alice.token, "1")
    matches.submit_order(new.match_id, alice.token, "2")
    closing = matches.resolve(new.match_id, 1, clock.advance(60))
    assert closing is not None
    assert [s.text for s in closing.steps if s.rule == "TOY-1"] == ["seat 1 picks 3"]


def test_orders_merge_when_the_game_says_so_and_every_merged_order_is_used(matches, clock):
    new, alice, _ = started(matches, {"close_early": False}, ruleset="toy_merge")
    for pick in ("3", "1"):
        matches.submit_order(new.match_id, alice.token, pick)
    closing = matches.resolve(new.match_id, 1, clock.advance(60))
    assert closing is not None
    assert [s.text for s in closing.steps if s.rule == "TOY-1"] == ["seat 1 picks 3"]
    closed = next(i for i in matches.event_log(new.match_id) if i["type"] == "MovementClosed")
    assert [o["used"] for o in closed["data"]["orders"]] == [True, True]


def test_a_movement_that_may_close_early_resolves_once_every_seat_has_ordered(matches):
    new, alice, bob = started(matches)
    first = matches.submit_order(new.match_id, alice.token, "1")
    assert first.closing is None
    second = matches.submit_order(new.match_id, bob.token, "2")
    assert second.closing is not None and second.closing.resolved
    assert matches.summary(new.match_id).movement == 2


def test_resolving_twice_gives_exactly_one_resolution(matches, clock):
    new, alice, _ = started(matches)
    matches.submit_order(new.match_id, alice.token, "1")
    assert matches.resolve(new.match_id, 1) is None  # not due: bob may still order
    at = clock.advance(60)
    assert matches.resolve(new.match_id, 1, at) is not None
    assert matches.resolve(new.match_id, 1, at) is None
    assert types(matches, new.match_id).count("MovementResolved") == 1


def test_silence_strikes_extend_the_deadline_then_forfeit(matches, clock):
    new, alice, _ = started(
        matches, {"silence": "strike", "max_strikes": 2, "extension_seconds": 30}
    )
    matches.submit_order(new.match_id, alice.token, "1")
    first = matches.resolve(new.match_id, 1, clock.advance(60))
    assert first is not None and first.strikes == (2,) and not first.resolved
    assert matches.summary(new.match_id).deadline == clock.advance(30).isoformat()
    second = matches.resolve(new.match_id, 1, clock.now)
    assert second is not None and second.eliminated == (2,) and second.finished
    assert types(matches, new.match_id)[-6:] == [
        "SeatStruck",
        "SeatEliminated",
        "MovementClosed",
        "StepApplied",
        "MovementResolved",
        "Finished",
    ]


def test_due_movements_are_found_and_resolved_by_resolve_due(matches, clock):
    new, _, _ = started(matches)
    other, _, _ = started(matches)
    assert matches.due_movements() == []
    clock.advance(61)
    assert {d.match_id for d in matches.due_movements()} == {new.match_id, other.match_id}
    assert len(matches.resolve_due()) == 2
    assert matches.resolve_due() == []
    assert matches.summary(new.match_id).movement == 2


def test_open_orders_show_digests_not_contents_until_the_movement_resolves(matches):
    new, alice, bob = started(matches)
    matches.submit_order(new.match_id, alice.token, "3", source="email", message_id="<a@x>")
    public = matches.event_log(new.match_id)[-1]
    assert public["type"] == "OrderSubmitted" and "sealed" not in public
    assert set(public["data"]) == {
        "seat",
        "movement",
        "received_at",
        "source",
        "message_id",
        "digest",
        "ready",
    }
    assert "sealed" in matches.event_log(new.match_id, alice.token)[-1]  # its own order
    assert "sealed" not in matches.event_log(new.match_id, bob.token)[-1]
    matches.submit_order(new.match_id, bob.token, "1")
    revealed = [i for i in matches.event_log(new.match_id) if i["type"] == "OrderSubmitted"]
    for item in revealed:
        sealed = item["sealed"]
        covered = {"order": sealed["order"], "sent": sealed["sent"]}  # issue 17
        assert receipt_digest(sealed["salt"], covered) == item["data"]["digest"]


def test_the_referee_sees_secrets_early_and_the_look_is_recorded(matches):
    new, alice, _ = started(matches)
    matches.submit_order(new.match_id, alice.token, "3")
    assert "sealed" in matches.event_log(new.match_id, new.referee_token)[-1]
    assert matches.referee_seed(new.match_id, new.referee_token) == "test-seed"
    assert types(matches, new.match_id)[-2:] == ["SecretViewed", "SecretViewed"]
    with pytest.raises(InvalidTokenError):
        matches.referee_seed(new.match_id, alice.token)


def test_the_seed_is_revealed_when_the_match_finishes(matches):
    new, alice, bob = started(matches, {"rounds": 1})
    assert "sealed" not in matches.event_log(new.match_id)[0]
    matches.submit_order(new.match_id, alice.token, "3")
    matches.submit_order(new.match_id, bob.token, "1")
    log = matches.event_log(new.match_id)
    assert log[-1]["type"] == "Finished" and log[-1]["data"]["seed"] == "test-seed"
    assert log[0]["sealed"] == {"seed": "test-seed"}
    assert matches.summary(new.match_id).outcome["winners"] == [1]


def test_state_and_scores_at_any_movement_and_phase(matches):
    new, alice, bob = started(matches, {"rounds": 3})
    for _ in range(2):
        matches.submit_order(new.match_id, alice.token, "3")
        matches.submit_order(new.match_id, bob.token, "1")
    assert matches.state(new.match_id, movement=1).state["scores"] == [0, 0]
    after = matches.state(new.match_id, movement=1, phase=1)
    assert [s["text"] for s in after.steps][:2] == ["seat 1 picks 3", "seat 2 picks 1"]
    assert after.state == matches.state(new.match_id, movement=2).state
    assert matches.state(new.match_id).state["round"] == 3
    resolved = [i for i in matches.event_log(new.match_id) if i["type"] == "MovementResolved"]
    stored = resolved[0]["data"]["outcome"]  # shown with `rematch`, its stored key "replay"
    assert matches.scores(new.match_id, 2).outcome == {**stored, "rematch": stored["replay"]}
    assert matches.scores(new.match_id, 1).outcome["scores"] == {"1": 0, "2": 0}
    with pytest.raises(MovementNotFoundError, match="no movement 9"):
        matches.state(new.match_id, movement=9)
    with pytest.raises(PhaseNotFoundError, match=r"has phases 0\.\.1 "):
        matches.state(new.match_id, movement=1, phase=99)


def test_replay_agrees_with_the_store_and_the_chain_verifies(matches):
    new, alice, bob = started(matches, {"rounds": 2})
    for _ in range(2):
        matches.submit_order(new.match_id, alice.token, "2")
        matches.submit_order(new.match_id, bob.token, "2")
    report = matches.replay(new.match_id)
    assert report.agrees and [f.movement for f in report.frames] == [1, 2]
    chain = matches.verify_chain(new.match_id)
    assert chain.ok and chain.events == len(matches.event_log(new.match_id))
    assert first_broken_link(new.match_id, matches.event_log(new.match_id)) is None


def test_a_long_match_is_loaded_from_a_snapshot(matches, clock):
    new, alice, _ = started(matches, {"close_early": False})
    for i in range(SNAPSHOT_INTERVAL + 5):
        matches.submit_order(new.match_id, alice.token, str(1 + i % 3))
    snapshots = list(matches.store.snapshots.get(new.match_id)) if matches.store.snapshots else []
    assert [s.originator_version for s in snapshots] == [SNAPSHOT_INTERVAL]
    assert matches.replay(new.match_id).agrees
    assert matches.resolve(new.match_id, 1, clock.advance(60)) is not None
