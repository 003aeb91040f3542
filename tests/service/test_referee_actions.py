"""Referee actions (issue 11): a game's own moves for its referee, like B-Chess's macks.

Played with `toy_ref`, whose referee may `grant` points to a seat. An action is checked
like an order and recorded as a RefereeActed event carrying what replay needs (the state
it gives, its steps, its outcome), chained like every event.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import (
    IllegalActionError,
    InvalidActionError,
    MatchNotStartedError,
    MovementClosedError,
    NotRefereeError,
    UnknownActionError,
)
from domain.integrity import normalized
from domain.rules.contract import state_hash
from service.matches import Matches

GRANT = {"seat": 2, "points": 3}


def new_match(matches: Matches, start: bool = True, **config: Any) -> tuple[Any, list[str]]:
    new = matches.create_match("toy_ref", config, seed="referee")
    tokens = [matches.join(new.match_id, name).token for name in ("alice", "bob")]
    if start:
        matches.start(new.match_id, str(new.referee_token))
    return new, tokens


def acted(matches: Matches, match_id: Any) -> list[dict[str, Any]]:
    return [e for e in matches.event_log(match_id) if e["type"] == "RefereeActed"]


def test_a_granted_action_is_recorded_with_its_state_steps_and_reason(matches):
    new, _ = new_match(matches)
    taken = matches.act(new.match_id, new.referee_token, "grant", GRANT, "mack for a fine post")
    assert [s.text for s in taken.steps] == ["the referee grants seat 2 3 point(s)"]
    assert taken.outcome["scores"] == {"1": 0, "2": 3} and taken.movement == 1
    (event,) = acted(matches, new.match_id)
    assert event["version"] == taken.version
    data = event["data"]
    assert (data["action"], data["args"], data["reason"], data["by"]) == (
        "grant",
        GRANT,
        "mack for a fine post",
        "referee",
    )
    assert data["steps"][0]["rule"] == "TOY-5" and data["state"]["scores"] == [0, 3]
    assert data["state_hash"] == state_hash(normalized(data["state"]))
    assert matches.summary(new.match_id).outcome["scores"] == {"1": 0, "2": 3}
    assert matches.verify_chain(new.match_id).ok and matches.replay(new.match_id).agrees


def test_the_movement_resolves_from_the_state_the_action_gave(matches):
    new, (alice, bob) = new_match(matches)
    matches.submit_order(new.match_id, alice, "1")
    matches.act(new.match_id, new.referee_token, "grant", GRANT, "before the resolution")
    matches.submit_order(new.match_id, bob, "1")  # both pick 1: nobody scores a pick
    scores = matches.state(new.match_id).outcome["scores"]
    assert scores["2"] >= 3 and sum(scores.values()) == 4  # the grant and the one bonus
    before = matches.state(new.match_id, movement=1, phase=0).state
    assert before["scores"] == [0, 3]  # phase 0: the state the resolution started from


def test_a_refused_action_names_its_fault_and_records_nothing(matches):
    new, (alice, _) = new_match(matches)
    before = matches.event_log(new.match_id)
    refusals = [
        (alice, "grant", GRANT, "x", NotRefereeError, "cannot act as its referee"),
        (new.referee_token, "smite", GRANT, "x", UnknownActionError, r"its actions: grant"),
        (new.referee_token, "grant", {"seat": 1}, "x", InvalidActionError, "exactly seat"),
        (new.referee_token, "grant", {"seat": 9, "points": 1}, "x", IllegalActionError, "9"),
        (new.referee_token, "grant", GRANT, "  ", InvalidActionError, "needs a reason"),
    ]
    for token, name, args, reason, error, message in refusals:
        with pytest.raises(error, match=message):
            matches.act(new.match_id, token, name, args, reason)
    assert matches.event_log(new.match_id) == before


def test_no_action_before_the_start_nor_after_the_end(matches):
    new, (alice, bob) = new_match(matches, start=False, rounds=1)
    with pytest.raises(MatchNotStartedError):
        matches.act(new.match_id, new.referee_token, "grant", GRANT, "too early")
    matches.start(new.match_id, str(new.referee_token))
    matches.submit_order(new.match_id, alice, "1")
    matches.submit_order(new.match_id, bob, "2")
    with pytest.raises(MovementClosedError, match="finished"):
        matches.act(new.match_id, new.referee_token, "grant", GRANT, "too late")


def test_a_deadline_already_due_passes_before_the_action(matches, clock):
    """As for a late order: the action meets the movement that is open once it has passed."""
    new, (alice, _) = new_match(matches, close_early=False)
    matches.submit_order(new.match_id, alice, "2")
    clock.advance(61)
    taken = matches.act(new.match_id, new.referee_token, "grant", GRANT, "after the deadline")
    types = [e["type"] for e in matches.event_log(new.match_id)]
    assert types.index("MovementResolved") < types.index("RefereeActed")
    assert taken.movement == 2
