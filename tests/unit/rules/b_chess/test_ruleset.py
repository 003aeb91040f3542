"""B-Chess's start, joining, clock, forfeit, outcome and grant (BC-2, BC-5, BC-6, BC-7,
BC-9, BC-10), beside the scenario files of tests/scenarios/b_chess/."""

from __future__ import annotations

import pytest

from domain.errors import IllegalActionError, InvalidActionError, InvalidConfigError
from domain.rules.b_chess import RULESET
from domain.rules.b_chess.field import Kind, neighbours
from domain.rules.b_chess.orders import why_not
from domain.rules.b_chess.purchase import draw_kind, purchase
from domain.rules.b_chess.ruleset import ALL_SQUARES, _adjacent_pair, add_seat, safe_squares
from domain.rules.b_chess.state import Piece
from domain.rules.contract import Result, Silence
from domain.rules.rng import Rng
from tests.unit.rules.b_chess.support import position


@pytest.mark.parametrize("seed", [f"init-{n}" for n in range(40)])
def test_bc_5_initialize_places_one_king_a_seat_no_two_adjacent(seed):
    state = RULESET.initial_state({}, 8, Rng(seed, 0))
    kings = state.kings
    assert sorted(k.owner for k in kings) == list(range(1, 9))
    squares = [k.square for k in kings]
    assert len(set(squares)) == 8
    for king in kings:
        assert not set(neighbours(king.square, True)) & (set(squares) - {king.square})


def test_bc_5_initialize_redraws_until_no_kings_are_adjacent():
    """A seed whose first draw puts two Kings side by side still ends with none adjacent:
    the seeds are searched for one whose first sample has an adjacent pair."""
    seed = next(
        f"redraw-{n}"
        for n in range(10_000)
        if _adjacent_pair(Rng(f"redraw-{n}", 0).sample(ALL_SQUARES, 8), True)
    )
    first = Rng(seed, 0).sample(ALL_SQUARES, 8)
    state = RULESET.initial_state({}, 8, Rng(seed, 0))
    assert sorted(k.square for k in state.kings) != sorted(first)
    assert not _adjacent_pair([k.square for k in state.kings], True)


def test_bc_4_initialize_puts_the_kings_on_the_priority_list_in_a_seeded_random_order():
    orders = {
        tuple(k.owner for k in RULESET.initial_state({}, 4, Rng(f"s{n}", 0)).kings)
        for n in range(20)
    }
    assert len(orders) > 1  # not always seat order
    again = RULESET.initial_state({}, 4, Rng("s1", 0))
    assert again == RULESET.initial_state({}, 4, Rng("s1", 0))
    assert [k.id for k in again.kings] == ["K1", "K2", "K3", "K4"]


def test_bc_5_the_start_records_its_draws_as_a_step():
    state = RULESET.initial_state({}, 3, Rng("steps", 0))
    (step,) = RULESET.initial_steps(state)
    assert step.rule == "BC-5"
    assert step.data["kings"]["K1"] == {
        "seat": state.kings[0].owner,
        "square": list(state.kings[0].square),
    }


def test_bc_7_each_seat_starts_with_50_macks():
    state = RULESET.initial_state({}, 3, Rng("macks", 0))
    assert [s.macks for s in state.seats] == [50, 50, 50]


def test_bc_5_a_seat_joining_later_gets_a_king_no_object_can_move_to():
    state = position([("K1", 1, 0, 0), ("Q2", 1, 10, 10), ("K3", 2, 5, 5), ("P4", 2, 15, 15)])
    joined = add_seat(state, 3, Rng("join", 1))
    king = joined.king_of(3)
    assert king == Piece(5, Kind.KING, 3, king.square) and joined.pieces[-1] == king
    assert joined.seat(3).macks == 50 and joined.next_number == 6
    for piece in state.pieces:  # no object could take the new King at once
        assert why_not(joined, piece, king.square) is not None


def test_bc_5_safe_squares_leave_out_every_square_an_object_could_move_to():
    state = position([("K1", 1, 0, 0), ("P2", 2, 10, 10), ("R3", 1, 5, 5), ("K4", 2, 5, 9)])
    safe = set(safe_squares(state))
    assert (19, 19) not in safe and (11, 11) not in safe and (9, 10) not in safe
    assert (5, 8) not in safe and (5, 13) in safe  # the Rook's slide stops at K4
    assert (3, 3) in safe


def test_bc_5_a_seat_cannot_join_a_full_or_finished_match():
    with pytest.raises(InvalidConfigError, match="cannot join"):
        add_seat(position([("K1", 1, 0, 0), ("K2", 2, 9, 9)]), 4, Rng("x", 1))


def test_bc_6_the_weighted_draw_gives_pawn_10_rook_3_knight_3_bishop_3_queen_1():
    counts: dict[Kind, int] = {}
    rng = Rng("weights", 1)
    for _ in range(4000):
        kind, _draw = draw_kind(rng)
        counts[kind] = counts.get(kind, 0) + 1
    assert 1800 < counts[Kind.PAWN] < 2200
    for kind in (Kind.ROOK, Kind.KNIGHT, Kind.BISHOP):
        assert 480 < counts[kind] < 720
    assert 130 < counts[Kind.QUEEN] < 270


def test_bc_6_a_purchase_needs_three_empty_squares():
    pieces = [("K1", 1, 0, 0), ("K2", 2, 10, 10)]
    number = 3
    for row in range(20):
        for col in range(20):
            if (row, col) not in {(0, 0), (10, 10), (0, 1), (5, 5), (19, 19)}:
                pieces.append((f"P{number}", 2, row, col))
                number += 1
    state = position(pieces)
    assert state.empty_squares == 3
    after, step, counted = purchase(state, 1, 0, Rng("full", 1))
    assert counted and step.data["cost"] == 0 and after.empty_squares == 2
    refused, step, counted = purchase(after, 1, 1, Rng("full", 1))
    assert not counted and refused == after
    assert "fewer than 3" in step.data["reason"]


def test_bc_2_the_turn_of_the_field_fires_every_period_and_resolves_only_with_orders():
    state = RULESET.initial_state({"turn_seconds": 5}, 2, Rng("clock", 0))
    policy = RULESET.to_move(state).policy
    assert policy.rearm_when_empty and not policy.close_early
    assert policy.deadline_seconds == 5 and policy.silence is Silence.HOLD
    assert RULESET.info.public_orders
    assert RULESET.to_move(state).seats == (1, 2)


def test_bc_9_a_seat_without_objects_owes_nothing_and_one_without_a_king_still_orders():
    state = position([("K1", 1, 0, 0), ("R2", 2, 5, 5), ("K3", 3, 9, 9)], seats=4)
    assert RULESET.to_move(state).seats == (1, 2, 3)
    assert RULESET.outcome(state).ranking[-2:] == (2, 4)


def test_forfeit_destroys_the_seats_objects_then_checks_checkmate():
    state = position([("K1", 1, 0, 0), ("R2", 2, 5, 5), ("K3", 2, 9, 9)])
    after, steps = RULESET.forfeit(state, 2)
    assert [s.rule for s in steps] == ["BC-4", "BC-10", "BC-10"]
    outcome = RULESET.outcome(after)
    assert outcome.result is Result.WIN and outcome.winners == (1,)
    assert after.pieces == () and after.seat(2).out


def test_bc_10_the_outcome_of_an_ongoing_match_has_no_winner_yet():
    state = position([("K1", 1, 0, 0), ("K2", 2, 9, 9)])
    outcome = RULESET.outcome(state)
    assert outcome.result is Result.ONGOING and outcome.scores == {1: 0, 2: 0}


def test_bc_7_the_referee_grants_macks_and_refuses_bad_grants():
    grant = RULESET.action("grant")
    state = position([("K1", 1, 0, 0), ("K2", 2, 9, 9)])
    after, (step,) = grant.apply(state, grant.parse({"seat": 2, "macks": 30}))
    assert after.seat(2).macks == 80 and step.rule == "BC-7"
    with pytest.raises(InvalidActionError, match="exactly seat and macks"):
        grant.parse({"seat": 2})
    with pytest.raises(InvalidActionError, match="not 0"):
        grant.parse({"seat": 2, "macks": 0})
    with pytest.raises(IllegalActionError, match="no seat 3"):
        grant.apply(state, grant.parse({"seat": 3, "macks": 5}))
    with pytest.raises(IllegalActionError, match="would leave -1"):
        grant.apply(state, grant.parse({"seat": 1, "macks": -51}))
