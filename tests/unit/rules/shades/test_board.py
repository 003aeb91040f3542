"""Maps as data (SH-2): PPM content or rows, checked; the ranges of SH-1."""

import pytest

from domain.errors import InvalidConfigError
from domain.rules.shades import RULESET
from domain.rules.shades.board import (
    ATTACK_OFFSETS,
    CONVERSION_OFFSETS,
    board_of,
    parse_map,
    to_ppm,
)

PPM = """P3
# a comment
3 2
255
255 0 0   255 255 255   0 0 255
255 255 255   # a comment inside
255 255 255   255 0 0
"""


def test_a_plain_ppm_map_reads_white_blue_and_red_as_ground_water_and_tombs():
    """SH-2: white empty, blue water, red tomb."""
    assert parse_map(PPM) == ["T.~", "..T"]


def test_the_maximum_colour_value_scales_the_colours():
    assert parse_map("P3 2 2 1  1 0 0  1 0 0  1 1 1  0 0 1") == ["TT", ".~"]


def test_rows_are_the_normalized_form_and_read_back_as_themselves():
    rows = ["T.~", "..T"]
    assert parse_map(rows) == rows and parse_map(to_ppm(rows)) == rows


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("P6 2 1 255", "plain PPM image starting 'P3'"),
        ("river", "plain PPM image starting 'P3'.*expanded only by the service"),
        ("P3 2 1", "needs its maximum colour value"),
        ("P3 2 2 255 255 0 0", "has 12 colour values, got 3"),
        ("P3 2 2 255 255 0 0 0 255 0" + " 0 0 0" * 2, r"square \(1, 0\) has colour \(0, 255, 0\)"),
        ("P3 2 2 255 255 0 0 256 0 0" + " 0 0 0" * 2, r"square \(1, 0\): '256' is not"),
        ("P3 1 1 255 255 0 0", "2 to 100 squares a side, got 1x1"),
        (["T.", ".."], "at least 2 tombs"),
        (["T.T", ".."], "map row 1 must be 3 characters"),
        (["T#T", "..."], "map row 0"),
        ([], "at least one row"),
        (7, "a map is PPM content"),
    ],
)
def test_a_bad_map_is_refused_saying_what_is_wrong(value, message):
    with pytest.raises(InvalidConfigError, match=message):
        parse_map(value)


def test_a_bad_map_in_a_config_names_the_option():
    with pytest.raises(InvalidConfigError, match="config option 'map': a map needs"):
        RULESET.validate_config({"map": ["T.", ".."]})


def test_the_ranges_of_sh_1():
    """SH-1: attack within a squared distance of 5 (20 squares around), conversion within 1."""
    assert len(ATTACK_OFFSETS) == 20 and (2, 1) in ATTACK_OFFSETS and (2, 2) not in ATTACK_OFFSETS
    assert sorted(CONVERSION_OFFSETS) == [(-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)]


def test_the_board_lists_its_squares_in_map_order():
    board = board_of(("T.~", "..T"))
    assert board.tombs == ((0, 0), (2, 1)) and board.water == {(2, 0)}
    assert board.land == ((0, 0), (1, 0), (0, 1), (1, 1), (2, 1))
    assert board.is_open((1, 1)) and not board.is_open((2, 0)) and not board.is_open((3, 0))
