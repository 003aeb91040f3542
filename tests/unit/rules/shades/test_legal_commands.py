"""Legal commands, shade by shade: stay, or one step N/E/S/W onto a square on the map and not
water (SH-1); any order of at most one listed command a shade moves each where it says
(SH-4). Hand-worked on the unit tests' 7x5 field (support.FIELD):

    y0  T..~..T
    y1  .......
    y2  .......
    y3  .......
    y4  T..~..T
"""

import itertools
from dataclasses import replace

import pytest

from domain.errors import UnknownSeatError
from domain.rules.shades import RULESET
from domain.rules.shades.moves import move_shades
from domain.rules.shades.orders import (
    DELTAS,
    Command,
    Order,
    commands_of_order,
    legal_commands,
    order_of_commands,
)
from tests.unit.rules.shades.support import play, position, squares, steps_of

# 5x3: the middle square of the second row is walled in by water on its four sides
WALLED = (
    "T.~..",
    ".~.~.",
    "..~.T",
)


def targets(state, seat):
    """Returns the listed target squares of each of the seat's shades, by id."""
    return {
        shade: [command.to for command in commands]
        for shade, commands in legal_commands(state, seat).items()
    }


def test_a_shade_in_the_open_may_step_north_east_south_west_or_stay():
    """SH-1: a move is stay or one step N/E/S/W (north is up, y - 1); listed in that order,
    in the protocol's form: the target square, the shade's own for staying."""
    state = position(shades=[(1, 2, 2)])
    assert legal_commands(state, 1) == {
        1: (
            Command(1, (2, 1)),
            Command(1, (3, 2)),
            Command(1, (2, 3)),
            Command(1, (1, 2)),
            Command(1, (2, 2)),
        )
    }


def test_the_map_edge_takes_away_the_steps_off_the_map_and_does_not_wrap():
    """SH-1: edges do not wrap. A corner leaves two steps, a side three."""
    state = position(shades=[(1, 0, 0), (1, 6, 2), (1, 1, 4)])
    assert targets(state, 1) == {
        1: [(1, 0), (0, 1), (0, 0)],  # top left corner: east, south
        2: [(6, 1), (6, 3), (5, 2), (6, 2)],  # east side: north, south, west
        3: [(1, 3), (2, 4), (0, 4), (1, 4)],  # bottom side: north, east, west
    }


def test_water_takes_away_the_step_onto_it():
    """SH-1: no shade may stand on water, (3, 0) and (3, 4) here."""
    state = position(shades=[(1, 2, 0), (1, 3, 1), (1, 4, 4)])
    assert targets(state, 1) == {
        1: [(2, 1), (1, 0), (2, 0)],  # the edge to the north, water to the east
        2: [(4, 1), (3, 2), (2, 1), (3, 1)],  # water to the north
        3: [(4, 3), (5, 4), (4, 4)],  # water to the west, the edge to the south
    }


def test_a_shade_walled_in_by_water_may_only_stay():
    """SH-1: water on all four sides leaves staying, the one command."""
    state = position(WALLED, shades=[(1, 2, 1)], tombs=[(1, 0, 0), (2, 4, 2)])
    assert legal_commands(state, 1) == {1: (Command(1, (2, 1)),)}


def test_shades_humans_and_tombs_block_no_step():
    """SH-1: only water and the edge take a step away. Shade 1 may step onto its own shade 2
    (north), seat 2's shade 3 (east) and a human (south); shade 4 onto its own tomb (west)
    and shade 5 onto seat 2's tomb (east)."""
    state = position(
        shades=[(1, 2, 2), (1, 2, 1), (2, 3, 2), (1, 1, 4), (1, 5, 0)], humans=[(2, 3)]
    )
    listed = targets(state, 1)
    assert listed[1] == [(2, 1), (3, 2), (2, 3), (1, 2), (2, 2)]
    assert (0, 4) in listed[4] and (6, 0) in listed[5]


def test_a_listed_step_onto_an_own_shade_is_valid_and_ends_in_a_collision():
    """SH-4 and SH-3: a listed command is valid, not safe: shade 1 steps onto shade 2, which
    stays; no command is refused, and both die in the collision."""
    state = position(shades=[(1, 2, 2), (1, 2, 1), (2, 5, 3)])
    step = legal_commands(state, 1)[1][0]
    assert step == Command(1, (2, 1))
    after, steps = play(state, {1: RULESET.format_order(Order((step,)))})
    assert steps_of(steps, "SH-4") == []
    assert steps_of(steps, "SH-3")[0].data["killed"] == [[1, 1], [2, 1]]
    assert squares(after, 1) == {}


def test_a_command_is_listed_exactly_when_the_resolution_would_not_refuse_it():
    """SH-1, SH-4: every direction and a few far squares, for shades by the edge, by water
    and in the open: the listing and the moves phase agree on each command."""
    state = position(shades=[(1, 0, 0), (1, 2, 0), (1, 3, 1), (1, 6, 2), (1, 2, 2)])
    listed = legal_commands(state, 1)
    for shade in state.shades:
        x, y = shade.square
        tried = [(x + dx, y + dy) for dx, dy in DELTAS.values()] + [(x + 1, y + 1), (x, y + 2)]
        for target in tried:
            _, steps = move_shades(state, [(1, Order((Command(shade.id, target),)))])
            refused = bool(steps_of(steps, "SH-4"))
            assert (Command(shade.id, target) in listed[shade.id]) is not refused, target


def test_every_combination_of_listed_commands_moves_each_shade_where_it_says():
    """SH-4: at most one listed command a shade, in any order, is never refused; each shade
    named ends on its target, the others stay (before collisions, SH-3)."""
    state = position(shades=[(1, 0, 0), (1, 2, 0), (1, 3, 1), (2, 6, 4)])
    listed = legal_commands(state, 1)
    for choice in itertools.product(*[(None, *commands) for commands in listed.values()]):
        commands = [command for command in choice if command is not None]
        for ordered in (commands, commands[::-1]):
            after, steps = move_shades(state, [(1, order_of_commands(ordered))])
            assert steps_of(steps, "SH-4") == [], ordered
            expected = squares(state) | {c.shade: c.to for c in ordered}
            assert squares(after) == expected


def test_only_the_seats_own_shades_are_listed_in_id_order():
    state = position(shades=[(2, 4, 2), (1, 2, 2), (2, 5, 3), (1, 1, 1)])
    assert list(legal_commands(state, 1)) == [2, 4]
    assert list(legal_commands(state, 2)) == [1, 3]


def test_a_seat_that_owes_no_order_has_no_commands():
    """SH-4, SH-7: an eliminated seat's shades stay in play but take no commands; nobody
    commands once the match is over; a seat with no shade left lists none."""
    eliminated = position(shades=[(1, 2, 2), (2, 4, 2)], eliminated={2: (0, "forfeit")})
    assert legal_commands(eliminated, 2) == {} and list(legal_commands(eliminated, 1)) == [1]
    finished = position(shades=[(1, 2, 2), (2, 4, 2)], turns=1, turn=1)
    assert legal_commands(finished, 1) == legal_commands(finished, 2) == {}
    no_shade = position(shades=[(1, 2, 2)], stored={2: 1})
    assert legal_commands(no_shade, 2) == {}
    with pytest.raises(UnknownSeatError, match=r"shades has no seat 3 \(seats 1\.\.2\)"):
        legal_commands(no_shade, 3)


def test_commands_and_orders_convert_both_ways():
    commands = (Command(4, (1, 1)), Command(2, (2, 3)))
    assert order_of_commands(commands) == Order(commands)
    assert commands_of_order(order_of_commands(commands)) == commands


def test_the_contract_takes_the_listing_only_with_both_converters():
    """The contract: legal_commands, order_of_commands and commands_of_order come together."""
    with pytest.raises(ValueError, match="come together"):
        replace(RULESET, order_of_commands=None)
    none = replace(RULESET, legal_commands=None, order_of_commands=None, commands_of_order=None)
    assert none.legal_commands is None and RULESET.legal_commands is legal_commands
