"""The attack phase (the fear rule, SH-3, SH-7) and razing (SH-5, SH-6), worked by hand."""

from domain.rules.shades.combat import attack, fears, raze
from tests.unit.rules.shades.support import position, squares, steps_of

THREE_SEATS = [(1, 0, 0), (2, 6, 0), (3, 0, 4)]  # one tomb a seat; the fourth is plain ground


def fear_of(state):
    return {shade_id: len(foes) for shade_id, foes in fears(state.shades).items()}


def test_attack_example_1_the_pair_of_one_gang_outlasts_two_gangs():
    """Rule text, example 1: gang A's two shades stand together, each in range of B and C
    (fear 2); B and C each see both A's and each other (fear 3): all die but gang A.

        row 1:  B(3) A(2) C(3)
        row 2:       A(2)
    """
    state = position(
        seats=3,
        tombs=THREE_SEATS,
        shades=[(2, 1, 1), (1, 2, 1), (3, 3, 1), (1, 2, 2)],  # ids 1 B, 2 A, 3 C, 4 A
    )
    assert fear_of(state) == {1: 3, 2: 2, 3: 3, 4: 2}
    after, steps = attack(state)
    assert squares(after) == {2: (2, 1), 4: (2, 2)}
    assert steps_of(steps, "SH-3")[0].data["killed"] == [[1, 2], [3, 3]]


def test_attack_example_2_the_inner_shades_die_and_the_outer_ones_live():
    """Rule text, example 2: the outer shades are too far apart to fight each other, so their
    fear is 1; the inner ones face two enemies (fear 2) and are marked to die.

        row 0:  A(1) . B(2)
        row 1:         A(2) . B(1)
    """
    state = position(shades=[(1, 0, 0), (2, 2, 0), (1, 2, 1), (2, 4, 1)])
    assert fear_of(state) == {1: 1, 2: 2, 3: 2, 4: 1}
    after, steps = attack(state)
    assert squares(after) == {1: (0, 0), 4: (4, 1)}
    assert steps[0].data == {"fear": {"1": 1, "2": 2, "3": 2, "4": 1}, "killed": [[2, 2], [3, 1]]}


def test_two_shades_of_equal_fear_kill_each_other():
    """SH-3: fear 1 against fear 1: each sees an enemy whose fear is not above its own."""
    after, _ = attack(position(shades=[(1, 1, 1), (2, 2, 2)]))
    assert after.shades == ()


def test_the_attack_range_is_a_squared_distance_of_five():
    """SH-1: (2, 1) away is in range (4 + 1 = 5); (2, 2) away is not (8)."""
    assert attack(position(shades=[(1, 1, 1), (2, 3, 2)]))[0].shades == ()
    far = position(shades=[(1, 1, 1), (2, 3, 3)])
    assert attack(far) == (far, [])


def test_water_does_not_block_an_attack():
    """SH-1: shades on either side of the water at (3, 0) fight across it."""
    assert attack(position(shades=[(1, 2, 0), (2, 4, 0)]))[0].shades == ()


def test_shades_of_one_seat_never_fight_each_other():
    """SH-3: fear counts enemy shades only."""
    state = position(shades=[(1, 1, 1), (1, 2, 1), (1, 1, 2)])
    assert attack(state) == (state, [])


def test_the_shades_of_an_eliminated_seat_still_fight():
    """SH-7: an eliminated seat's shades stay in play: they kill and can be killed."""
    state = position(shades=[(1, 1, 1), (2, 2, 1)], eliminated={2: (0, "forfeit")})
    assert attack(state)[0].shades == ()


def test_an_enemy_shade_on_a_tomb_razes_it():
    """SH-5, SH-6: seat 2's shade on seat 1's tomb (0, 0): seat 1 -1, seat 2 +2."""
    state = position(shades=[(2, 0, 0)])
    after, steps = raze(state)
    assert after.tombs[0].razed == 0 and [t.id for t in after.standing_tombs] == [2, 3, 4]
    assert (after.seat(1).score, after.seat(2).score) == (1, 4)
    assert steps[0].data["points"] == {"1": -1, "2": 2}


def test_a_shade_on_its_own_tomb_razes_nothing():
    """SH-5: only an enemy tomb falls."""
    state = position(shades=[(1, 0, 0)])
    assert raze(state) == (state, [])


def test_every_enemy_tomb_falls_in_one_turn():
    """SH-5: both of seat 1's tombs under seat 2's shades fall in the same turn."""
    after, steps = raze(position(shades=[(2, 0, 0), (2, 0, 4)]))
    assert [t.id for t in after.standing_tombs] == [2, 4]
    assert after.seat(1).score == 0 and after.seat(2).score == 6
    assert len(steps_of(steps, "SH-5")) == 2


def test_with_the_one_tomb_option_only_the_lowest_tomb_id_falls():
    """SH-5 option (the original server): tombs 1 and 3 are both under enemy shades; tomb 1
    falls, tomb 3 stays standing with the shade on it."""
    after, steps = raze(position(shades=[(2, 0, 4), (2, 0, 0)], razing="one"))
    assert [t.id for t in after.standing_tombs] == [2, 3, 4]
    assert steps[-1].data == {"spared": [3]}
    assert after.seat(1).score == 1 and after.seat(2).score == 4


def test_an_eliminated_seat_razes_and_is_paid():
    """SH-7: an eliminated seat's shade razes a tomb; the razer's seat still gets its 2."""
    state = position(shades=[(2, 0, 0)], eliminated={2: (0, "forfeit")})
    after, _ = raze(state)
    assert after.tombs[0].razed == 0 and after.seat(2).score == 4


def test_an_eliminated_seat_can_lose_a_tomb_and_points():
    """SH-7: seat 2 is out, its tomb (6, 0) still falls to seat 1, costing it a point."""
    after, _ = raze(position(shades=[(1, 6, 0)], eliminated={2: (0, "no_shades")}))
    assert after.tombs[1].razed == 0 and after.seat(2).score == 1


def test_normalised_razing_is_worth_a_share_of_100():
    """SH-6 option: 2 tombs a seat, so a tomb is worth 50: the owner -50, the razer +100."""
    after, steps = raze(position(shades=[(2, 0, 0)], scoring="normalised"))
    assert (after.seat(1).score, after.seat(2).score) == (50, 200)
    assert steps[0].data["points"] == {"1": -50, "2": 100}
