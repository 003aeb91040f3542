"""The Match's disputes (issue 18, domain/match/disputes.py): numbered, recorded as events
that replay to the same disputes, ruled once; what may be cited is the caller's to say."""

from __future__ import annotations

from datetime import timedelta

import pytest

from domain.errors import (
    DisputeAlreadyRuledError,
    InvalidDisputeError,
    InvalidTokenError,
    NotRefereeError,
    TooManyOpenDisputesError,
    UncitableEventError,
    UnknownDisputeError,
)
from domain.integrity import commitment, first_broken_link
from domain.match import Match, disputes
from domain.match.disputes import MAX_OPEN_DISPUTES_PER_SEAT
from service.eventjson import public_item
from tests.support.match_events import ALICE, BOB, REFEREE, T0, fold, started

pytestmark = pytest.mark.usefixtures("toy_rulesets")
LATER = T0 + timedelta(minutes=5)


def anything(version: int, seat: int | None) -> str | None:
    return None


def test_disputes_are_numbered_recorded_and_replay_to_the_same():
    match = started()
    assert match.file_dispute(ALICE, [3, 1, 3], "one", LATER, anything) == 1
    assert match.file_dispute(REFEREE, [2], "two", LATER, anything, by="operator") == 2
    ruled = match.rule_dispute(REFEREE, 1, "upheld", "a note", "referee", LATER)
    first, second = match.disputes
    assert (first.seat, first.by, first.cites, first.movement) == (1, "seat", (1, 3), 1)
    assert (second.seat, second.by) == (None, "operator")
    assert ruled == first and (first.ruling, first.reason, first.ruled_by) == (
        "upheld",
        "a note",
        "referee",
    )
    assert first.ruled_version == match.version and first.correction is None
    assert second.is_open and not first.is_open
    events = match.collect_events()
    assert [type(e).__name__ for e in events[-3:]] == [
        "DisputeFiled",
        "DisputeFiled",
        "DisputeRuled",
    ]
    items = [public_item(e, with_sealed=True) for e in events]
    assert first_broken_link(match.id, items) is None
    assert fold(events).disputes == match.disputes


def test_the_caller_says_what_a_seat_may_not_cite():
    match = started()
    asked: list[tuple[int, int | None]] = []

    def sealed_four(version: int, seat: int | None) -> str | None:
        asked.append((version, seat))
        return "sealed" if version == 4 and seat is not None else None

    with pytest.raises(UncitableEventError, match="event 4 cannot be cited by seat 2: sealed"):
        match.file_dispute(BOB, [2, 4], "why", LATER, sealed_four)
    assert match.file_dispute(REFEREE, [4], "why", LATER, sealed_four) == 1
    assert asked == [(2, 2), (4, 2), (4, None)]


def test_bad_disputes_record_nothing():
    match = started()
    version = match.version
    with pytest.raises(InvalidDisputeError, match="at least one event version"):
        match.file_dispute(ALICE, [], "text", LATER, anything)
    with pytest.raises(InvalidDisputeError, match="needs a text"):
        match.file_dispute(ALICE, [1], " \t", LATER, anything)
    for cite in (0, -1, version + 1):
        with pytest.raises(InvalidDisputeError, match=f"event {cite} cannot be cited"):
            match.file_dispute(ALICE, [cite], "text", LATER, anything)
    with pytest.raises(InvalidTokenError):
        match.file_dispute(commitment("nobody"), [1], "text", LATER, anything)
    assert match.version == version and match.disputes == []


def test_a_dispute_is_ruled_once_by_the_referee_with_a_reason():
    match = started()
    match.file_dispute(ALICE, [1], "text", LATER, anything)
    with pytest.raises(NotRefereeError):
        match.rule_dispute(ALICE, 1, "dismissed", "mine", "referee", LATER)
    with pytest.raises(UnknownDisputeError, match="has no dispute 2 \\(1 filed\\)"):
        match.rule_dispute(REFEREE, 2, "dismissed", "why", "referee", LATER)
    with pytest.raises(InvalidDisputeError, match="dismissed or upheld"):
        match.rule_dispute(REFEREE, 1, "maybe", "why", "referee", LATER)
    with pytest.raises(InvalidDisputeError, match="needs a reason"):
        match.rule_dispute(REFEREE, 1, "upheld", "", "referee", LATER)
    match.rule_dispute(REFEREE, 1, "dismissed", "no case", "referee", LATER)
    with pytest.raises(DisputeAlreadyRuledError, match="already dismissed"):
        match.rule_dispute(REFEREE, 1, "upheld", "after all", "referee", LATER)
    assert [type(e).__name__ for e in match.pending_events].count("DisputeRuled") == 1


def test_a_dispute_before_the_start_names_movement_0():
    match = Match.create(started().id, "toy", {}, "seed", REFEREE, T0)
    match.join("alice", ALICE, T0)
    match.file_dispute(ALICE, [1], "text", LATER, anything)
    assert match.disputes[0].movement == 0


def test_a_seat_with_the_most_open_disputes_is_refused_one_more_until_a_ruling():
    match = started()
    for n in range(MAX_OPEN_DISPUTES_PER_SEAT):
        match.file_dispute(ALICE, [1], f"complaint {n}", LATER, anything, key_digest=f"k{n}")
    version = match.version
    with pytest.raises(
        TooManyOpenDisputesError, match=f"has {MAX_OPEN_DISPUTES_PER_SEAT} disputes"
    ) as e:
        match.file_dispute(ALICE, [1], "one more", LATER, anything)
    assert e.value.code == "too_many_open_disputes"
    assert e.value.details == {
        "seat": 1,
        "limit": MAX_OPEN_DISPUTES_PER_SEAT,
        "open": list(range(1, MAX_OPEN_DISPUTES_PER_SEAT + 1)),
    }
    assert match.version == version
    assert match.file_dispute(ALICE, [1], "retried", LATER, anything, key_digest="k4") == 5
    assert match.file_dispute(BOB, [1], "another seat", LATER, anything) == 11
    for n in range(MAX_OPEN_DISPUTES_PER_SEAT + 1):  # the referee and operator: no cap
        match.file_dispute(REFEREE, [1], f"note {n}", LATER, anything, by="operator")
    match.rule_dispute(REFEREE, 7, "dismissed", "no case", "referee", LATER)
    assert match.file_dispute(ALICE, [1], "room again", LATER, anything) == 23
    with pytest.raises(TooManyOpenDisputesError):
        match.file_dispute(ALICE, [1], "full again", LATER, anything)


def test_a_log_holding_more_open_disputes_than_the_cap_replays_as_recorded(monkeypatch):
    """The cap is a check of the command: no event records it, so a log written before
    it (or under a larger one) folds to every dispute it holds."""
    match = started()
    monkeypatch.setattr(disputes, "MAX_OPEN_DISPUTES_PER_SEAT", MAX_OPEN_DISPUTES_PER_SEAT + 5)
    for n in range(MAX_OPEN_DISPUTES_PER_SEAT + 5):
        match.file_dispute(ALICE, [1], f"complaint {n}", LATER, anything)
    monkeypatch.undo()
    replayed = fold(match.collect_events())
    assert replayed.disputes == match.disputes
    assert sum(d.is_open for d in replayed.disputes) == MAX_OPEN_DISPUTES_PER_SEAT + 5
    with pytest.raises(TooManyOpenDisputesError, match="has 15 disputes"):
        replayed.file_dispute(ALICE, [1], "one more", LATER, anything)
    for number in range(1, 7):
        replayed.rule_dispute(REFEREE, number, "dismissed", "no", "referee", LATER)
    assert replayed.file_dispute(ALICE, [1], "below the cap", LATER, anything) == 16
