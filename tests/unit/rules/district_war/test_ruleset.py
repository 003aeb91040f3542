"""District War (rules/district_war.txt) with the rulings DW-1..DW-6: one behaviour per test.

Docstrings quote the rule-text clause or the ruling each test checks.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from domain.errors import (
    IllegalOrderError,
    InvalidConfigError,
    InvalidOrderError,
    InvalidStateError,
    MovementClosedError,
)
from domain.rules.contract import Result, Silence
from domain.rules.district_war import RULESET
from domain.rules.district_war.board import CELLS, DEFAULT_BOARD
from domain.rules.district_war.orders import ChooseFirst, Place
from domain.rules.district_war.placement import Clause, allowed_cells
from domain.rules.district_war.scoring import final_steps
from domain.rules.district_war.state import State
from domain.rules.registry import get_ruleset
from domain.rules.rng import Rng
from domain.table import Table

# A board with sizes D 10, A 7, B 7, E 6, G 6, J 4, C 3, F 2, I 2, K 1, L 1: it lets the
# DW-5 tie-break reach sizes 4, 3 and 2, which the default board never can.
SMALL_DISTRICTS = ["AAAABBB", "AAACBBB", "DDDCBEE", "DDDCFEE", "GGDDFEE", "GGIDJJK", "GGIDJJL"]
# A legal history (seat 1 first) after which seat 2's last troop c6 (G) leaves no empty cell
# of row 6 or column c outside district G.
BLOCKED = ["g3", "g6", "e6", "e5", "a5", "a6", "f6", "f7", "a7", "e7", "c7", "c1", "c5", "c3"]
BLOCKED += ["c2", "c6"]


def new_state(**config: Any) -> State:
    """Returns the initial state of a match with this config."""
    return RULESET.initial_state(RULESET.validate_config(config), 2, Rng("test", 0))


def position(*placements: str, first: int = 1, **config: Any) -> State:
    """Returns a state with these troops placed in order, seats alternating from `first`."""
    return replace(new_state(**config), first=first, placements=placements)


def finished(seat_1: list[str], seat_2: list[str], **config: Any) -> State:
    """Returns a finished game where seat 1 (placing first) and seat 2 hold these cells."""
    placements = [cell for pair in zip(seat_1, seat_2, strict=True) for cell in pair]
    return position(*placements, troops=len(seat_1), **config)


def place(state: State, cell: str) -> State:
    """Returns the state after the seat to move places on `cell`."""
    seat = RULESET.to_move(state).seats[0]
    return RULESET.resolve(state, [(seat, Place(cell))], Rng("test", 1))[0]


def illegal_reason(state: State, seat: int, order: Place | ChooseFirst) -> str:
    """Returns the IllegalOrderError message of an order."""
    with pytest.raises(IllegalOrderError) as caught:
        RULESET.check_order(state, seat, order)
    return str(caught.value)


def table(**config: Any) -> Table:
    """Returns a Table of a new match where seat 1 was chosen to place first."""
    t = Table.start(RULESET, config, 2, "table-test")
    t.submit(2, "first 1")
    t.close()
    return t


# DW-1: the board


def test_the_default_board_is_the_board_of_ruling_dw1():
    """DW-1: "Default board (rows top to bottom): AAABBBB / AACCDBB / ... / JJJKKKI"."""
    assert RULESET.validate_config({})["board"] == list(DEFAULT_BOARD)


def test_the_default_board_has_the_district_sizes_of_ruling_dw1():
    """DW-1: "sizes G 7, B 6, A 5, E 5, I 5, D 4, H 4, J 4, K 4, F 3, C 2"."""
    board = new_state().settings.board
    sizes = {district: board.size(district) for district in board.districts()}
    expected = {"G": 7, "B": 6, "A": 5, "E": 5, "I": 5, "D": 4, "H": 4, "J": 4, "K": 4}
    assert sizes == expected | {"F": 3, "C": 2}


def test_row_1_is_the_top_row_and_column_a_the_left_column():
    """DW-1: rows top to bottom; a1 is the top-left cell (district A), g7 bottom-right (I)."""
    board = new_state().settings.board
    corners = [board.district(cell) for cell in ("a1", "g1", "a7", "g7")]
    assert corners == ["A", "B", "J", "I"]


def test_the_board_is_a_match_parameter():
    """DW-1: "The board is a parameter: a 7x7 grid of district labels"."""
    assert new_state(board=SMALL_DISTRICTS).settings.board.district("e4") == "F"


def test_the_board_may_be_given_as_one_string_of_rows():
    """DW-1: the board as the ruling prints it, rows separated by '/', is accepted."""
    config = RULESET.validate_config({"board": " / ".join(SMALL_DISTRICTS)})
    assert config["board"] == SMALL_DISTRICTS


def test_a_board_without_7_rows_is_refused():
    """DW-1: "a 7x7 grid of district labels, validated"."""
    with pytest.raises(InvalidConfigError, match="board has 6 rows"):
        RULESET.validate_config({"board": list(DEFAULT_BOARD[:6])})


def test_a_board_row_without_7_labels_is_refused():
    """DW-1: "a 7x7 grid of district labels, validated"."""
    board = [*DEFAULT_BOARD[:2], "EEFFDDDD", *DEFAULT_BOARD[3:]]
    with pytest.raises(InvalidConfigError, match="board row 3 'EEFFDDDD' has 8 labels"):
        RULESET.validate_config({"board": board})


def test_a_board_label_must_be_a_letter_or_digit():
    """DW-1: a board is a grid of district labels; a blank or symbol is no label."""
    board = ["AAAB.BB", *DEFAULT_BOARD[1:]]
    with pytest.raises(InvalidConfigError, match=re.escape("row 1 'AAAB.BB' holds '.'")):
        RULESET.validate_config({"board": board})


def test_a_board_that_is_not_strings_is_refused():
    """DW-1: the board parameter is 7 strings of 7 labels."""
    with pytest.raises(InvalidConfigError, match="list of 7 strings"):
        RULESET.validate_config({"board": [[1, 2, 3]]})


def test_a_board_with_10_districts_is_refused():
    """DW-1: "validated (11 districts ...)": merging C into A leaves 10."""
    board = ["AAABBBB", "AAAADBB", *DEFAULT_BOARD[2:]]
    with pytest.raises(InvalidConfigError, match=r"board has 10 districts .*exactly 11"):
        RULESET.validate_config({"board": board})


def test_a_board_with_12_districts_is_refused():
    """DW-1: "validated (11 districts ...)": splitting C in two makes 12."""
    board = ["AAABBBB", "AACZDBB", *DEFAULT_BOARD[2:]]
    with pytest.raises(InvalidConfigError, match="board has 12 districts"):
        RULESET.validate_config({"board": board})


def test_a_district_in_two_pieces_is_refused():
    """DW-1: "validated (..., each 4-connected)": A's cell g7 is cut off from the rest of A."""
    board = [*DEFAULT_BOARD[:6], "JJJKKKA"]
    with pytest.raises(InvalidConfigError, match="district A is not 4-connected: g7"):
        RULESET.validate_config({"board": board})


def test_a_district_touching_itself_only_diagonally_is_not_connected():
    """DW-1: "each 4-connected": c2 and b3 of district C touch only at a corner."""
    board = ["AAABBBB", "AACDDBB", "ECFFDDD", *DEFAULT_BOARD[3:]]
    with pytest.raises(InvalidConfigError, match="district C is not 4-connected: b3"):
        RULESET.validate_config({"board": board})


# Config and seats


def test_an_unknown_config_field_is_refused_by_name():
    """DESIGN.md: config validation; a typo must not pass silently."""
    with pytest.raises(InvalidConfigError, match=r"unknown config option\(s\) 'placement_secs'"):
        RULESET.validate_config({"placement_secs": 60})


@pytest.mark.parametrize("dmo", [0, 3, "2", True])
def test_the_dmo_must_be_seat_1_or_2(dmo):
    """DW-2: "The DMO is a seat named when the match is created"."""
    with pytest.raises(InvalidConfigError, match="dmo"):
        RULESET.validate_config({"dmo": dmo})


@pytest.mark.parametrize("field", ["placement_seconds", "extension_seconds", "max_strikes"])
@pytest.mark.parametrize("value", [0, -5, 1.5, "90"])
def test_the_clock_figures_are_positive_integers(field, value):
    """DW-6: "All three figures are configurable per match" (as whole positive numbers)."""
    with pytest.raises(InvalidConfigError, match=field):
        RULESET.validate_config({field: value})


def test_more_troops_than_half_the_board_are_refused():
    """Rule text: "Each player has only 11 troops"; configurable up to 24, as 2 x 25 > 49."""
    with pytest.raises(
        InvalidConfigError, match="config option 'troops' must be an integer from 1 to 24, got 25"
    ):
        RULESET.validate_config({"troops": 25})


def test_district_war_is_played_by_exactly_two_seats():
    """Rule text: a Death Match between a player and the DMO."""
    with pytest.raises(InvalidConfigError, match="exactly 2 seats, not 3"):
        RULESET.initial_state(RULESET.validate_config({}), 3, Rng("test", 0))


def test_district_war_is_registered():
    """The registry serves the ruleset under its name."""
    assert get_ruleset("district_war") is RULESET


# Orders


@pytest.mark.parametrize("text", ["d4", " D4 ", "place d4", "PLACE   d4\n", '{"place": "D4"}'])
def test_a_cell_order_reads_column_letter_and_row_number(text):
    """Order syntax: a cell is its column a-g and row 1-7, case and spaces aside."""
    assert RULESET.parse_order(text) == Place("d4")


@pytest.mark.parametrize("text", ["first 1", " FIRST  1 ", "first seat 1", '{"first": 1}'])
def test_the_dmo_choice_reads_first_and_a_seat(text):
    """DW-2 order syntax: "first N" names the seat that places first."""
    assert RULESET.parse_order(text) == ChooseFirst(1)


def test_orders_parse_from_json_objects():
    """Order syntax: the JSON forms {"place": "d4"} and {"first": 2}."""
    assert RULESET.parse_order({"place": "d4"}) == Place("d4")
    assert RULESET.parse_order({"first": 2}) == ChooseFirst(2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("h4", "no column 'h'"),
        ("d8", "no row 8"),
        ("d0", "no row 0"),
        ("", "empty order"),
        ("   ", "empty order"),
        ("d 4 please", "cannot read order 'd 4 please'"),
        ("first", "cannot read order 'first'"),
        ("first 3", "no seat '3'"),
        ("first me", "no seat 'me'"),
        ('{"place": 4}', "a JSON order is"),
        ('{"place": "z9"}', "no column 'z'"),
        ('{"first": 1, "place": "d4"}', "a JSON order is"),
        ('{"first": true}', "no seat 'True'"),
        ("{place: d4}", "not valid JSON"),
        ('["d4"]', "cannot read order"),
    ],
)
def test_a_malformed_order_is_refused_saying_what_is_wrong(text, message):
    """Order syntax: InvalidOrderError names the fault."""
    with pytest.raises(InvalidOrderError, match=message):
        RULESET.parse_order(text)


def test_every_order_round_trips_through_its_text_and_json_forms():
    """Order syntax: parse(format(o)) == o == parse(dump(o))."""
    orders = [Place(cell) for cell in CELLS] + [ChooseFirst(1), ChooseFirst(2)]
    for order in orders:
        assert RULESET.parse_order(RULESET.format_order(order)) == order
        assert RULESET.parse_order(RULESET.dump_order(order)) == order


def test_orders_have_canonical_text_and_json():
    """Order syntax: "d4" / {"place": "d4"}, "first 1" / {"first": 1}."""
    assert RULESET.format_order(Place("d4")) == "d4"
    assert RULESET.dump_order(Place("d4")) == {"place": "d4"}
    assert RULESET.format_order(ChooseFirst(1)) == "first 1"
    assert RULESET.dump_order(ChooseFirst(1)) == {"first": 1}


# DW-2: the DMO chooses who places first


def test_only_the_dmo_owes_an_order_before_the_first_placement():
    """DW-2: "Before the first placement it [the DMO, default the second seat] chooses"."""
    assert RULESET.to_move(new_state()).seats == (2,)


def test_the_dmo_seat_comes_from_the_config():
    """DW-2: "The DMO is a seat named when the match is created"."""
    assert RULESET.to_move(new_state(dmo=1)).seats == (1,)


def test_the_dmo_choice_has_the_placement_time_limit_and_silence_passes():
    """DW-2: "within the placement time limit ... and with no strike for missing it"."""
    policy = RULESET.to_move(new_state(placement_seconds=60)).policy
    assert (policy.deadline_seconds, policy.silence, policy.close_early) == (
        60,
        Silence.PASS,
        True,
    )


def test_the_dmo_choice_names_the_seat_placing_first():
    """DW-2: the DMO "chooses who places first"."""
    state, steps = RULESET.resolve(new_state(), [(2, ChooseFirst(2))], Rng("test", 1))
    assert (state.first, RULESET.to_move(state).seats) == (2, (2,))
    assert steps[0].rule == "DW-2"


def test_a_silent_dmo_places_second():
    """DW-2: missing the choice, "the DMO then places second"."""
    state, steps = RULESET.resolve(new_state(), [], Rng("test", 1))
    assert state.first == 1
    assert steps[0].data == {"dmo": 2, "first": 1, "chosen": False}


def test_a_silent_dmo_gets_no_strike():
    """DW-2: "with no strike for missing it"."""
    t = Table.start(RULESET, {}, 2, "silent-dmo")
    passed = t.close()
    assert (passed.strikes, t.strikes, t.to_move().seats) == ((), {}, (1,))


def test_the_dmo_must_choose_before_placing():
    """DW-2: "Before the first placement it chooses who places first"."""
    reason = illegal_reason(new_state(), 2, Place("c5"))
    assert "must first choose who places first" in reason


def test_the_choice_cannot_be_made_twice():
    """DW-2: one choice, before the first placement."""
    state = position("c5")
    assert "already chosen" in illegal_reason(state, 2, ChooseFirst(2))


def test_the_other_seat_may_not_choose():
    """DW-2: the choice is the DMO's."""
    assert "not your turn: seat 2 is to choose" in illegal_reason(new_state(), 1, ChooseFirst(1))


# DW-3: where troops go


def test_the_first_troop_may_not_go_in_a_district_of_size_3_or_less():
    """DW-3: "The first troop of the game: any empty cell outside districts of size 3 or less"."""
    state = position()
    assert "d4 is in district F of size 3" in illegal_reason(state, 1, Place("d4"))
    assert "c2 is in district C of size 2" in illegal_reason(state, 1, Place("c2"))


def test_the_first_troop_may_go_anywhere_outside_the_small_districts():
    """DW-3: every cell outside F (3) and C (2) takes the first troop: 49 - 5 = 44 cells."""
    clause, cells = allowed_cells(position())
    assert clause is Clause.FIRST and len(cells) == 44
    assert not {"c2", "d2", "c3", "d3", "d4"} & set(cells)


def test_the_second_seats_first_troop_may_go_in_a_small_district():
    """DW-3: the size limit is for "the first troop of the game" only."""
    RULESET.check_order(position("c5"), 2, Place("c3"))


def test_a_later_troop_must_share_the_row_or_column_of_the_opponents_last_troop():
    """DW-3: "an empty cell in the row or column of the opponent's previous troop"."""
    reason = illegal_reason(position("c5"), 2, Place("a1"))
    assert "a1 is not in the row or column of seat 1's last troop at c5" in reason


def test_a_later_troop_may_go_anywhere_along_that_row_or_column():
    """DW-3: row 5 or column c of c5, outside district G."""
    _, cells = allowed_cells(position("c5"))
    assert set(cells) == {"a5", "e5", "f5", "g5", "c1", "c2", "c3", "c7"}


def test_the_line_follows_the_opponents_last_troop_not_ones_own():
    """DW-3: "the opponent's previous troop": after c5 and a5, seat 1 follows a5, not c5."""
    _, cells = allowed_cells(position("c5", "a5"))
    assert "a1" in cells and "c1" not in cells


def test_a_later_troop_may_not_go_in_the_district_of_the_opponents_last_troop():
    """DW-3: "and not in that troop's district"."""
    reason = illegal_reason(position("c5"), 2, Place("c6"))
    assert "c6 is in district G, the district of seat 1's last troop at c5" in reason


def test_a_troop_may_not_go_on_an_occupied_cell():
    """DW-3: troops go on "an empty cell"."""
    reason = illegal_reason(position("c5", "a5"), 1, Place("a5"))
    assert "a5 is taken by a troop of seat 2" in reason


def test_with_no_such_cell_a_troop_goes_on_any_empty_cell():
    """DW-3: "if no such cell exists, any empty cell" (row 6 and column c are full outside G)."""
    clause, cells = allowed_cells(position(*BLOCKED))
    assert clause is Clause.ANYWHERE and len(cells) == 49 - len(BLOCKED)


def test_the_fallback_allows_the_district_of_the_opponents_last_troop():
    """DW-3: the fallback is "any empty cell", b6 in c6's district G included."""
    RULESET.check_order(position(*BLOCKED), 1, Place("b6"))


def test_empty_cells_of_the_district_alone_do_not_avoid_the_fallback():
    """DW-3: b6, d6 and c4 are empty in row 6 and column c, but all in G: still the fallback."""
    state = position(*BLOCKED)
    assert {"b6", "d6", "c4"} <= set(allowed_cells(state)[1])


def test_a_seats_eleventh_troop_goes_on_any_empty_cell():
    """DW-3: "A seat's 11th troop: any empty cell"."""
    state = position(*(cell for cell in CELLS[:21] if cell != "b1"))  # the last one is g3
    clause, cells = allowed_cells(state)
    assert clause is Clause.LAST and len(cells) == 49 - 20
    assert "b1" in cells


def test_with_fewer_troops_the_last_one_goes_anywhere():
    """DW-3: the 11th troop clause follows the configured troops per seat."""
    assert allowed_cells(position("c5", "a5", troops=2))[0] is Clause.LAST


def test_the_placement_step_names_the_cell_district_and_clause():
    """DW-3: each troop is a step citing the ruling."""
    _, steps = RULESET.resolve(position(), [(1, Place("c5"))], Rng("test", 2))
    assert steps[0].rule == "DW-3"
    assert steps[0].text.startswith("seat 1 places a troop on c5 (district G")
    assert steps[0].data == {"seat": 1, "cell": "c5", "district": "G", "clause": "first"}


def test_it_is_nobodys_turn_but_the_placers():
    """Rule text: "Players will alternate placing their troops"."""
    assert "not your turn: seat 2 is to place" in illegal_reason(position("c5"), 1, Place("a5"))


def test_random_orders_are_legal_and_cover_every_legal_cell():
    """random_order draws uniformly among the legal orders (44 first-troop cells)."""
    state, rng = position(), Rng("random", 1)
    drawn = Counter(RULESET.random_order(state, 1, rng) for _ in range(3000))
    assert set(drawn) == {Place(cell) for cell in allowed_cells(state)[1]}
    assert min(drawn.values()) > 30  # 3000 / 44 = 68 on average


# DW-4: scoring


def test_a_district_scores_its_size_to_the_seat_with_more_troops():
    """DW-4: "A district scores its size to the seat with strictly more troops in it"."""
    state = finished(["c5", "b6", "a1"], ["c6", "a6", "g7"])
    # G 2-1 -> seat 1 7; A 1-0 -> seat 1 5; J 0-1 -> seat 2 4; I 0-1 -> seat 2 5
    assert RULESET.outcome(state).scores == {1: 12, 2: 9}


def test_equal_troops_in_a_district_score_nobody():
    """Rule text: "If the number of troops in the district is equal, nobody gets points"."""
    state = finished(["c5", "a1"], ["c6", "b1"])
    assert RULESET.outcome(state).scores == {1: 0, 2: 0}


def test_the_seat_with_more_points_wins():
    """Rule text: "The player with the most points wins the DM"."""
    outcome = RULESET.outcome(finished(["c5", "d5"], ["c6", "g7"]))  # G 2-1: 7; I 0-1: 5
    assert (outcome.result, outcome.winners, outcome.ranking) == (Result.WIN, (1,), (1, 2))
    assert outcome.reason == "seat 1 wins on points, 7 to 5 (DW-4)"


def test_points_decide_before_the_tie_break():
    """DW-5 applies only on a "Tie on points": B + A (11) beat G (7)."""
    outcome = RULESET.outcome(finished(["d1", "a1"], ["c5", "d6"]))
    assert outcome.winners == (1,)
    assert outcome.reason == "seat 1 wins on points, 11 to 7 (DW-4)"


def test_the_game_ends_when_each_seat_has_placed_its_troops():
    """Rule text: "after each player has placed all 11 of their troops, the game ends"."""
    state = finished(["c5", "a1"], ["c6", "g7"])
    assert RULESET.outcome(state).finished and RULESET.to_move(state).seats == ()


def test_a_game_in_progress_is_ongoing_with_the_current_district_points():
    """DW-4 applied to the board so far, for scoreboards; no winner yet."""
    outcome = RULESET.outcome(position("c5"))
    assert (outcome.result, outcome.scores, outcome.winners) == (Result.ONGOING, {1: 7, 2: 0}, ())
    assert outcome.reason == "seat 2 to place troop 2"


def test_the_final_steps_score_every_district():
    """DW-4: one scoring step per district, then the totals."""
    steps = final_steps(finished(["c5"], ["a1"]))
    districts = [step.data["district"] for step in steps if "district" in step.data]
    assert districts == list("ABCDEFGHIJK")
    assert steps[-1].text == "points: seat 1 7, seat 2 5; seat 1 wins"


# DW-5: tie-break and draw


@pytest.mark.parametrize(
    ("seat_1", "seat_2", "board", "size", "winner"),
    [
        (["c5", "d6"], ["e2", "c3"], DEFAULT_BOARD, 7, 1),  # G 7 | D 4 + F 3
        (["e2", "c2"], ["d1", "f2"], DEFAULT_BOARD, 6, 2),  # D 4 + C 2 | B 6
        (["a1", "b1"], ["c3", "c2"], DEFAULT_BOARD, 5, 1),  # A 5 | F 3 + C 2
        (["e6", "f6"], ["e4", "c6"], SMALL_DISTRICTS, 4, 1),  # J 4 | F 2 + I 2
        (["e4", "g6"], ["d2", "d3"], SMALL_DISTRICTS, 3, 2),  # F 2 + K 1 | C 3
        (["g6", "g7"], ["e4", "e5"], SMALL_DISTRICTS, 2, 2),  # K 1 + L 1 | F 2
    ],
)
def test_a_tie_on_points_goes_to_more_districts_of_the_largest_differing_size(
    seat_1, seat_2, board, size, winner
):
    """DW-5: "compare the number of districts won of each size, from the largest size down"."""
    outcome = RULESET.outcome(finished(seat_1, seat_2, board=list(board)))
    assert outcome.scores[1] == outcome.scores[2]
    assert (outcome.result, outcome.winners) == (Result.WIN, (winner,))
    assert f"more districts of size {size} (1 to 0) (DW-5)" in outcome.reason


def test_the_tie_break_steps_compare_size_by_size_until_one_differs():
    """DW-5: "the first difference decides"; each size compared is a step."""
    steps = final_steps(finished(["a1", "b1"], ["c3", "c2"]))
    tie_break = [(step.data["size"], step.data["winner"]) for step in steps if step.rule == "DW-5"]
    assert tie_break == [(7, None), (6, None), (5, 1)]


def test_more_districts_of_a_size_win_even_against_more_smaller_ones():
    """DW-5: A + E (2 of size 5) beat I (1 of size 5) + F + C, at 10 points each."""
    state = finished(["a1", "a3", "b1"], ["g7", "c3", "c2"])
    outcome = RULESET.outcome(state)
    assert outcome.scores == {1: 10, 2: 10} and outcome.winners == (1,)
    assert "more districts of size 5 (2 to 1)" in outcome.reason


def test_all_equal_is_a_draw():
    """DW-5: "All equal: the match ends drawn" (A 5 against E 5)."""
    outcome = RULESET.outcome(finished(["a1"], ["a3"]))
    assert (outcome.result, outcome.winners, outcome.finished) == (Result.DRAW, (), True)


def test_the_draw_says_drts_replays_the_match():
    """DW-5: "drts creates the replay as a new match on the same board with the same seats"."""
    state = finished(["a1"], ["a3"])
    assert "replays it as a new match" in RULESET.outcome(state).reason
    assert final_steps(state)[-1].data == {"draw": True, "replay": True}


# DW-6: the clock and strikes


def test_a_placement_has_90_seconds_and_silence_strikes():
    """DW-6: "90 s per placement; overrun: a strike and 45 s more ... the third strike loses"."""
    policy = RULESET.to_move(position()).policy
    assert (policy.deadline_seconds, policy.silence) == (90, Silence.STRIKE)
    assert (policy.extension_seconds, policy.max_strikes, policy.close_early) == (45, 3, True)


def test_the_clock_figures_are_configurable():
    """DW-6: "All three figures are configurable per match"."""
    state = position(placement_seconds=60, extension_seconds=30, max_strikes=5)
    policy = RULESET.to_move(state).policy
    assert (policy.deadline_seconds, policy.extension_seconds, policy.max_strikes) == (60, 30, 5)


def test_an_overrun_gives_a_strike_and_45_seconds_more():
    """DW-6: "overrun: a strike and 45 s more"."""
    t = table()
    passed = t.close()
    assert (passed.strikes, passed.extension_seconds, t.to_move().seats) == ((1,), 45, (1,))


def test_a_placement_after_two_strikes_keeps_the_match_going():
    """DW-6: "again" after the second overrun; the third strike has not come."""
    t = table()
    t.close()
    t.close()
    t.submit(1, "c5")
    t.close()
    assert t.strikes == {1: 2} and not t.outcome().finished
    assert RULESET.dump_state(t.state)["cells"] == {"c5": 1}


def test_the_third_strike_loses_the_match():
    """DW-6: "the third strike loses the match"."""
    t = table()
    passed = [t.close() for _ in range(3)][-1]
    outcome = t.outcome()
    assert passed.forfeited == (1,)
    assert (outcome.result, outcome.winners) == (Result.WIN, (2,))
    assert passed.steps[0].rule == "DW-6"


def test_strikes_count_over_the_whole_match():
    """DW-6: "Strikes count over the whole match"."""
    t = table()
    t.close()
    for order in ("c5", "a5"):
        t.submit(t.to_move().seats[0], order)
        t.close()
    t.close()
    t.close()
    assert t.outcome().winners == (2,)


def test_a_forfeit_makes_the_other_seat_win():
    """DW-6: the seat out of strikes loses; the reason says so."""
    state, steps = RULESET.forfeit(position("c5"), 2)
    outcome = RULESET.outcome(state)
    assert (outcome.result, outcome.winners, outcome.ranking) == (Result.WIN, (1,), (1, 2))
    assert "seat 2 forfeited the match (DW-6: strikes)" in outcome.reason
    assert steps[0].data == {"seat": 2}


def test_a_finished_match_cannot_be_forfeited():
    """DW-6: a forfeit ends a match in progress only."""
    with pytest.raises(MovementClosedError, match="finished"):
        RULESET.forfeit(finished(["c5"], ["a1"]), 1)


def test_no_order_is_legal_after_the_match_ends():
    """Rule text: "the game ends"."""
    assert "finished" in illegal_reason(finished(["c5"], ["a1"]), 1, Place("g7"))


# State JSON, view, determinism


def test_the_state_dumps_to_the_documented_json():
    """docs/games/district_war.md, "State JSON"."""
    dumped = RULESET.dump_state(position("c5", "a5"))
    assert set(dumped) == {"config", "first", "placements", "cells", "forfeited"}
    assert dumped["placements"] == ["c5", "a5"] and dumped["cells"] == {"c5": 1, "a5": 2}
    assert dumped["config"] == RULESET.validate_config({})


@pytest.mark.parametrize(
    "state",
    [
        new_state(),
        position(),
        position("c5", "a5", first=2, dmo=1, board=SMALL_DISTRICTS),
        finished(["c5"], ["a1"]),
        replace(position("c5"), forfeited=2),
    ],
    ids=["initial", "chosen", "in-play", "finished", "forfeited"],
)
def test_the_state_round_trips_through_dump_and_load(state):
    """load_state(dump_state(s)) == s."""
    assert RULESET.load_state(RULESET.dump_state(state)) == state


def test_a_state_may_be_loaded_without_its_derived_cells():
    """State JSON: "cells" is derived and may be left out."""
    dumped = RULESET.dump_state(position("c5"))
    del dumped["cells"]
    assert RULESET.load_state(dumped) == position("c5")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"placements": ["c5", "z9"]}, "'z9' is not a cell"),
        ({"placements": ["c5", "c5"]}, "c5 is placed on twice"),
        ({"placements": "c5"}, "must be a list"),
        ({"first": None}, "placements but no first seat"),
        ({"first": 3}, "first must be 1, 2 or null"),
        ({"forfeited": True}, "forfeited must be 1, 2 or null"),
        ({"cells": {"c5": 2}}, "cells disagree"),
        (
            {"config": {"dmo": 4}},
            "state config: config option 'dmo' must be an integer from 1 to 2, got 4",
        ),
        ({"config": None}, "state config: a config is a JSON object"),
        ({"turn": 3}, "unknown state key"),
        ({"config": {"troops": 1}, "placements": ["c5", "a5", "a1"]}, "3 placements"),
    ],
)
def test_a_malformed_state_is_refused(change, message):
    """load_state raises InvalidStateError naming the fault."""
    dumped = RULESET.dump_state(position("c5")) | change
    with pytest.raises(InvalidStateError, match=message):
        RULESET.load_state(dumped)


def test_a_state_that_is_not_an_object_is_refused():
    """load_state raises InvalidStateError on anything but a state object."""
    with pytest.raises(InvalidStateError, match="object with config, first, placements"):
        RULESET.load_state(["c5"])


def test_every_seat_and_spectator_sees_the_whole_state():
    """District War hides nothing: view is the dumped state."""
    state = position("c5")
    assert RULESET.view(state, 1) == RULESET.view(state, None) == RULESET.dump_state(state)


def test_resolve_draws_nothing_from_the_rng():
    """District War has no chance: the Rng passed to resolve is never drawn from."""
    rng = Rng("test", 1)
    RULESET.resolve(position("c5"), [(2, Place("a5"))], rng)
    assert rng.draws == 0


def test_a_silent_placer_changes_nothing_in_resolve():
    """DW-6: silence in a placement is the Table's strike, not a move."""
    state = position("c5")
    assert RULESET.resolve(state, [], Rng("test", 1)) == (state, ())


def test_placing_through_resolve_adds_the_troop_for_the_seat_to_move():
    """Rule text: players alternate placing their troops."""
    state = place(place(position(), "c5"), "a5")
    assert RULESET.dump_state(state)["cells"] == {"c5": 1, "a5": 2}
