"""The conformance suite: every installed ruleset version keeps the contract (DESIGN.md).

Random legal playouts end; dump/load round-trips; resolve is deterministic;
what silence means is a legal resolution in every movement; orders
round-trip through their text and JSON forms. The optional parts of the
contract (docs/rulesets.md) are held to what they promise: typed config
fields are bounded and strictly checked, presets expand to valid configs,
listed orders are legal and random orders are among them, listed per-piece
commands combine into legal orders that resolve with none set aside, the Public
Display is deterministic plain text, and the same fault (an unknown seat, a
state that does not load) raises the same error in every game. A seat's
several orders combine by the game's order policy.

The toy ruleset of the service tests (both its versions) and its variants
(tests/support/toy_ruleset.py) run the same suite: they use the optional
parts of the contract that no registered game uses yet.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from domain.errors import (
    IllegalActionError,
    IllegalOrderError,
    InvalidActionError,
    InvalidConfigError,
    InvalidOrderError,
    InvalidStateError,
    MovementClosedError,
    UnknownActionError,
    UnknownSeatError,
)
from domain.rules.contract import (
    ConfigField,
    ConfigKind,
    OrderPolicy,
    Result,
    Silence,
    canonical_json,
)
from domain.rules.registry import REGISTRY, all_rulesets
from domain.rules.rng import Rng
from tests.conformance.combos import allowed_combination, listed_order, listed_playout
from tests.conformance.playout import fork, new_table, playout, submit_random_orders
from tests.support import toy_ruleset
from tests.support.toy_ruleset import TOYS

REGISTERED = list(all_rulesets())
RULESETS = [
    *REGISTERED,
    *(toy for toy in TOYS if toy.info.name not in REGISTRY),
    toy_ruleset.RULESET_V2,
]
SEEDS = [f"conformance-{n}" for n in range(12)]

pytestmark = pytest.mark.parametrize(
    "ruleset", RULESETS, ids=lambda r: f"{r.info.name}-v{r.info.version}"
)


def test_the_registry_holds_the_ruleset_under_its_name_and_version(ruleset):
    if ruleset.info.name in REGISTRY:
        assert REGISTRY[ruleset.info.name][ruleset.info.version] is ruleset
    assert ruleset.info.version >= 1


def test_random_legal_playouts_finish_with_a_result(ruleset):
    for seed in SEEDS:
        final = list(playout(ruleset, seed))[-1]
        outcome = final.outcome()
        assert outcome.result in (Result.WIN, Result.DRAW, Result.NO_WINNER)
        assert final.to_move().seats == ()


def option_configs(ruleset) -> list[dict[str, Any]]:
    """Returns the config of every preset, then every choice and boolean option's other
    values, each alone on the defaults."""
    configs = [dict(preset.values) for preset in ruleset.info.presets]
    for field in ruleset.info.config_fields:
        if field.kind is ConfigKind.CHOICE:
            configs += [{field.name: c} for c in field.choices if c != field.default]
        if field.kind is ConfigKind.BOOL:
            configs.append({field.name: not field.default})
    return configs


def test_playouts_under_every_preset_and_every_option_alone_finish_and_round_trip(ruleset):
    """The options are rules too (Shades' `contest` preset, its SH-5, SH-6 and SH-12
    options): under each, random legal playouts finish with a result, every visited state
    round-trips, and the same seed plays the same match."""
    for config in option_configs(ruleset):
        for seed in SEEDS[:2]:
            tables = list(playout(ruleset, seed, config))
            for table in tables:
                dumped = ruleset.dump_state(table.state)
                assert ruleset.load_state(dumped) == table.state, config
            final = tables[-1]
            assert final.outcome().result in (Result.WIN, Result.DRAW, Result.NO_WINNER), config
            again = list(playout(ruleset, seed, config))[-1]
            assert canonical_json(ruleset.dump_state(again.state)) == canonical_json(
                ruleset.dump_state(final.state)
            ), config


def test_every_visited_state_round_trips_through_dump_and_load(ruleset):
    for table in playout(ruleset, SEEDS[0]):
        dumped = ruleset.dump_state(table.state)
        assert ruleset.load_state(dumped) == table.state
        assert canonical_json(ruleset.dump_state(ruleset.load_state(dumped))) == canonical_json(
            dumped
        )


def test_the_starts_draws_are_explained_by_deterministic_steps(ruleset):
    """Every random draw is recorded in a step: those of `initial_state` by `setup_steps`
    (none for a game whose start draws nothing)."""
    for seed in SEEDS[:3]:
        table = new_table(ruleset, seed)
        steps = ruleset.initial_steps(table.state)
        again = ruleset.initial_steps(new_table(ruleset, seed).state)
        assert [s.to_json() for s in steps] == [s.to_json() for s in again]
        assert all(step.rule and step.text for step in steps)
        canonical_json([step.to_json() for step in steps])  # JSON-native
        if ruleset.setup_steps is None:
            assert steps == ()


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


def test_views_are_json(ruleset):
    table = new_table(ruleset, SEEDS[5])
    for seat in (None, *range(1, ruleset.info.max_seats + 1)):
        canonical_json(ruleset.view(table.state, seat))


# -- typed config and presets ---------------------------------------------------------------


def test_default_config_validates_to_the_declared_defaults(ruleset):
    assert ruleset.validate_config({}) == ruleset.info.defaults()
    assert ruleset.validate_config(ruleset.info.defaults()) == ruleset.info.defaults()


def test_an_unknown_config_option_is_rejected_by_name(ruleset):
    with pytest.raises(InvalidConfigError, match=r"unknown config option\(s\) 'no_such_option'"):
        ruleset.validate_config({"no_such_option": 1})


def test_every_config_field_declares_its_type_and_every_integer_is_bounded(ruleset):
    """A 10^12 `placement_seconds` must not pass: every integer has both bounds."""
    for field in ruleset.info.config_fields:
        assert isinstance(field.kind, ConfigKind), field.name
        if field.kind is ConfigKind.INT:
            assert field.minimum is not None and field.maximum is not None, field.name
            assert field.minimum <= field.default <= field.maximum, field.name
        if field.kind is ConfigKind.CHOICE:
            assert field.default in field.choices, field.name
        if field.kind is ConfigKind.DATA:
            assert field.parse is not None, f"{field.name}: content needs a parse function"
        assert field.description, field.name


def test_seconds_options_last_from_a_second_to_at_most_a_year_and_a_day(ruleset):
    for field in ruleset.info.config_fields:
        if field.name.endswith("_seconds"):
            assert field.minimum is not None and field.minimum >= 1, field.name
            assert field.maximum is not None and field.maximum <= 366 * 24 * 3600, field.name


def test_every_option_refuses_a_wrong_type_or_a_value_out_of_range_naming_what_it_allows(
    ruleset,
):
    for field in ruleset.info.config_fields:
        for bad in _bad_values(field):
            with pytest.raises(InvalidConfigError) as refused:
                ruleset.validate_config({field.name: bad})
            assert repr(field.name) in str(refused.value), (field.name, bad)
            assert field.allowed() in str(refused.value), (field.name, bad)


def test_presets_expand_to_valid_configs_holding_their_values(ruleset):
    names = [preset.name for preset in ruleset.info.presets]
    assert len(names) == len(set(names))
    for preset in ruleset.info.presets:
        assert preset.values and preset.description
        config = ruleset.configure({}, preset.name)
        assert config == ruleset.validate_config(dict(preset.values))
        assert {k: config[k] for k in preset.values} == dict(preset.values)
        new_table(ruleset, SEEDS[6], config)


def test_given_options_override_the_preset_and_an_unknown_preset_is_refused(ruleset):
    defaults = ruleset.info.defaults()
    for preset in ruleset.info.presets:
        name = next(key for key, value in preset.values.items() if value != defaults[key])
        assert ruleset.configure({name: defaults[name]}, preset.name)[name] == defaults[name]
    with pytest.raises(InvalidConfigError, match="unknown preset 'no_such_preset'"):
        ruleset.configure({}, "no_such_preset")


# -- legal orders, the Public Display, shared errors ----------------------------------------


def test_every_listed_order_is_legal(ruleset):
    if ruleset.legal_orders is None:
        pytest.skip(f"{ruleset.name} cannot list its legal orders (legal_orders is None)")
    for table in playout(ruleset, SEEDS[7]):
        for seat in range(1, ruleset.info.max_seats + 1):
            listed = ruleset.legal_orders(table.state, seat)
            assert bool(listed) == (seat in table.to_move().seats), (seat, table.movement)
            for order in listed:
                ruleset.check_order(table.state, seat, order)


def test_random_orders_are_among_the_listed_ones(ruleset):
    if ruleset.legal_orders is None:
        pytest.skip(f"{ruleset.name} cannot list its legal orders (legal_orders is None)")
    for table, seat, rng in _owing_seats(ruleset, SEEDS[8:11], "listed"):
        listed = set(ruleset.legal_orders(table.state, seat))
        assert ruleset.random_order(table.state, seat, rng) in listed


def test_every_listed_command_alone_is_legal_and_resolves_without_being_set_aside(ruleset):
    """Issue 22: each command `legal_commands` lists, in an order alone, passes `check_order`
    and resolves with no step setting a command aside; a seat that owes no order lists none."""
    if ruleset.legal_commands is None:
        pytest.skip(f"{ruleset.name} lists no per-piece commands (legal_commands is None)")
    for table in playout(ruleset, SEEDS[7]):
        for seat in range(1, ruleset.info.max_seats + 1):
            listed = ruleset.legal_commands(table.state, seat)
            if seat not in table.to_move().seats:
                assert listed == {}, (seat, table.movement)
            for piece, commands in listed.items():
                assert commands and len(set(commands)) == len(commands), (piece, commands)
                for command in commands:
                    order = ruleset.order_of_commands([command])
                    assert ruleset.commands_of_order(order) == (command,)
                    _assert_resolves_untouched(ruleset, table, [(seat, order)])


def test_random_combinations_the_rule_allows_are_legal_and_none_is_set_aside(ruleset):
    """Issues 22 and 48: listed commands combined as the game's combining rule allows (one a
    piece; DRTS-4's two pieces and DRTS-21's stock; B-Chess's purchases while macks last,
    BC-6) make a legal order; where every command is judged against one snapshot, every
    seat's together resolve without a command set aside."""
    if ruleset.legal_commands is None:
        pytest.skip(f"{ruleset.name} lists no per-piece commands (legal_commands is None)")
    for seed in SEEDS[8:11]:
        for table in playout(ruleset, seed):
            rng = Rng("combined", table.movement)
            orders = []
            for seat in table.to_move().seats:
                for _ in range(3):  # a few combinations a seat
                    commands = allowed_combination(ruleset, table.state, seat, rng)
                    assert ruleset.combination_fault(table.state, seat, commands) == ""
                    order = ruleset.order_of_commands(commands)
                    if commands:  # a B-Chess message of no line is no order (BC-11)
                        assert ruleset.parse_order(ruleset.dump_order(order)) == order
                    ruleset.check_order(table.state, seat, order)
                orders.append((seat, order))
            if all(ruleset.combining_of(table.state, s).snapshot for s, _ in orders):
                _assert_resolves_untouched(ruleset, table, orders)


def test_where_a_game_lists_both_its_orders_are_its_allowed_combinations(ruleset):
    """Issue 48: a game listing whole orders and per-piece commands (DRTS Team 23 v1) lists
    the same thing twice: every combination its rule allows (DRTS-4: up to two pieces in
    either order, the team request free) is a listed order, and no other."""
    if ruleset.legal_orders is None or ruleset.legal_commands is None:
        pytest.skip(f"{ruleset.name} does not list both orders and commands")
    for n, table in enumerate(playout(ruleset, SEEDS[7])):
        if n % 5 or table.outcome().finished:
            continue
        seat = table.to_move().seats[0]
        combined = {
            ruleset.order_of_commands(commands)
            for commands in _allowed_combinations(ruleset, table.state, seat)
        }
        assert combined == set(ruleset.legal_orders(table.state, seat)), table.movement


def _allowed_combinations(ruleset, state, seat):
    """Yields every combination the seat's rule allows: the counted pieces in every order,
    up to `max_pieces`, each with each of its commands, then at most one command of each
    free piece (a rule with `max_pieces` and no repeats)."""
    listed = ruleset.legal_commands(state, seat)
    rule = ruleset.combining_of(state, seat)
    assert rule.max_pieces is not None and not rule.repeats
    counted = [p for p in listed if p not in rule.free]
    free = [[(), *((c,) for c in listed[p])] for p in listed if p in rule.free]
    for size in range(rule.max_pieces + 1):
        for pieces in itertools.permutations(counted, size):
            for commands in itertools.product(*(listed[p] for p in pieces)):
                for extra in itertools.product(*free):
                    combination = [*commands, *(c for part in extra for c in part)]
                    if not rule.fault(listed, combination, ruleset.command_spends):
                        yield combination


def test_combinations_the_rule_forbids_are_refused_or_set_aside(ruleset):
    """Issue 48: the combining rule is no looser than the game: a second command for one
    piece, a piece past `max_pieces` (DRTS-4), a spending past the stock (DRTS-21) or a
    purchase past what the macks pay (BC-6) is refused by `check_order`, or set aside when
    the movement resolves (SH-4: only a shade's first command counts; BC-3: an object acts
    once a Turn)."""
    if ruleset.legal_commands is None:
        pytest.skip(f"{ruleset.name} lists no per-piece commands (legal_commands is None)")
    tried = 0
    for table, seat, rng in _owing_seats(ruleset, SEEDS[8:10], "forbidden"):
        for commands in _forbidden(ruleset, table.state, seat, rng):
            assert ruleset.combination_fault(table.state, seat, commands), commands
            tried += 1
            try:
                order = ruleset.order_of_commands(commands)  # DRTS: one team request
                ruleset.check_order(table.state, seat, order)
            except (InvalidOrderError, IllegalOrderError):
                continue
            assert _set_aside(ruleset, table, [(seat, order)]), ruleset.format_order(order)
    assert tried


def _forbidden(ruleset, state, seat, rng):
    """Yields combinations the seat's rule forbids: a piece commanded once more than it
    may be, a piece more than `max_pieces`, and each stock overspent."""
    listed = ruleset.legal_commands(state, seat)
    rule = ruleset.combining_of(state, seat)
    for piece, commands in listed.items():
        times = rule.repeats.get(str(piece), 1) + 1
        if len(commands) >= 2 or piece in rule.repeats:
            yield [rng.choice(list(commands)) for _ in range(times)]
            break
    counted = [p for p in listed if p not in rule.free]
    if rule.max_pieces is not None and len(counted) > rule.max_pieces:
        pieces = rng.sample(counted, rule.max_pieces + 1)
        yield [rng.choice(list(listed[p])) for p in pieces]
    spends = ruleset.command_spends or (lambda command: {})
    for resource, left in rule.stock.items():
        costly = {p: [c for c in cs if spends(c).get(resource)] for p, cs in listed.items()}
        pieces = [p for p, cs in costly.items() if cs]
        if left + 1 <= min(len(pieces), rule.max_pieces or len(pieces)):
            yield [rng.choice(costly[p]) for p in pieces[: left + 1]]


def test_random_orders_pick_only_listed_commands_at_most_one_a_piece(ruleset):
    """Issue 22: `random_order` draws among the listed commands, never two for one piece."""
    if ruleset.legal_commands is None:
        pytest.skip(f"{ruleset.name} lists no per-piece commands (legal_commands is None)")
    for table, seat, rng in _owing_seats(ruleset, SEEDS[8:11], "listed"):
        listed = ruleset.legal_commands(table.state, seat)
        piece_of = {command: piece for piece, cs in listed.items() for command in cs}
        commands = ruleset.commands_of_order(ruleset.random_order(table.state, seat, rng))
        assert all(c in piece_of for c in commands), (seat, table.movement, commands)
        pieces = [piece_of[command] for command in commands]
        assert len(pieces) == len(set(pieces)), (seat, table.movement, pieces)


def test_playouts_ordering_only_from_the_lists_finish_with_a_result(ruleset):
    """Issue 48: seats that order only what the game lists (a listed order, or listed
    commands combined as the rule allows) play every game to its end."""
    if ruleset.legal_orders is None and ruleset.legal_commands is None:
        pytest.skip(f"{ruleset.name} lists neither orders nor commands")
    for seed in SEEDS[:3]:
        final = None
        for table in listed_playout(ruleset, seed):
            final = table
            for seat in table.to_move().seats:
                order = listed_order(ruleset, table.state, seat, Rng("check", table.movement))
                if order is not None:
                    ruleset.check_order(table.state, seat, order)
        assert final is not None and final.outcome().finished


def _owing_seats(ruleset, seeds, label):
    """Yields (table, seat, rng) for each seat owing an order in each movement of random
    playouts of `seeds`; the seats of one movement share its rng, labelled `label`."""
    for seed in seeds:
        for table in playout(ruleset, seed):
            rng = Rng(label, table.movement)
            for seat in table.to_move().seats:
                yield table, seat, rng


def _assert_resolves_untouched(ruleset, table, orders):
    """Asserts each order passes `check_order` and that resolving them all sets no command
    aside (`_set_aside`)."""
    for seat, order in orders:
        ruleset.check_order(table.state, seat, order)
    refused = _set_aside(ruleset, table, orders)
    assert refused == [], (table.movement, [(s, ruleset.format_order(o)) for s, o in orders])


def _set_aside(ruleset, table, orders):
    """Returns the steps of resolving `orders` that set a command aside: step data holding
    a non-empty `refused` list (the contract's convention), or saying a command was not
    `carried_out` (B-Chess, BC-3)."""
    _, steps = ruleset.resolve(table.state, orders, Rng("untouched", table.movement))
    return [
        (step.rule, step.text)
        for step in steps
        if step.data.get("refused") or step.data.get("carried_out") is False
    ]


def test_the_public_display_is_deterministic_plain_text(ruleset):
    assert ruleset.display is not None, "every game has its own Public Display"
    for table in playout(ruleset, SEEDS[9]):
        text = ruleset.public_display(table.state)
        assert isinstance(text, str) and text.strip() and text.endswith("\n")
        assert "\t" not in text and "\r" not in text
        again = ruleset.load_state(ruleset.dump_state(table.state))
        assert ruleset.public_display(again) == text


def game_name(ruleset):
    """Returns the name a game's errors give: the toy's variants share the toy's functions."""
    return "toy" if ruleset.name.startswith("toy") else ruleset.name


def test_an_unknown_seat_is_one_error_in_every_game(ruleset):
    table = new_table(ruleset, SEEDS[10])
    order = ruleset.random_order(table.state, table.to_move().seats[0], Rng("seat", 0))
    seats = ruleset.info.max_seats
    for seat in (0, seats + 1):
        message = rf"{game_name(ruleset)} has no seat {seat} \(seats 1\.\.{seats}\)"
        with pytest.raises(UnknownSeatError, match=message):
            ruleset.forfeit(table.state, seat)
        with pytest.raises(UnknownSeatError, match=message):
            ruleset.check_order(table.state, seat, order)
        if ruleset.legal_orders is not None:
            with pytest.raises(UnknownSeatError, match=message):
                ruleset.legal_orders(table.state, seat)
        if ruleset.legal_commands is not None:
            with pytest.raises(UnknownSeatError, match=message):
                ruleset.legal_commands(table.state, seat)


def test_a_seat_count_outside_the_game_is_refused_alike(ruleset):
    config = ruleset.validate_config({})
    for seats in (ruleset.info.min_seats - 1, ruleset.info.max_seats + 1):
        with pytest.raises(InvalidConfigError, match=rf"{game_name(ruleset)} is played by .*, not"):
            ruleset.initial_state(config, seats, Rng("seats", 0))


@pytest.mark.parametrize("bad", [None, [], "state", 7, {}])
def test_a_state_json_that_is_not_a_state_does_not_load(ruleset, bad):
    with pytest.raises(InvalidStateError):
        ruleset.load_state(bad)


def test_a_state_with_an_unknown_key_or_a_refused_config_does_not_load(ruleset):
    dumped = ruleset.dump_state(new_table(ruleset, SEEDS[11]).state)
    with pytest.raises(InvalidStateError):
        ruleset.load_state({**dumped, "no_such_key": 1})
    config = {**dumped["config"], "no_such_option": 1}
    with pytest.raises(InvalidStateError, match="state config: unknown config option"):
        ruleset.load_state({**dumped, "config": config})


def _bad_values(field: ConfigField) -> list[Any]:
    if field.kind is ConfigKind.INT:
        assert field.minimum is not None and field.maximum is not None
        return [str(field.default), 1.5, True, None, field.minimum - 1, field.maximum + 1]
    if field.kind is ConfigKind.BOOL:
        return [1, 0, "true", None]
    if field.kind is ConfigKind.CHOICE:
        return ["no_such_choice", 1, None, True]
    if field.kind is ConfigKind.STR:
        assert field.maximum is not None
        return [1, None, "x" * (field.maximum + 1)]
    return []


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
