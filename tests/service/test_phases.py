"""The state after each phase of a resolved movement, run again from the log (issue 11).

Phases are not stored: the service runs the pinned rules again from the
match just before the movement closed, the seats its deadline forfeited and
the movement's Rng, and checks the last phase against the stored state hash.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from domain.rules import registry
from service.errors import MovementNotResolvedError, PhaseNotFoundError, PhasesDivergedError
from service.matches import Matches
from tests.support.toy_ruleset import RULESET


def started(matches: Matches, ruleset: str, names: list[str], **config: Any) -> Any:
    new = matches.create_match(ruleset, config, seed="phases")
    tokens = [matches.join(new.match_id, name).token for name in names]
    matches.start(new.match_id, new.referee_token)
    return new, tokens


def test_each_step_of_a_drts_movement_can_be_seen_after_it_resolves(matches):
    """DRTS-5: operations, steps 0..9, end of the movement; phase 12 is the next state."""
    new, tokens = started(matches, "drts_team23", [f"p{n}" for n in range(1, 9)], close_early=True)
    orders = ["fire 2>8; team green", "team yellow", *["hold"] * 6]  # onto seat 3's Fire
    for token, order in zip(tokens, orders, strict=True):
        matches.submit_order(new.match_id, token, order)
    before = matches.state(new.match_id, movement=1, phase=0)
    assert before.state == matches.state(new.match_id, movement=1).state
    assert len(before.phases) == 12 and before.phase_name == "before the resolution"
    assert before.phases[2] == "step 1: team allocation (DRTS-19)"
    last = matches.state(new.match_id, movement=1, phase=12)
    assert last.state == matches.state(new.match_id).state
    seat_1 = [
        matches.state(new.match_id, movement=1, phase=k).state["seats"]["1"] for k in range(13)
    ]
    assert [seat["pieces"].get("fire") for seat in seat_1[:2]] == [2, 8]  # the operations
    assert [seat["team"] for seat in seat_1[2:4]] == [None, "green"]  # step 1
    assert [seat["score"] for seat in seat_1[7:9]] == [0, 1]  # step 6: the battle on square 8
    steps = matches.state(new.match_id, movement=1, phase=12).steps
    resolved = [i for i in matches.event_log(new.match_id) if i["type"] == "StepApplied"]
    assert steps == [{k: i["data"][k] for k in ("rule", "text", "data")} for i in resolved]


def test_a_deadline_that_forfeits_a_seat_has_a_phase_for_the_forfeit(matches, clock):
    new, (alice, bob, _) = started(
        matches, "toy", ["alice", "bob", "carol"], silence="elimination", close_early=False
    )
    matches.submit_order(new.match_id, alice, "1")
    matches.submit_order(new.match_id, bob, "2")
    assert matches.resolve(new.match_id, 1, clock.advance(60)).eliminated == (3,)
    phase = matches.state(new.match_id, movement=1, phase=1)
    assert phase.phases == ["forfeit of seat 3", "resolution"]
    assert phase.state["out"] == [3] and phase.state["round"] == 1
    assert matches.state(new.match_id, movement=1, phase=2).state["round"] == 2


def test_an_open_movement_has_no_phases_and_shows_nothing_of_its_orders(matches):
    new, (alice, bob) = started(matches, "toy", ["alice", "bob"])
    matches.submit_order(new.match_id, alice, "3")
    for movement, phase, token in ((None, 0, bob), (1, 1, bob), (1, 0, None)):
        with pytest.raises(MovementNotResolvedError) as refused:
            matches.state(new.match_id, movement=movement, phase=phase, token=token)
        assert str(refused.value) == (
            f"movement 1 of match {new.match_id} is not resolved (yet): "
            "only a resolved movement has phases"
        )


def test_a_phase_out_of_range_is_refused_naming_the_range(matches):
    new, (alice, bob) = started(matches, "toy", ["alice", "bob"])
    matches.submit_order(new.match_id, alice, "3")
    matches.submit_order(new.match_id, bob, "1")
    with pytest.raises(PhaseNotFoundError, match=r"has phases 0\.\.1 .* not 2"):
        matches.state(new.match_id, movement=1, phase=2)


def test_rules_that_no_longer_give_the_stored_state_show_no_phase(matches, monkeypatch):
    new, (alice, bob) = started(matches, "toy", ["alice", "bob"])
    matches.submit_order(new.match_id, alice, "3")
    matches.submit_order(new.match_id, bob, "1")

    def changed(state: Any, orders: Any, rng: Any) -> Any:
        return replace(state, round=state.round + 2), ()

    monkeypatch.setitem(registry.REGISTRY, "toy", {1: replace(RULESET, resolve=changed)})
    with pytest.raises(PhasesDivergedError, match="not the stored"):
        matches.state(new.match_id, movement=1, phase=1)
