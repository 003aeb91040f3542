"""The conformance suite: every registered ruleset keeps the contract (DESIGN.md).

Random legal playouts end; dump/load round-trips; resolve is deterministic;
what silence means is a legal resolution in every movement; orders
round-trip through their text and JSON forms; a seat's several orders
combine by the game's order policy.

The toy variants (tests/support/toy_ruleset.py) run the same suite: they use
the optional parts of the contract that no registered game uses yet.
"""

from __future__ import annotations

import pytest

from domain.errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidConfigError,
    MovementClosedError,
    UnknownActionError,
)
from domain.rules.contract import OrderPolicy, Result, Silence, canonical_json
from domain.rules.registry import REGISTRY
from domain.rules.rng import Rng
from tests.conformance.playout import fork, new_table, playout, submit_random_orders
from tests.support.toy_ruleset import TOYS

REGISTERED = [REGISTRY[name] for name in sorted(REGISTRY)]
RULESETS = REGISTERED + [toy for toy in TOYS if toy.info.name not in REGISTRY]
SEEDS = [f"conformance-{n}" for n in range(12)]

pytestmark = pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)


def test_the_registry_is_not_empty(ruleset):
    assert REGISTERED and ruleset.info.name


def test_random_legal_playouts_finish_with_a_result(ruleset):
    for seed in SEEDS:
        final = list(playout(ruleset, seed))[-1]
        outcome = final.outcome()
        assert outcome.result in (Result.WIN, Result.DRAW, Result.NO_WINNER)
        assert final.to_move().seats == ()


def test_every_visited_state_round_trips_through_dump_and_load(ruleset):
    for table in playout(ruleset, SEEDS[0]):
        dumped = ruleset.dump_state(table.state)
        assert ruleset.load_state(dumped) == table.state
        assert canonical_json(ruleset.dump_state(ruleset.load_state(dumped))) == canonical_json(
            dumped
        )


def test_resolve_is_deterministic(ruleset):
    for table in playout(ruleset, SEEDS[1]):
        submit_random_orders(table, "determinism")
        first, second = fork(table), fork(table)
        one, two = first.close(), second.close()
        assert [s.to_json() for s in one.steps] == [s.to_json() for s in two.steps]
        assert canonical_json(ruleset.dump_state(first.state)) == canonical_json(
            ruleset.dump_state(second.state)
        )


def test_silence_is_a_legal_resolution_in_every_movement(ruleset):
    for table in playout(ruleset, SEEDS[2]):
        if table.outcome().finished:
            assert table.pass_deadline().resolution is None, "a finished match has no movement"
            continue
        silent = fork(table)
        movement = silent.movement
        policy = silent.to_move().policy
        if policy.rearm_when_empty:  # silence re-arms: an order must be pending to resolve
            assert silent.pass_deadline().rearmed and silent.movement == movement
            seat = silent.to_move().seats[0]
            submit_random_orders(silent, "rearm", frozenset(silent.to_move().seats) - {seat})
        for _ in range(max(policy.max_strikes, 1) + 1):
            passed = silent.pass_deadline()
            if passed.resolution is not None:
                break
            assert policy.silence is Silence.STRIKE and passed.extension_seconds >= 0
        assert silent.movement == movement + 1, f"silence did not close movement {movement}"
        ruleset.load_state(ruleset.dump_state(silent.state))


def test_a_movement_that_re_arms_changes_nothing_until_an_order_is_pending(ruleset):
    """Issue 11: a deadline passing with nothing pending leaves the movement as it was."""
    for table in playout(ruleset, SEEDS[8]):
        silent = fork(table)
        if table.outcome().finished or not table.to_move().policy.rearm_when_empty:
            assert not silent.pass_deadline().rearmed
            continue
        for _ in range(3):
            passed = silent.pass_deadline()
            assert passed.rearmed and passed.resolution is None and not passed.strikes
        assert canonical_json(ruleset.dump_state(silent.state)) == canonical_json(
            ruleset.dump_state(table.state)
        )
        assert silent.movement == table.movement and silent.pending == []


def test_random_orders_are_legal_and_round_trip_through_text_and_json(ruleset):
    for table in playout(ruleset, SEEDS[3]):
        rng = Rng("orders", table.movement)
        for seat in table.to_move().seats:
            order = ruleset.random_order(table.state, seat, rng)
            ruleset.check_order(table.state, seat, order)
            assert ruleset.parse_order(ruleset.format_order(order)) == order
            assert ruleset.parse_order(ruleset.dump_order(order)) == order


def test_outcome_scores_every_seat(ruleset):
    table = new_table(ruleset, SEEDS[4])
    assert sorted(table.outcome().scores) == list(range(1, ruleset.info.max_seats + 1))


def test_default_config_validates_to_the_declared_defaults(ruleset):
    assert ruleset.validate_config({}) == ruleset.info.defaults()


def test_an_unknown_config_option_is_rejected_by_name(ruleset):
    with pytest.raises(InvalidConfigError, match="no_such_option"):
        ruleset.validate_config({"no_such_option": 1})


def test_views_are_json(ruleset):
    table = new_table(ruleset, SEEDS[5])
    for seat in (None, *range(1, ruleset.info.max_seats + 1)):
        canonical_json(ruleset.view(table.state, seat))


def test_a_seats_orders_combine_by_the_games_order_policy(ruleset):
    """replace and merge give resolve one order a seat; accumulate every order, in arrival."""
    policy = ruleset.info.order_policy
    assert policy in OrderPolicy and (policy is not OrderPolicy.MERGE or ruleset.merge_orders)
    for table in playout(ruleset, SEEDS[6]):
        twice = fork(table)
        submit_random_orders(twice, "first")
        submit_random_orders(twice, "second")
        seats = [seat for seat, _ in twice.orders_for_resolution()]
        if policy is OrderPolicy.ACCUMULATE:
            assert seats == [seat for seat, _ in twice.pending]
        else:
            assert sorted(seats) == sorted(set(seats)) == sorted({s for s, _ in twice.pending})
        twice.close()  # the combined orders are a legal resolution


def test_the_last_phase_is_resolves_result_and_tracing_changes_nothing(ruleset):
    """Issue 11: the state after the last phase is the resolved state, the phases' steps in
    order are the resolution's steps, and asking for the phases changes nothing."""
    for table in playout(ruleset, SEEDS[7]):
        if table.outcome().finished:
            continue  # nothing resolves, so nothing has phases
        submit_random_orders(table, "phases")
        traced, plain = fork(table), fork(table)
        phases = traced.phases()
        assert phases and all(phase.name for phase in phases)
        assert canonical_json(ruleset.dump_state(traced.state)) == canonical_json(
            ruleset.dump_state(table.state)
        )
        passed_traced, passed_plain = traced.close(), plain.close()
        steps = [step.to_json() for phase in phases for step in phase.steps]
        assert steps == [s.to_json() for s in passed_plain.steps]
        assert [s.to_json() for s in passed_traced.steps] == steps
        final = canonical_json(ruleset.dump_state(plain.state))
        assert canonical_json(ruleset.dump_state(phases[-1].state)) == final
        assert canonical_json(ruleset.dump_state(traced.state)) == final
        for phase in phases:
            canonical_json(ruleset.dump_state(phase.state))


def test_referee_actions_refuse_bad_arguments_and_keep_the_state_loadable(ruleset):
    """Issue 11: each declared action has a unique name and a description, refuses an
    unknown argument by name, and gives a state that round-trips; an unknown action is
    refused naming the game's actions."""
    with pytest.raises(UnknownActionError, match="no_such_action"):
        ruleset.action("no_such_action")
    names = [action.name for action in ruleset.actions]
    assert len(names) == len(set(names))
    for action in ruleset.actions:
        assert action.description and ruleset.action(action.name) is action
        with pytest.raises(InvalidActionError, match="no_such_argument"):
            action.parse({**action.example, "no_such_argument": 1})
        action.parse(action.example)
        for table in playout(ruleset, SEEDS[9]):
            acted = fork(table)
            try:
                steps = acted.act(action.name, action.example)
            except (IllegalActionError, MovementClosedError):
                continue
            assert steps and (acted.movement, acted.pending) == (table.movement, table.pending)
            dumped = ruleset.dump_state(acted.state)
            assert ruleset.load_state(dumped) == acted.state
