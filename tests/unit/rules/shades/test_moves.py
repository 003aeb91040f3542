"""The movement phase: commands against one snapshot (SH-1, SH-3, SH-4), then collisions."""

from domain.rules.shades.moves import collide, move_shades
from domain.rules.shades.orders import parse_order
from tests.unit.rules.shades.support import position, squares, steps_of


def moved(state, orders):
    return move_shades(state, [(seat, parse_order(text)) for seat, text in orders.items()])


def test_a_shade_moves_one_step_in_each_direction_or_stays():
    """SH-1: N is up (y - 1), E right, S down, W left; a shade not named stays."""
    state = position(shades=[(1, 2, 2), (1, 4, 2), (1, 2, 1), (1, 5, 1), (1, 1, 3)])
    after, steps = moved(state, {1: "1 n; 2 e; 3 3,1; 4 w; 5 stay"})
    assert squares(after) == {1: (2, 1), 2: (5, 2), 3: (3, 1), 4: (4, 1), 5: (1, 3)}
    assert steps[0].rule == "SH-1" and len(steps[0].data["moves"]) == 4


def test_a_move_onto_water_off_the_map_or_too_far_leaves_the_shade_in_place():
    """SH-1, SH-4: each invalid command leaves its shade where it is, with the reason."""
    state = position(shades=[(1, 2, 0), (1, 0, 1), (1, 4, 3), (1, 5, 3)])
    after, steps = moved(state, {1: "1 e; 2 w; 3 6,4; 4 5,1"})
    assert squares(after) == squares(state)
    reasons = [item["reason"] for item in steps_of(steps, "SH-4")[0].data["refused"]]
    assert "(3, 0) is water" in reasons[0]
    assert "(-1, 1) is off the map" in reasons[1]
    assert "is not (4, 3) or one step N, E, S or W of it" in reasons[2]  # diagonal
    assert "is not (5, 3) or one step" in reasons[3]  # two steps


def test_only_the_first_command_for_a_shade_counts_even_an_invalid_one():
    """SH-4: "1 n" is off the map, so shade 1 stays; the later "1 s" is ignored."""
    state = position(shades=[(1, 2, 0)])
    after, steps = moved(state, {1: "1 n; 1 s"})
    assert squares(after) == {1: (2, 0)}
    refused = steps_of(steps, "SH-4")[0].data["refused"]
    assert [item["command"] for item in refused] == ["1 N", "1 S"]
    assert "only the first one counts" in refused[1]["reason"]


def test_commands_for_unknown_or_foreign_shades_are_ignored():
    """SH-4 and the protocol: seat 1 names shade 9 (none) and shade 2 (seat 2's)."""
    state = position(shades=[(1, 2, 2), (2, 4, 2)])
    after, steps = moved(state, {1: "9 n; 2 w; 1 s"})
    assert squares(after) == {1: (2, 3), 2: (4, 2)}
    reasons = [item["reason"] for item in steps_of(steps, "SH-4")[0].data["refused"]]
    assert reasons == ["there is no shade 9: ignored", "shade 2 belongs to seat 2: ignored"]


def test_every_command_is_judged_against_the_start_of_the_turn():
    """SH-3: shade 1 steps into the square shade 2 leaves at the same time: no collision."""
    state = position(shades=[(1, 1, 1), (1, 2, 1)])
    after, _ = moved(state, {1: "1 e; 2 e"})
    assert squares(after) == {1: (2, 1), 2: (3, 1)}
    assert collide(after) == (after, [])


def test_two_shades_of_one_owner_on_one_square_both_die():
    """SH-3: a collision kills every shade on the square, even of one seat."""
    state = position(shades=[(1, 1, 1), (1, 3, 1), (2, 5, 3)])
    after, steps = collide(moved(state, {1: "1 e; 2 w"})[0])
    assert squares(after) == {3: (5, 3)}
    assert steps[0].data == {"x": 2, "y": 1, "killed": [[1, 1], [2, 1]]}
    assert "one owner's shades die too" in steps[0].text


def test_a_shade_moving_onto_a_shade_that_stays_kills_both():
    """SH-3: seat 1 moves onto seat 2's shade standing still; both die."""
    state = position(shades=[(1, 1, 1), (2, 2, 1)])
    after, _ = collide(moved(state, {1: "1 e"})[0])
    assert after.shades == ()


def test_two_shades_that_swap_squares_pass_each_other():
    """SH-3: only the squares where shades end up collide; a swap is no collision."""
    state = position(shades=[(1, 1, 1), (1, 2, 1)])
    after, steps = collide(moved(state, {1: "1 e; 2 w"})[0])
    assert squares(after) == {1: (2, 1), 2: (1, 1)}
    assert steps == []


def test_a_direction_is_taken_from_where_the_shade_stands():
    """The text's directions: "1 s" from (2, 2) targets (2, 3), like "1 2,3"."""
    state = position(shades=[(1, 2, 2)])
    assert squares(moved(state, {1: "1 s"})[0]) == squares(moved(state, {1: "1 2,3"})[0])


def test_the_order_in_which_orders_arrive_changes_nothing():
    """SH-3: one snapshot, all at once; even the steps come in seat order."""
    state = position(shades=[(1, 1, 1), (2, 5, 3)])
    one = move_shades(state, [(1, parse_order("1 e")), (2, parse_order("2 w"))])
    two = move_shades(state, [(2, parse_order("2 w")), (1, parse_order("1 e"))])
    assert one == two
