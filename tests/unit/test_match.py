"""The Match aggregate: commands compute, events record, replay never runs the rules."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from typing import Any
from uuid import uuid4

import pytest

from domain.errors import (
    DuplicateMessageError,
    IllegalOrderError,
    InvalidConfigError,
    InvalidTokenError,
    MatchAlreadyStartedError,
    MatchNotStartedError,
    MovementClosedError,
    NotASeatError,
    NotEnoughSeatsError,
    NotRefereeError,
    SeatTakenError,
    UnknownSeatError,
)
from domain.integrity import (
    canonical,
    commitment,
    content_problem,
    first_broken_link,
    receipt_digest,
)
from domain.match import Match
from domain.rules import registry
from domain.rules.contract import canonical_json
from service.eventjson import checked_item, public_item
from tests.support.match_events import ALICE, BOB, REFEREE, T0, fold, new_match, started
from tests.support.toy_ruleset import RULESET as TOY_V1
from tests.support.toy_ruleset import RULESET_V2 as TOY_V2

pytestmark = pytest.mark.usefixtures("toy_rulesets")


def names(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


def test_created_records_the_seed_commitment_and_seals_the_seed():
    match = Match.create(uuid4(), "toy", {"rounds": 1}, "s3cret", REFEREE, T0)
    created = match.pending_events[0]
    assert created.seed_commitment == hashlib.sha256(b"s3cret").hexdigest()
    assert created.sealed == {"seed": "s3cret"}
    assert "s3cret" not in canonical_json(public_item(created, with_sealed=False)).decode()
    assert created.config["rounds"] == 1 and created.config["silence"] == "hold"


def test_the_first_chain_link_hashes_the_match_id_then_the_event_body():
    match = Match.create(uuid4(), "toy", {}, "seed", REFEREE, T0)
    item = public_item(match.pending_events[0], with_sealed=False)
    body = {k: item[k] for k in ("type", "version", "timestamp", "data")}
    expected = hashlib.sha256(str(match.id).encode() + canonical_json(body)).hexdigest()
    assert match.chain == item["chain"] == expected


def test_every_event_links_to_the_previous_one():
    match = started()
    match.submit_order(ALICE, "1", "aa", T0)
    match.submit_order(BOB, "2", "bb", T0)
    match.close_movement(1, T0)
    items = [public_item(e, with_sealed=True) for e in match.pending_events]
    assert first_broken_link(match.id, items) is None
    items[5]["data"]["seat"] = 2
    broken = first_broken_link(match.id, items)
    assert broken is not None and (broken.version, broken.type) == (6, "OrderSubmitted")


def test_the_chain_check_hashes_an_event_as_decoded_as_its_public_form():
    match = started()
    match.submit_order(ALICE, "1", "aa", T0)
    match.close_movement(1, T0)
    for event in match.pending_events:
        checked, public = checked_item(event, True), public_item(event, True)
        for key in ("type", "version", "timestamp", "data", "sealed"):
            assert canonical(checked.get(key)) == canonical_json(public.get(key)), key
    items = [checked_item(e, with_sealed=True) for e in match.pending_events]
    assert first_broken_link(match.id, items) is None
    items[5]["data"] = {**items[5]["data"], "seat": 2}
    broken = first_broken_link(match.id, items)
    assert broken is not None and (broken.version, broken.type) == (6, "OrderSubmitted")


def test_seats_are_numbered_in_join_order_and_hold_only_token_hashes():
    match = new_match()
    assert [(s.number, s.name) for s in match.seats] == [(1, "alice"), (2, "bob")]
    assert match.seat_of(BOB) == 2
    with pytest.raises(InvalidTokenError, match=str(match.id)):
        match.seat_of(commitment("nobody"))


def test_a_taken_name_or_a_full_match_is_refused():
    match = Match.create(uuid4(), "toy", {}, "seed", REFEREE, T0, seats=2)
    match.join("alice", ALICE, T0)
    with pytest.raises(SeatTakenError, match="'alice' already holds seat 1"):
        match.join("alice", BOB, T0)
    match.join("bob", BOB, T0)
    with pytest.raises(SeatTakenError, match="all 2 seats are taken"):
        match.join("carol", commitment("c"), T0)


def test_start_needs_the_referee_and_enough_seats_and_happens_once():
    match = Match.create(uuid4(), "toy", {}, "seed", REFEREE, T0)
    match.join("alice", ALICE, T0)
    with pytest.raises(InvalidTokenError):
        match.start(ALICE, T0)
    with pytest.raises(NotEnoughSeatsError, match="needs 2 seats to start, 1 joined"):
        match.start(REFEREE, T0)
    match.join("bob", BOB, T0)
    match.start(REFEREE, T0)
    with pytest.raises(MatchAlreadyStartedError):
        match.start(REFEREE, T0)
    assert names(match.pending_events)[-2:] == ["Started", "DeadlineSet"]
    assert match.deadline == T0 + timedelta(seconds=60)


def test_orders_before_the_start_are_refused_without_an_event():
    match = new_match()
    count = len(match.pending_events)
    with pytest.raises(MatchNotStartedError):
        match.submit_order(ALICE, "1", "aa", T0)
    assert len(match.pending_events) == count


def test_an_order_is_recorded_with_its_receipt_digest_and_sealed_content():
    match = started()
    receipt = match.submit_order(ALICE, "2", "00ff", T0, source="email", message_id="<m1@x>")
    submitted = match.pending_events[-1]
    assert type(submitted).__name__ == "OrderSubmitted"
    assert submitted.sealed == {"order": {"pick": 2}, "sent": "2", "salt": "00ff"}
    covered = {"order": {"pick": 2}, "sent": "2"}  # the order kept as sent (issue 17)
    assert receipt.digest == submitted.digest == receipt_digest("00ff", covered)
    assert (submitted.source, submitted.message_id) == ("email", "<m1@x>")
    assert submitted.received_at == T0


def test_a_second_pending_order_of_one_message_is_named_a_duplicate():
    # two copies of one forum post (or mail) taken at once: the loser of the write race
    # reloads the match and must not store the order again (toy_acc accumulates orders)
    match = started(ruleset="toy_acc")
    match.check_message_new(ALICE, "forum", "p-1")  # nothing pending yet
    match.submit_order(ALICE, "1", "aa", T0, source="forum", message_id="p-1")
    first, count = match.pending_events[-1], len(match.pending_events)

    with pytest.raises(DuplicateMessageError, match="p-1") as duplicate:
        match.check_message_new(ALICE, "forum", "p-1")

    assert duplicate.value.version == first.originator_version
    assert duplicate.value.code == "duplicate_message"
    assert len(match.pending_events) == count and len(match.pending) == 1


def test_the_same_message_id_from_another_seat_or_source_or_none_is_new():
    match = started(ruleset="toy_acc")
    match.submit_order(ALICE, "1", "aa", T0, source="forum", message_id="p-1")
    match.check_message_new(BOB, "forum", "p-1")
    match.check_message_new(ALICE, "mail", "p-1")
    match.check_message_new(ALICE, "forum", "p-2")
    match.check_message_new(ALICE, "forum", None)
    match.submit_order(ALICE, "1", "bb", T0)
    match.check_message_new(ALICE, "api", None)


def test_an_illegal_order_is_recorded_as_rejected_and_raised():
    match = started()
    with pytest.raises(IllegalOrderError, match="pick 9 is out of range"):
        match.submit_order(ALICE, "9", "aa", T0)
    rejected = match.pending_events[-1]
    assert type(rejected).__name__ == "OrderRejected"
    assert (rejected.seat, rejected.error) == (1, "illegal_order")
    assert match.pending == []


def test_a_refused_order_is_sealed_with_its_reason_and_bound_by_a_digest():
    match = started()
    with pytest.raises(IllegalOrderError) as refused:
        match.submit_order(ALICE, "9", "aa", T0)
    rejected = match.pending_events[-1]
    reason = str(refused.value)
    assert rejected.reason == ""
    assert rejected.sealed == {"order": "9", "reason": reason, "salt": "aa"}
    assert rejected.digest == receipt_digest("aa", {"order": "9", "reason": reason})
    item = public_item(rejected, with_sealed=True)
    assert first_broken_link(match.id, [public_item(e, True) for e in match.pending_events]) is None
    item["sealed"] = {**rejected.sealed, "reason": "a reason the service never gave"}
    assert content_problem(item) == "the sealed order and salt do not match the receipt digest"


def test_a_refusal_stored_before_refusals_were_sealed_reads_with_its_public_reason():
    fields = {"seat": 1, "movement": 1, "received_at": T0, "source": "api", "message_id": None}
    old = Match.OrderRejected(
        originator_id=uuid4(),
        originator_version=5,
        timestamp=T0,
        **fields,
        error="illegal_order",
        reason="pick 9 is out of range",
        chain="c",
    )
    assert (old.digest, old.sealed) == ("", None)
    assert public_item(old, with_sealed=True)["data"]["reason"] == "pick 9 is out of range"
    assert "sealed" not in public_item(old, with_sealed=True)


def test_an_order_for_another_movement_is_rejected_as_closed():
    match = started()
    with pytest.raises(MovementClosedError, match=r"movement 3 of match .* is not open"):
        match.submit_order(ALICE, "1", "aa", T0, movement=3)


def test_a_ready_movement_closes_with_one_event_per_step():
    match = started()
    match.submit_order(ALICE, "1", "aa", T0)
    match.submit_order(BOB, "2", "bb", T0)
    before = len(match.pending_events)
    assert match.is_ready()
    match.close_movement(1, T0)
    new = names(match.pending_events[before:])
    assert new[0] == "MovementClosed" and new[-2:] == ["MovementResolved", "DeadlineSet"]
    assert new.count("StepApplied") == len(new) - 3
    closed = match.pending_events[before]
    assert [o["order"] for o in closed.orders] == [{"pick": 1}, {"pick": 2}]
    assert match.movement == 2 and match.pending == []


def test_the_match_closes_a_movement_as_its_table_does(monkeypatch):
    """One referee path: Match.close_movement records what Table.close computes (the match
    calls it once a close is due: ready, or a deadline passed, issue 13)."""
    from domain.table import Table

    calls = []
    real = Table.close

    def spy(self, deadline_passed=True):
        calls.append(deadline_passed)
        return real(self, deadline_passed)

    monkeypatch.setattr(Table, "close", spy)
    match = started({"close_early": False})
    match.submit_order(ALICE, "1", "aa", T0)
    assert match.close_movement(1, T0 + timedelta(seconds=59)) is None
    closed = match.close_movement(1, T0 + timedelta(seconds=60))
    assert calls == [True] and closed is not None and closed.resolution is not None
    reasons = [e.reason for e in match.pending_events if type(e).__name__ == "MovementClosed"]
    assert reasons == ["deadline"]


def test_after_a_resolution_the_next_table_holds_the_resolved_state_as_a_replay_decodes_it():
    """Issue 46: the match keeps the state its table resolved for the JSON it recorded
    (no decode at the next command); it is the state a replay decodes from that JSON."""
    match = started({"rounds": 3})
    match.submit_order(ALICE, "1", "aa", T0)
    match.submit_order(BOB, "2", "bb", T0)
    match.close_movement(1, T0)
    kept = match.table().state
    assert match.table().state is kept  # taken from the memo, not decoded again
    as_stored = json.loads(canonical_json(match.state))  # the JSON as a reload reads it
    decoded = TOY_V1.load_state(as_stored)
    assert decoded == kept and decoded is not kept
    assert canonical_json(TOY_V1.dump_state(kept)) == canonical_json(as_stored)


def test_an_order_that_makes_a_movement_ready_says_so_in_its_receipt():
    match = started()
    assert not match.submit_order(ALICE, "1", "aa", T0).ready
    assert match.submit_order(BOB, "2", "bb", T0).ready


def test_nothing_closes_before_the_deadline_unless_ready():
    match = started({"close_early": False})
    match.submit_order(ALICE, "1", "aa", T0)
    assert match.close_movement(1, T0 + timedelta(seconds=59)) is None
    assert match.close_movement(2, T0 + timedelta(seconds=60)) is None  # not the open movement
    assert match.close_movement(1, T0 + timedelta(seconds=60)) is not None


def test_silence_under_strikes_extends_then_forfeits():
    match = started({"silence": "strike", "max_strikes": 2, "extension_seconds": 30})
    match.submit_order(ALICE, "1", "aa", T0)
    first = T0 + timedelta(seconds=60)
    passed = match.close_movement(1, first)
    assert passed is not None and passed.strikes == (2,) and passed.resolution is None
    assert match.deadline == first + timedelta(seconds=30) and match.strikes == {"2": 1}
    passed = match.close_movement(1, match.deadline)
    assert passed is not None and passed.forfeited == (2,)
    assert match.finished and match.eliminated == [2]
    assert names(match.pending_events)[-1] == "Finished"


def test_replay_assigns_what_events_carry_and_never_runs_the_rules(monkeypatch):
    match = started({"rounds": 1})
    match.submit_order(ALICE, "3", "aa", T0)
    match.submit_order(BOB, "3", "bb", T0)
    match.close_movement(1, T0)
    events = list(match.pending_events)

    class NoRules:
        def __getattr__(self, name: str) -> Any:
            raise AssertionError(f"the rules ran during a replay ({name})")

    monkeypatch.setitem(registry.REGISTRY, "toy", {1: NoRules()})
    replayed = fold(events)
    assert replayed.state == match.state and replayed.outcome == match.outcome
    assert replayed.finished and replayed.chain == match.chain


def test_the_finished_event_reveals_the_seed():
    match = started({"rounds": 1})
    match.submit_order(ALICE, "3", "aa", T0)
    match.submit_order(BOB, "1", "bb", T0)
    match.close_movement(1, T0)
    finished = match.pending_events[-1]
    assert type(finished).__name__ == "Finished" and finished.seed == "the-seed"
    assert commitment(finished.seed) == match.seed_commitment


def test_the_referee_reissues_a_lost_seat_token_and_the_old_one_stops_working():
    match = started()
    match.reissue_seat_token(REFEREE, 1, commitment("alice-new"), T0)
    reissued = match.pending_events[-1]
    assert type(reissued).__name__ == "SeatTokenReissued"
    assert (reissued.seat, reissued.token_hash) == (1, commitment("alice-new"))
    assert match.seat_of(commitment("alice-new")) == 1
    with pytest.raises(InvalidTokenError):
        match.seat_of(ALICE)
    items = [public_item(e, with_sealed=True) for e in match.pending_events]
    assert first_broken_link(match.id, items) is None  # chained like every event
    assert fold(match.collect_events()).seats == match.seats  # replay assigns the new hash


def test_only_the_referee_reissues_and_only_for_a_joined_seat():
    match = started()
    with pytest.raises(NotRefereeError, match="seat token"):
        match.reissue_seat_token(ALICE, 2, commitment("x"), T0)
    with pytest.raises(InvalidTokenError):
        match.reissue_seat_token(commitment("nobody"), 2, commitment("x"), T0)
    with pytest.raises(UnknownSeatError, match="no seat 3"):
        match.reissue_seat_token(REFEREE, 3, commitment("x"), T0)


def test_tokens_say_which_kind_they_are_when_used_for_the_wrong_role():
    match = started()
    with pytest.raises(NotRefereeError):
        match.check_referee(BOB)
    with pytest.raises(NotASeatError, match="referee token"):
        match.seat_of(REFEREE)
    assert issubclass(NotRefereeError, InvalidTokenError)
    assert issubclass(NotASeatError, InvalidTokenError)


def test_a_deadline_longer_than_a_year_and_a_day_is_refused():
    with pytest.raises(InvalidConfigError, match="deadline_seconds must be 1 to"):
        Match.create(uuid4(), "toy", {}, "seed", REFEREE, T0, deadline_seconds=10**12)


def test_the_rematch_of_a_drawn_match_keeps_its_ruleset_version(monkeypatch):
    """DW-5 plays a drawn match again with the same ruleset: the same version, not the latest."""
    original = started({"rounds": 1})
    monkeypatch.setitem(registry.REGISTRY, "toy", {1: TOY_V1, 2: TOY_V2})
    rematch = Match.rematch(original, uuid4(), "rematch-seed", T0)
    assert (original.ruleset_version, rematch.ruleset_version) == (1, 1)
    assert rematch.rules() is TOY_V1 and rematch.rematch_of == str(original.id)


def test_a_match_is_created_under_the_version_asked_for_or_the_latest(monkeypatch):
    monkeypatch.setitem(registry.REGISTRY, "toy", {1: TOY_V1, 2: TOY_V2})
    assert Match.create(uuid4(), "toy", {}, "s", REFEREE, T0).ruleset_version == 2
    assert Match.create(uuid4(), "toy", {}, "s", REFEREE, T0, version=1).rules() is TOY_V1


def test_a_preset_is_expanded_when_the_match_is_created():
    match = Match.create(uuid4(), "toy", {"rounds": 2}, "s", REFEREE, T0, preset="strict")
    assert match.config == {**TOY_V1.configure({}, "strict"), "rounds": 2}
    assert match.config["silence"] == "strike"
