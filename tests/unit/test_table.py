"""Table: the pure referee's clock (early close, silence policies, strikes) and order handling."""

from dataclasses import replace

import pytest

from domain.errors import (
    IllegalActionError,
    IllegalOrderError,
    InvalidOrderError,
    MovementClosedError,
    NotYourSeatError,
)
from domain.rules.contract import OrderPolicy, RefereeAction
from domain.table import Table
from tests.support.toy_ruleset import ACCUMULATING, MERGING, REFEREED, RULESET, SCREENING


def table(seats=3, **config):
    return Table.start(RULESET, config, seats, "table-test")


def test_a_movement_that_may_close_early_is_ready_once_every_owing_seat_ordered():
    t = table(seats=2)
    t.submit(1, "1")
    assert not t.is_ready()
    t.submit(2, "2")
    assert t.is_ready()


def test_close_before_the_deadline_does_nothing_unless_the_movement_is_ready():
    t = table(seats=2)
    t.submit(1, "1")
    waiting = t.close(deadline_passed=False)
    assert not waiting.acted and t.movement == 1 and t.pending == [(1, 1)]
    t.submit(2, "2")
    early = t.close(deadline_passed=False)
    assert early.acted and early.early and early.resolution is not None and t.movement == 2


def test_close_once_the_deadline_passed_applies_silence():
    t = table(seats=2)
    t.submit(1, "1")
    passed = t.close(deadline_passed=True)
    assert passed.acted and not passed.early and passed.resolution is not None


def test_a_movement_without_early_close_is_never_ready():
    t = table(seats=2, close_early=False)
    t.submit(1, "1")
    t.submit(2, "2")
    assert not t.is_ready()


def test_a_later_order_from_a_seat_replaces_its_earlier_one():
    t = table(seats=2)
    t.submit(1, "1")
    t.submit(2, "2")
    t.submit(1, "3")
    assert t.orders_for_resolution() == [(2, 2), (1, 3)]


def test_orders_accumulate_in_arrival_order_where_the_game_says_so():
    t = Table.start(ACCUMULATING, {}, 2, "acc")
    t.submit(1, "1")
    t.submit(1, "3")
    assert t.orders_for_resolution() == [(1, 1), (1, 3)]


@pytest.mark.parametrize(
    ("ruleset", "combined", "used"),
    [
        (RULESET, [(2, 1), (1, 1)], {1, 2}),  # replace: seat 1's last order
        (MERGING, [(2, 1), (1, 3)], {0, 1, 2}),  # merge: max(3, 1), at seat 1's last place
        (ACCUMULATING, [(1, 3), (2, 1), (1, 1)], {0, 1, 2}),  # accumulate: all, in arrival
    ],
    ids=["replace", "merge", "accumulate"],
)
def test_a_seats_orders_combine_by_the_games_order_policy(ruleset, combined, used):
    t = Table.start(ruleset, {}, 2, "policy")
    for seat, pick in ((1, "3"), (2, "1"), (1, "1")):
        t.submit(seat, pick)
    assert t.orders_for_resolution() == combined
    resolution = t.close().resolution
    assert resolution.orders == tuple(combined) and resolution.used == frozenset(used)


def test_a_merge_that_is_not_legal_is_refused_when_the_later_order_arrives():
    summing = replace(MERGING, merge_orders=lambda earlier, later: earlier + later)
    t = Table.start(summing, {}, 2, "merge")
    t.submit(1, "2")
    with pytest.raises(IllegalOrderError, match="pick 4 is out of range"):
        t.submit(1, "2")
    assert t.pending == [(1, 2)]


def test_a_merge_policy_without_a_merge_function_is_refused_when_declared():
    with pytest.raises(ValueError, match=r"toy_merge: OrderPolicy\.MERGE needs merge_orders"):
        replace(MERGING, merge_orders=None)


def test_accumulates_orders_is_kept_as_an_alias_of_the_accumulate_policy():
    assert ACCUMULATING.info.order_policy is OrderPolicy.ACCUMULATE
    assert ACCUMULATING.info.accumulates_orders
    assert not MERGING.info.accumulates_orders and not RULESET.info.accumulates_orders


def test_a_malformed_order_is_refused_before_anything_is_recorded():
    t = table()
    with pytest.raises(InvalidOrderError, match="'x'"):
        t.submit(1, "x")
    assert t.pending == []


def test_an_illegal_order_is_refused_with_the_rulesets_reason():
    with pytest.raises(IllegalOrderError, match="out of range"):
        table().submit(1, "7")


def test_a_seat_that_owes_nothing_is_refused_by_number():
    with pytest.raises(NotYourSeatError, match="seat 4 owes no orders"):
        table().submit(4, "1")


def test_resolving_opens_the_next_movement_with_no_pending_orders():
    t = table(seats=2)
    t.submit(1, "1")
    t.submit(2, "2")
    resolution = t.close().resolution
    assert resolution.movement == 1 and t.movement == 2 and t.pending == []


def test_hold_silence_resolves_at_the_deadline_without_the_silent_seat():
    t = table(seats=2, silence="hold")
    t.submit(1, "2")
    passed = t.pass_deadline()
    assert passed.resolution.orders == ((1, 2),) and passed.strikes == ()


def test_strike_silence_strikes_and_extends_the_open_movement():
    t = table(seats=2, silence="strike", max_strikes=3, extension_seconds=45)
    t.submit(1, "2")
    passed = t.pass_deadline()
    assert passed.strikes == (2,) and passed.extension_seconds == 45
    assert passed.resolution is None and t.movement == 1 and t.strikes == {2: 1}


def test_strikes_count_over_the_whole_match_and_the_last_one_forfeits():
    t = table(seats=2, silence="strike", max_strikes=2)
    t.pass_deadline()  # both silent: a strike each
    t.submit(1, "1")
    passed = t.pass_deadline()  # seat 2 silent again: its second strike
    assert passed.forfeited == (2,) and t.outcome().winners == (1,)


def test_elimination_silence_forfeits_the_silent_seat_then_resolves_the_rest():
    t = table(seats=3, silence="elimination")
    t.submit(1, "1")
    t.submit(2, "2")
    passed = t.pass_deadline()
    assert passed.forfeited == (3,)
    assert passed.steps[0].rule == "TOY-4" and t.movement == 2


def test_loss_silence_forfeits_and_ends_a_two_seat_match():
    t = table(seats=2, silence="loss")
    t.submit(1, "1")
    passed = t.pass_deadline()
    assert passed.forfeited == (2,) and t.outcome().finished


def test_a_deadline_on_a_finished_match_changes_nothing():
    t = table(seats=2, silence="loss")
    t.pass_deadline()
    movement = t.movement
    assert t.pass_deadline().resolution is None and t.movement == movement


def test_orders_on_a_finished_match_are_refused():
    t = table(seats=2, silence="loss")
    t.pass_deadline()
    with pytest.raises(MovementClosedError, match="finished"):
        t.submit(1, "1")


def test_the_same_orders_and_seed_resolve_to_the_same_steps():
    def play():
        t = table(seats=3)
        for seat, pick in ((1, "1"), (2, "1"), (3, "2")):
            t.submit(seat, pick)
        return [s.to_json() for s in t.close().steps]

    assert play() == play()


def test_the_phases_of_a_close_start_with_the_forfeits_and_end_in_its_state():
    t = table(seats=3, silence="elimination")
    t.submit(1, "1")
    t.submit(2, "2")
    phases = t.phases(forfeited=(3,))
    assert [p.name for p in phases] == ["forfeit of seat 3", "resolution"]
    assert t.movement == 1 and t.state.out == ()  # asking changed nothing
    passed = t.pass_deadline()
    assert phases[-1].state == t.state
    assert [s for p in phases for s in p.steps] == list(passed.steps)


def test_a_forfeit_that_ends_the_match_is_the_only_phase():
    t = table(seats=2, silence="loss")
    t.submit(1, "1")
    phases = t.phases(forfeited=(2,))
    t.pass_deadline()
    assert [p.name for p in phases] == ["forfeit of seat 2"] and phases[-1].state == t.state


def test_a_referee_action_changes_the_state_and_leaves_the_open_movement_as_it_was():
    t = Table.start(REFEREED, {}, 2, "act")
    t.submit(1, "2")
    steps = t.act("grant", {"seat": 1, "points": -2})
    assert [s.rule for s in steps] == ["TOY-5"] and t.state.scores == (-2, 0)
    assert t.movement == 1 and t.pending == [(1, 2)]


def test_a_referee_action_that_would_end_the_match_is_refused():
    """A match ends by its rules: an action may change the state, not finish the match."""
    ending = RefereeAction(
        "end", "ends the match", lambda args: None, lambda state, _: (replace(state, round=9), ())
    )
    t = Table.start(replace(REFEREED, actions=(ending,)), {}, 2, "act")
    with pytest.raises(IllegalActionError, match="would end the match"):
        t.act("end", {})
    assert t.state.round == 1


def test_a_message_screened_part_by_part_keeps_the_parts_that_stand():
    """Contract, screen_order: a refused part is listed with its reason; the rest stands."""
    t = Table.start(SCREENING, {}, 2, "table-test")
    screened = t.submit_screened(1, "2\nseven\n9\n1")
    assert screened.order == 2
    assert [
        (r.part, "out of range" in r.reason or "number" in r.reason) for r in screened.refused
    ] == [
        ("seven", True),
        ("9", True),
    ]
    assert t.pending == [(1, 2)]
    assert t.standing_order(1) == {"pick": 2}


def test_a_message_with_no_part_standing_is_refused_whole_naming_every_part():
    t = Table.start(SCREENING, {}, 2, "table-test")
    with pytest.raises(InvalidOrderError, match=r"'x'.*'9'"):
        t.submit_screened(1, "x\n9")
    assert t.pending == []


def test_a_screened_message_from_a_seat_that_owes_nothing_is_refused_before_screening():
    t = Table.start(SCREENING, {}, 2, "table-test")
    with pytest.raises(NotYourSeatError):
        t.submit_screened(3, "1")


def test_the_standing_order_follows_the_order_policy():
    """Replace: the last order; merge: the merged one; accumulate: every order."""
    replaced, merged = table(seats=2), Table.start(MERGING, {}, 2, "t")
    accumulated = Table.start(ACCUMULATING, {}, 2, "t")
    for t in (replaced, merged, accumulated):
        t.submit(1, "3")
        t.submit(1, "1")
    assert replaced.standing_order(1) == {"pick": 1}
    assert merged.standing_order(1) == {"pick": 3}
    assert accumulated.standing_order(1) == [{"pick": 3}, {"pick": 1}]
    assert replaced.standing_order(2) is None and accumulated.standing_order(2) == []


class CountingRuleset:
    """RULESET, counting the calls of its outcome and to_move."""

    def __init__(self) -> None:
        self.calls = {"outcome": 0, "to_move": 0}

    def __getattr__(self, name):
        return getattr(RULESET, name)

    def outcome(self, state):
        self.calls["outcome"] += 1
        return RULESET.outcome(state)

    def to_move(self, state):
        self.calls["to_move"] += 1
        return RULESET.to_move(state)


def test_a_states_outcome_and_seats_to_move_are_asked_of_the_ruleset_once_a_state():
    """Issue 46: remembered by the state's identity (domain/memo.py), across tables built
    on the same state, and asked again of the state a resolution makes."""
    ruleset = CountingRuleset()
    t = Table.start(ruleset, {}, 2, "memo-test")
    first = t.state
    again = Table(ruleset, t.seed, first)
    for each in (t, again, t):
        assert each.outcome() == RULESET.outcome(first)
        assert each.to_move() == RULESET.to_move(first)
    assert ruleset.calls == {"outcome": 1, "to_move": 1}
    t.submit(1, "1")
    t.submit(2, "2")
    assert t.close(deadline_passed=False).resolution is not None
    assert t.state is not first
    assert t.outcome() == RULESET.outcome(t.state)
    assert t.to_move() == RULESET.to_move(t.state)
    assert ruleset.calls["outcome"] >= 2 and ruleset.calls["to_move"] >= 2
