"""The board: numbering (DRTS-1), start squares (DRTS-3), recovery areas (DRTS-18)."""

from domain.rules.drts_team23.board import (
    BASE_RECOVERY,
    CORNERS,
    DIAGONAL,
    ORTHOGONAL,
    column,
    recovery_squares,
    row,
    square_at,
    start_squares,
)


def test_squares_are_numbered_row_by_row_from_the_top_left():
    """DRTS-1: square n is in row ceil(n/6), column n - 6(row - 1)."""
    assert (row(14), column(14)) == (3, 2)
    assert [square_at(1, 1), square_at(1, 6), square_at(7, 1), square_at(7, 6)] == list(CORNERS)


def test_a_corner_has_two_orthogonal_neighbours():
    """DRTS-1: square 1 touches 2 and 7 only."""
    assert ORTHOGONAL[1] == (2, 7)


def test_the_board_does_not_wrap_from_one_row_to_the_next():
    """DRTS-1: 6 ends row 1 and 7 starts row 2: they are not neighbours."""
    assert 7 not in ORTHOGONAL[6]
    assert 7 not in DIAGONAL[6]


def test_an_inner_square_has_four_diagonal_neighbours():
    """DRTS-1: the diagonal neighbours of 14 are 7, 9, 19 and 21."""
    assert DIAGONAL[14] == (7, 9, 19, 21)


def test_seats_1_to_4_start_on_rows_1_and_2():
    """DRTS-3: seat 1 on 1-3, seat 4 on 10-12 (Water, Fire, Plant left to right)."""
    assert start_squares(1) == (1, 2, 3)
    assert start_squares(4) == (10, 11, 12)


def test_seats_5_to_8_start_on_rows_6_and_7():
    """DRTS-3: seat 5 on 31-33, seat 8 on 40-42."""
    assert start_squares(5) == (31, 32, 33)
    assert start_squares(8) == (40, 41, 42)


def test_with_nothing_blocked_the_base_area_is_the_recovery_area():
    """DRTS-18: 15, 16, 19-24, 27, 28."""
    assert recovery_squares() == BASE_RECOVERY


def test_five_usable_squares_of_the_centre_row_keep_the_extended_area_closed():
    """DRTS-18: the extended area opens only when 4 or fewer of 19-24 are usable."""
    assert recovery_squares({20}) == (15, 16, 19, 21, 22, 23, 24, 27, 28)


def test_four_usable_squares_of_the_centre_row_open_the_extended_area():
    """DRTS-18: with 19 and 20 blocked, 13-18 and 25-30 are usable too."""
    assert recovery_squares({19, 20}) == (*range(13, 19), *range(21, 31))


def test_blocked_squares_of_the_extended_area_stay_blocked():
    """DRTS-18: the extended area has the same restrictions as the base area."""
    usable = recovery_squares({19, 20, 13, 27})
    assert 13 not in usable and 27 not in usable and 14 in usable
