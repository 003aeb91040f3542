"""DRTS Team 23's optional contract parts: presets, the cross-field config check, the list of
legal orders, the Public Display and the shared errors (docs/rulesets.md)."""

from __future__ import annotations

import pytest

from domain.errors import InvalidConfigError, UnknownSeatError
from domain.rules.drts_team23 import RULESET
from domain.rules.drts_team23.orders import Order
from domain.rules.drts_team23.state import Team
from tests.unit.rules.drts_team23.support import DEFAULT_TEAMS, position

# Seat 1 (green) has its Fire on 14 and its Water on 15, its Plant out until movement 5;
# an enemy Plant (seat 4, yellow) stands on 21 and an enemy Water (seat 5) on 8.
PIECES = {"1F": 14, "1W": 15, "4P": 21, "5W": 8}


def state():
    return position(PIECES, out={"1P": 5}, teams=DEFAULT_TEAMS, movement=3)


def test_the_postal_preset_gives_a_day_per_movement_and_closes_early():
    """DRTS-2: the clock is a match option; by mail a movement ends once all have ordered."""
    config = RULESET.configure({}, "postal")
    assert (config["movement_seconds"], config["close_early"]) == (86400, True)
    assert (config["movements"], config["max_movements"]) == (20, 40)


def test_the_last_movement_may_not_come_before_the_regular_ones_end():
    """DRTS-20: a cross-field check, after the typed one, in the one message shape."""
    with pytest.raises(
        InvalidConfigError,
        match=r"'max_movements' must be an integer from movements \(20\) to 1000, got 19",
    ):
        RULESET.configure({"max_movements": 19})


def test_a_movement_longer_than_a_week_is_refused_naming_the_range():
    """DRTS-2: the length of a movement is configurable, within a week."""
    with pytest.raises(InvalidConfigError, match="an integer from 1 to 604800, got 604801"):
        RULESET.validate_config({"movement_seconds": 604801})


def test_legal_orders_combine_each_pieces_operations_with_each_team_request():
    """DRTS-4: up to two operations on different pieces, and a free request for another team.
    DRTS-6, DRTS-7: the Fire may step diagonally onto the Plant it captures (21); the Water
    onto the enemy Water (8). DRTS-18: the Plant is out until movement 5."""
    listed = RULESET.legal_orders(state(), 1)
    singles = {
        RULESET.format_order(order)
        for order in listed
        if len(order.operations) == 1 and order.team is None
    }
    assert singles == {
        "fire hold", "fire 14>8", "fire 14>13", "fire 14>15", "fire 14>20", "fire 14>21",
        "water hold", "water 15>8", "water 15>9", "water 15>14", "water 15>16", "water 15>21",
    }  # fmt: skip
    assert len(listed) == (1 + 12 + 6 * 6 * 2) * 3  # none, one or two operations; 3 requests
    assert Order() in listed and Order(team=Team.YELLOW) in listed
    assert all(order.team is not Team.GREEN for order in listed)  # its own team: no request


def test_a_forfeited_seat_and_a_finished_match_list_no_order():
    """DRTS-22: a forfeited seat sends no more orders; DRTS-20: a finished match takes none."""
    forfeited, _ = RULESET.forfeit(state(), 1)
    assert RULESET.legal_orders(forfeited, 1) == ()
    finished = position(PIECES, teams=DEFAULT_TEAMS, movement=21, team_scores=(1, 0, 0))
    assert RULESET.legal_orders(finished, 1) == ()


def test_a_seat_outside_1_to_8_is_an_unknown_seat_everywhere():
    """DRTS-3: seats are numbered 1..8."""
    for call in (
        lambda: RULESET.forfeit(state(), 9),
        lambda: RULESET.check_order(state(), 9, Order()),
        lambda: RULESET.legal_orders(state(), 0),
    ):
        with pytest.raises(UnknownSeatError, match=r"drts_team23 has no seat \d \(seats 1\.\.8\)"):
            call()


def test_the_public_display_shows_the_clock_board_seats_and_teams():
    """DRTS-1, DRTS-2, DRTS-18, DRTS-19: the whole position, as a postal player needs it."""
    assert RULESET.display(state()) == DISPLAY


def test_the_public_display_of_a_finished_match_gives_the_result():
    """DRTS-20: after the last regular movement the leading team wins."""
    finished = position(PIECES, teams=DEFAULT_TEAMS, movement=21, team_scores=(1, 0, 0))
    text = RULESET.display(finished)
    assert text.startswith("Finished after movement 20:")
    assert "After movement 20 green leads with 1 points: green wins (seats 1, 2, 3)." in text


DISPLAY = """\
Movement 3 is open: 20 regular movements, golden point up to movement 40
(DRTS-2, DRTS-20).

  1    2    3    4    5    6
  7   5W    9   10   11   12
 13   1F   1W   16   17   18
 19   20   4P   22   23   24
 25   26   27   28   29   30
 31   32   33   34   35   36
 37   38   39   40   41   42
3F = the Fire of seat 3 (W Water, F Fire, P Plant); an empty square
shows its number.

seat  team    score  water      fire       plant
1     green       0  15         14         back m5
2     green       0  out        out        out
3     green       0  out        out        out
4     yellow      0  out        out        21
5     yellow      0  8          out        out
6     yellow      0  out        out        out
7     blue        0  out        out        out
8     blue        0  out        out        out
out = off the board, may be recovered now; back m9 = from movement 9
(DRTS-18).

Team points: green 0 (seats 1, 2, 3); yellow 0 (seats 4, 5, 6); blue 0
(seats 7, 8).
"""
