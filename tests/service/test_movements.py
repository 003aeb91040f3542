"""Orders as sent, past movements and receipt checks (issue 17), through the Matches
application on SQLite and PostgreSQL.

A DRTS Team 23 movement where seat 1 sends an order as text (odd whitespace kept)
then replaces it, seat 2 sends the JSON form and seat 3 is refused before it holds;
a District War match played to its end; toy matches for the order policies, a forfeit
and a game whose view hides something.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from domain.errors import InvalidOrderError
from domain.rules import registry
from service.errors import (
    InvalidDigestError,
    MovementNotFoundError,
    MovementNotResolvedError,
    UnknownReceiptError,
)
from service.matches import Matches
from tests.support.toy_ruleset import RULESET

TEXT = "  fire 2>8 ;\tteam green \n"  # seat 1's first order, as typed: kept exactly
REPLACEMENT = "fire 2>8; team green"
JSON_ORDER = {"operations": [{"op": "hold", "piece": "water"}], "team": "yellow"}
REFUSED = "fire 99"
MEETING = (
    Path(__file__).parents[1] / "scenarios/drts_team23_v2/drts_17_a_meeting_broken_by_a_battle.json"
)


def canonical(value: Any) -> bytes:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode()


def digest_of(salt: str, covered: Any) -> str:
    """The receipt digest recomputed with hashlib alone (docs/integrity.md)."""
    return hashlib.sha256(salt.encode("ascii") + canonical(covered)).hexdigest()


def started(
    matches: Matches, ruleset: str, count: int, version: int | None = None, **config: Any
) -> tuple[Any, list[str]]:
    new = matches.create_match(ruleset, config, seed="movements", version=version)
    tokens = [matches.join(new.match_id, f"p{n}").token for n in range(1, count + 1)]
    matches.start(new.match_id, new.referee_token)
    return new, tokens


@pytest.fixture
def drts(matches: Matches) -> dict[str, Any]:
    """A DRTS Team 23 match whose movement 1 resolved (every seat ordered) and movement 2
    is open with seat 1's order pending; the receipts by name. Version 1, whose later order
    replaces the earlier one (v2 merges them per piece: the last test)."""
    new, tokens = started(matches, "drts_team23", 8, version=1, close_early=True)
    receipts = {"text": matches.submit_order(new.match_id, tokens[0], TEXT, source="email")}
    receipts["json"] = matches.submit_order(new.match_id, tokens[1], JSON_ORDER, source="bot")
    with pytest.raises(InvalidOrderError) as refused:
        matches.submit_order(new.match_id, tokens[2], REFUSED, source="forum", message_id="<m3>")
    matches.submit_order(new.match_id, tokens[2], "hold")
    receipts["replacement"] = matches.submit_order(new.match_id, tokens[0], REPLACEMENT)
    for token in tokens[3:]:
        last = matches.submit_order(new.match_id, token, "hold")
    assert last.closing is not None and last.closing.resolved
    receipts["open"] = matches.submit_order(new.match_id, tokens[0], "water hold")
    refusal = next(i for i in matches.event_log(new.match_id) if i["type"] == "OrderRejected")
    return {
        "id": new.match_id,
        "referee": new.referee_token,
        "tokens": tokens,
        "receipts": receipts,
        "reason": str(refused.value),
        "refusal_digest": refusal["data"]["digest"],
    }


def test_each_order_is_kept_as_sent_and_its_digest_covers_what_was_sent(matches, drts):
    record = matches.movement(drts["id"], 1)
    first, second = record.orders[0], record.orders[1]
    assert (first.seat, first.sent, first.source) == (1, TEXT, "email")  # whitespace kept
    assert first.order == {
        "operations": [{"op": "move", "piece": "fire", "from": 2, "to": 8}],
        "team": "green",
    }
    assert (second.sent, second.order, second.source) == (JSON_ORDER, JSON_ORDER, "bot")
    for order in record.orders:
        covered = {"order": order.order, "sent": order.sent}
        assert digest_of(order.salt, covered) == order.digest
    assert first.digest == drts["receipts"]["text"].digest
    assert matches.verify_chain(drts["id"]).ok


def test_a_movement_shows_which_orders_counted_and_which_were_replaced(matches, drts):
    record = matches.movement(drts["id"], 1)
    assert (record.order_policy, record.reason) == ("replace", "all_ordered")
    fates = [(o.seat, o.fate, o.used) for o in record.orders]
    assert fates[0] == (1, "replaced", False)
    assert fates[1:] == [(2, "counted", True), (3, "counted", True), (1, "counted", True)] + [
        (seat, "counted", True) for seat in range(4, 9)
    ]
    assert record.orders[0].replaced_by == drts["receipts"]["replacement"].digest
    assert [o.version for o in record.orders] == sorted(o.version for o in record.orders)


def test_a_movement_shows_the_refused_orders_with_their_reasons(matches, drts):
    (refusal,) = matches.movement(drts["id"], 1).refused
    assert (refusal.seat, refusal.sent, refusal.error) == (3, REFUSED, "invalid_order")
    assert (refusal.source, refusal.message_id) == ("forum", "<m3>")
    assert refusal.reason == drts["reason"] and "not on the board" in refusal.reason
    covered = {"order": REFUSED, "reason": refusal.reason}
    assert refusal.salt is not None and digest_of(refusal.salt, covered) == refusal.digest


def test_a_movement_shows_its_steps_states_and_scores(matches, drts):
    """DRTS-9: seat 1's Fire moves onto seat 3's and captures it (+1), DRTS-10 (-1)."""
    record = matches.movement(drts["id"], 1)
    rules = [step["rule"] for step in record.steps]
    assert rules[:2] == ["DRTS-6", "DRTS-19"] and "DRTS-9" in rules and "DRTS-10" in rules
    assert [step["index"] for step in record.steps] == list(range(1, len(rules) + 1))
    assert record.state_before == matches.state(drts["id"], movement=1).state
    assert record.state_after == matches.state(drts["id"], movement=2).state
    assert record.state_before["seats"]["1"]["pieces"]["fire"] == 2
    assert record.state_after["seats"]["1"]["pieces"]["fire"] == 8
    assert record.outcome["scores"]["1"] == 1 and record.outcome["scores"]["3"] == -1
    assert record.outcome == matches.scores(drts["id"], movement=2).outcome


def test_an_open_or_unknown_movement_has_no_record(matches, drts):
    with pytest.raises(MovementNotResolvedError, match=r"movement 2 .* is not resolved"):
        matches.movement(drts["id"], 2, drts["referee"])
    with pytest.raises(MovementNotFoundError, match="has no movement 7"):
        matches.movement(drts["id"], 7)


def test_phases_need_the_seed_shown_to_the_referee_before_the_end_as_a_recorded_look(matches, drts):
    for token in (None, drts["tokens"][0]):
        record = matches.movement(drts["id"], 1, token)
        assert record.phases is None and "seed" in str(record.phases_note)
    assert not [i for i in matches.event_log(drts["id"]) if i["type"] == "SecretViewed"]
    record = matches.movement(drts["id"], 1, drts["referee"])
    assert record.phases is not None and record.phases_note is None
    assert len(record.phases) == 12 and record.phases[-1].state == record.state_after
    looks = [i["data"] for i in matches.event_log(drts["id"]) if i["type"] == "SecretViewed"]
    assert looks == [{"viewer": "referee", "what": "seed (phases of movement 1)"}]


def test_the_receipt_of_an_accepted_order_names_its_seat_movement_and_event(matches, drts):
    receipt = drts["receipts"]["text"]
    check = matches.receipt(drts["id"], receipt.digest.upper())  # hex in either case
    assert (check.kind, check.seat, check.movement, check.type) == (
        "order",
        1,
        1,
        "OrderSubmitted",
    )
    event = next(i for i in matches.event_log(drts["id"]) if i["version"] == check.version)
    assert event["data"]["digest"] == receipt.digest and event["chain"] == check.chain
    assert (check.revealed, check.sent, check.used, check.fate) == (True, TEXT, False, "replaced")
    assert check.salt is not None
    covered = {"order": check.order, "sent": check.sent}
    assert digest_of(check.salt, covered) == receipt.digest


def test_the_receipt_of_a_refused_order_says_it_was_refused_and_why(matches, drts):
    check = matches.receipt(drts["id"], drts["refusal_digest"])
    assert (check.kind, check.type, check.seat, check.movement) == (
        "refusal",
        "OrderRejected",
        3,
        1,
    )
    assert (check.sent, check.error, check.reason) == (REFUSED, "invalid_order", drts["reason"])
    assert check.order is None and check.used is None


def test_the_receipt_of_an_order_still_secret_shows_only_what_is_public(matches, drts):
    check = matches.receipt(drts["id"], drts["receipts"]["open"].digest)
    assert (check.seat, check.movement, check.revealed) == (1, 2, False)
    assert (check.order, check.sent, check.salt, check.used, check.fate) == (None,) * 5
    assert not [i for i in matches.event_log(drts["id"]) if i["type"] == "SecretViewed"]


def test_an_unknown_or_malformed_digest_is_refused_naming_it(matches, drts):
    with pytest.raises(UnknownReceiptError, match=r"no order of match .* 0{64}"):
        matches.receipt(drts["id"], "0" * 64)
    with pytest.raises(InvalidDigestError, match="'abc' is not a receipt digest"):
        matches.receipt(drts["id"], "abc")


def test_pending_orders_show_the_order_as_sent(matches, drts):
    (own,) = matches.pending_orders(drts["id"], drts["tokens"][0])
    assert (own["sent"], own["order"]) == (
        "water hold",
        {"operations": [{"op": "hold", "piece": "water"}], "team": None},
    )
    assert matches.state(drts["id"], token=drts["tokens"][0]).orders == [own]


def test_a_finished_district_war_match_shows_its_phases_to_everyone(matches):
    """DW-2: the DMO's choice; DW-3: a placement; the match ends on its last movement."""
    new, (alice, bob) = started(matches, "district_war", 2, troops=2)
    matches.submit_order(new.match_id, bob, "first 1")
    for token, cell in ((alice, "e4"), (bob, "b4"), (alice, "g4"), (bob, "g1")):
        matches.submit_order(new.match_id, token, cell)
    assert matches.summary(new.match_id).status == "finished"
    first = matches.movement(new.match_id, 1)
    assert [(o.seat, o.sent, o.fate) for o in first.orders] == [(2, "first 1", "counted")]
    assert first.steps[0]["rule"] == "DW-2"
    second = matches.movement(new.match_id, 2)
    assert [(o.seat, o.sent) for o in second.orders] == [(1, "e4")]
    assert second.steps[0]["rule"] == "DW-3" and second.state_after["cells"] == {"e4": 1}
    assert second.phases is not None and [p.name for p in second.phases] == ["resolution"]
    assert second.phases[0].steps == [{k: second.steps[0][k] for k in ("rule", "text", "data")}]
    last = matches.movement(new.match_id, 5)
    assert last.outcome["finished"] and last.outcome["scores"] == {"1": 9, "2": 11}
    assert not [i for i in matches.event_log(new.match_id) if i["type"] == "SecretViewed"]


@pytest.mark.parametrize(
    ("ruleset", "policy", "fates"),
    [
        ("toy", "replace", [(1, "replaced"), (1, "counted"), (2, "counted")]),
        ("toy_merge", "merge", [(1, "merged"), (1, "merged"), (2, "counted")]),
        ("toy_acc", "accumulate", [(1, "counted"), (1, "counted"), (2, "counted")]),
    ],
)
def test_the_order_policy_says_what_became_of_each_order(matches, clock, ruleset, policy, fates):
    new, (alice, bob) = started(matches, ruleset, 2, close_early=False)
    for token, pick in ((alice, "1"), (alice, "2"), (bob, "3")):
        matches.submit_order(new.match_id, token, pick)
    matches.resolve(new.match_id, 1, clock.advance(60))
    record = matches.movement(new.match_id, 1)
    assert record.order_policy == policy
    assert [(o.seat, o.fate) for o in record.orders] == fates


def test_a_forfeit_and_strikes_recorded_in_the_close_are_shown(matches, clock):
    new, (alice, bob, _) = started(matches, "toy", 3, silence="elimination", close_early=False)
    matches.submit_order(new.match_id, alice, "1")
    matches.submit_order(new.match_id, bob, "2")
    assert matches.resolve(new.match_id, 1, clock.advance(60)).eliminated == (3,)
    record = matches.movement(new.match_id, 1, new.referee_token)
    assert [(e["seat"], e["reason"]) for e in record.eliminated] == [(3, "elimination")]
    assert record.reason == "deadline" and record.strikes == []
    assert [p.name for p in record.phases or ()] == ["forfeit of seat 3", "resolution"]


def test_states_are_shown_as_the_viewer_may_see_them(matches, monkeypatch):
    def hiding(state: Any, seat: int | None) -> Any:
        return {"seen_by": seat, "round": state.round}

    monkeypatch.setitem(registry.REGISTRY, "toy", {1: replace(RULESET, view=hiding)})
    new, (alice, bob) = started(matches, "toy", 2)
    matches.submit_order(new.match_id, alice, "1")
    matches.submit_order(new.match_id, bob, "2")
    public = matches.movement(new.match_id, 1)
    assert (public.state_before, public.state_after) == (
        {"seen_by": None, "round": 1},
        {"seen_by": None, "round": 2},
    )
    assert matches.movement(new.match_id, 1, bob).state_after == {"seen_by": 2, "round": 2}
    full = matches.movement(new.match_id, 1, new.referee_token)
    assert full.state_after["round"] == 2 and "scores" in full.state_after
    assert full.phases is not None and "scores" in full.phases[-1].state


def test_an_order_a_forfeit_left_untaken_is_shown_unused(matches, clock):
    """A forfeit that ends the match (the last seat standing) resolves no order."""
    new, (alice, _) = started(matches, "toy", 2, silence="elimination", close_early=False)
    matches.submit_order(new.match_id, alice, "2")
    matches.submit_order(new.match_id, alice, "3")
    closing = matches.resolve(new.match_id, 1, clock.advance(60))
    assert closing is not None and closing.eliminated == (2,) and closing.finished
    record = matches.movement(new.match_id, 1)
    assert [(o.fate, o.used, o.replaced_by) for o in record.orders] == [
        ("unused", False, None),
        ("unused", False, None),
    ]
    assert record.phases is not None and [p.name for p in record.phases] == ["forfeit of seat 2"]


def test_a_drts_v2_seats_messages_merged_per_piece_show_as_merged(matches):
    """DRTS v2 merges a seat's messages per piece (issue 20): both count, as `merged`."""
    new, tokens = started(matches, "drts_team23", 8, version=2, close_early=True)
    matches.submit_order(new.match_id, tokens[0], "fire 2>8")
    matches.submit_order(new.match_id, tokens[0], "water hold")
    for token in tokens[1:]:
        matches.submit_order(new.match_id, token, "hold")
    record = matches.movement(new.match_id, 1)
    assert record.order_policy == "merge"
    assert [(o.seat, o.fate, o.used) for o in record.orders if o.seat == 1] == [
        (1, "merged", True),
        (1, "merged", True),
    ]


def test_the_phases_of_a_movement_breaking_a_meeting_are_shown_to_everyone_once_finished(
    matches, clock
):
    """Issue 40, DRTS-17: between the battle that breaks a meeting (step 6) and its reset
    (step 8) a phase's state still lists the meeting; the record showed each phase by
    loading it again as a state, which refused it (422 invalid_state: the meeting "does
    not hold"), to every reader but the referee. Each phase is shown as /state shows it."""
    scenario = json.loads(MEETING.read_text())
    state = {**scenario["state"], "config": {**scenario["state"]["config"], "movements": 9,
                                              "max_movements": 9}}  # fmt: skip
    new = matches.create_match(
        "drts_team23", state["config"], seats=8, seed=scenario["seed"], version=2
    )
    tokens = {n: matches.join(new.match_id, f"seat {n}").token for n in range(1, 9)}
    matches.start(new.match_id, new.referee_token, state, scenario["movement"])
    for seat, orders in scenario["movements"][0]["orders"].items():
        for order in orders:
            matches.submit_order(new.match_id, tokens[int(seat)], order)
    clock.advance(21)
    matches.resolve(new.match_id, 9, clock())
    assert matches.summary(new.match_id).status == "finished"
    for token in (None, tokens[1], new.referee_token):
        record = matches.movement(new.match_id, 9, token)
        assert record.phases is not None
        for number, phase in enumerate(record.phases, start=1):
            shown = matches.state(new.match_id, 9, number, token)
            assert phase.state == shown.state, (token, number)
