"""Legality of orders: operations (DRTS-4), steps (DRTS-6, DRTS-7), recovery (DRTS-18)."""

import pytest

from domain.errors import IllegalOrderError
from domain.rules.drts_team23.moves import legal_operations
from domain.rules.drts_team23.orders import Order, check_order, parse_order
from domain.rules.drts_team23.ruleset import forfeit
from domain.rules.drts_team23.state import KINDS, occupancy
from tests.unit.rules.drts_team23.support import DEFAULT_TEAMS, position


def legal(state, seat, text):
    check_order(state, seat, parse_order(text))


def illegal(state, seat, text, reason):
    with pytest.raises(IllegalOrderError, match=reason):
        check_order(state, seat, parse_order(text))


def test_an_orthogonal_step_is_legal():
    """DRTS-6: one square up, down, left or right."""
    legal(position({"1F": 14}), 1, "fire 14>8")


def test_an_orthogonal_step_onto_an_enemy_that_wins_is_legal():
    """DRTS-6: an orthogonal step goes onto any square, even a losing battle."""
    legal(position({"1F": 14, "4W": 15}, teams=DEFAULT_TEAMS), 1, "fire 14>15")


def test_a_step_of_two_squares_is_illegal():
    """DRTS-6: one square only."""
    illegal(position({"1F": 14}), 1, "fire 14>16", "16 is not next to 14")


def test_a_step_across_the_end_of_a_row_is_illegal():
    """DRTS-1: 12 and 13 are on different rows."""
    illegal(position({"1F": 12}), 1, "fire 12>13", "13 is not next to 12")


def test_a_diagonal_step_onto_an_own_piece_is_legal():
    """DRTS-6: D holds an own piece."""
    legal(position({"1F": 14, "1W": 21}), 1, "fire 14>21")


def test_a_diagonal_step_onto_an_ally_piece_is_legal():
    """DRTS-6: D holds an ally piece."""
    legal(position({"1F": 14, "2W": 21}, teams=DEFAULT_TEAMS), 1, "fire 14>21")


def test_a_teamless_seat_has_no_allies():
    """DRTS-6, DRTS-9: a teamless seat's only friends are its own pieces."""
    illegal(position({"1F": 14, "2W": 21}), 1, "fire 14>21", "a diagonal step to 21 needs")


def test_a_diagonal_attack_on_a_capturable_enemy_is_legal():
    """DRTS-6, DRTS-7: a Fire may attack an enemy Plant diagonally."""
    legal(position({"1F": 14, "4P": 21}, teams=DEFAULT_TEAMS), 1, "fire 14>21")


def test_a_diagonal_attack_on_an_enemy_of_the_same_kind_is_legal():
    """DRTS-7: the same kind is capturable."""
    legal(position({"1F": 14, "4F": 21}, teams=DEFAULT_TEAMS), 1, "fire 14>21")


def test_a_diagonal_step_onto_an_enemy_the_piece_cannot_capture_is_illegal():
    """DRTS-6, DRTS-7: a Fire cannot capture a Water."""
    state = position({"1F": 14, "4W": 21}, teams=DEFAULT_TEAMS)
    illegal(state, 1, "fire 14>21", "an enemy piece the Fire can capture")


def test_a_predicted_attack_next_to_a_capturable_enemy_is_legal():
    """DRTS-6: D is orthogonally next to an enemy Plant."""
    legal(position({"1F": 14, "4P": 22}, teams=DEFAULT_TEAMS), 1, "fire 14>21")


def test_a_predicted_attack_may_land_on_an_enemy_the_piece_cannot_capture():
    """DRTS-6 read literally: D is next to an enemy Plant, whatever stands on D."""
    legal(position({"1F": 14, "4W": 21, "4P": 22}, teams=DEFAULT_TEAMS), 1, "fire 14>21")


def test_a_predicted_attack_needs_an_orthogonal_neighbour():
    """DRTS-6: an enemy diagonally next to D does not count."""
    illegal(position({"1F": 14, "4P": 28}, teams=DEFAULT_TEAMS), 1, "fire 14>21", "needs")


def test_a_predicted_attack_needs_a_capturable_enemy():
    """DRTS-6, DRTS-7: a Water next to D does not let a Fire step there."""
    illegal(position({"1F": 14, "4W": 22}, teams=DEFAULT_TEAMS), 1, "fire 14>21", "needs")


def test_a_diagonal_step_to_an_empty_square_is_illegal():
    """DRTS-6: no own, ally or capturable enemy piece on or next to D."""
    illegal(position({"1F": 14}), 1, "fire 14>21", "a diagonal step to 21 needs")


def test_the_origin_written_in_the_order_must_be_the_piece_square():
    """A stale view gives a clear reason rather than a surprise move."""
    illegal(position({"1F": 14}), 1, "fire 13>14", "stands on 14, not on 13")


def test_three_operations_are_illegal():
    """DRTS-4: at most 2 operations a movement."""
    state = position({"1W": 14, "1F": 15, "1P": 16})
    illegal(state, 1, "water 14>20; fire 15>21; plant 16>22", "at most 2 operations")


def test_two_operations_on_one_piece_are_illegal():
    """DRTS-4: each operation on a different piece."""
    illegal(position({"1W": 14}), 1, "water 14>20; water hold", "different piece")


def test_a_team_request_comes_on_top_of_two_operations():
    """DRTS-4: a team request is free."""
    legal(position({"1W": 14, "1F": 15}), 1, "water 14>20; fire 15>21; team green")


def test_asking_for_the_own_team_is_illegal():
    """DRTS-19: a request asks for another team."""
    illegal(position(teams=DEFAULT_TEAMS), 1, "team green", "already in green")


def test_a_piece_that_is_out_cannot_move():
    """DRTS-18: a captured piece is off the board."""
    illegal(position(out={"1F": 5}, movement=3), 1, "fire 14>15", "is out")


def test_a_piece_that_is_out_cannot_hold():
    """DRTS-8: only a piece on the board holds a position."""
    illegal(position(), 1, "fire hold", "is out")


def test_a_recovery_two_movements_after_the_capture_is_too_early():
    """DRTS-18: captured in movement 1, out in 2 and 3."""
    state = position(out={"1F": 4}, movement=3)
    reason = "out until movement 3: it may be recovered from movement 4"
    illegal(state, 1, "fire recover 21", reason)


def test_a_recovery_three_movements_after_the_capture_is_on_time():
    """DRTS-18: captured in movement 1, back in movement 4."""
    legal(position(out={"1F": 4}, movement=4), 1, "fire recover 21")


def test_two_pieces_may_be_recovered_onto_one_square_in_one_movement():
    """DRTS-4, DRTS-18: two recoveries are two operations on different pieces."""
    legal(position(), 1, "fire recover 21; plant recover 21")


def test_a_recovery_outside_the_recovery_area_is_illegal():
    """DRTS-18: 14 is not in the base area, and the extended area is closed."""
    illegal(position(), 1, "fire recover 14", "14 is not a recovery square")


def test_a_piece_on_the_board_cannot_be_recovered():
    """DRTS-18: only a captured piece is recovered."""
    illegal(position({"1F": 14}), 1, "fire recover 21", "on the board")


def test_a_forfeited_seat_sends_no_orders():
    """forfeit: the seat is out of the match."""
    state, _ = forfeit(position({"1F": 14}), 1)
    illegal(state, 1, "fire 14>15", "forfeited")


def test_no_order_is_legal_once_the_match_is_finished():
    """DRTS-20: after the last movement nothing is played."""
    state = position({"1F": 14}, team_scores=(1, 0, 0), movement=21)
    illegal(state, 1, "fire 14>15", "finished")


def test_every_listed_legal_operation_passes_the_check():
    """legal_operations and check_order agree (random_order relies on it)."""
    state = position({"1F": 14, "1W": 21, "2P": 9, "4P": 22, "5W": 13}, teams=DEFAULT_TEAMS)
    squares = occupancy(state.pieces)
    for seat in (1, 2, 4, 5):
        for kind in KINDS:
            for operation in legal_operations(state, squares, seat, kind):
                check_order(state, seat, Order((operation,)))
