"""Spawning (SH-3), conversion (SH-3, SH-7), contested humans (SH-12 and its option) and births
(SH-8), worked by hand with scripted draws of the turn's Rng."""

import pytest

from domain.rules.rng import Rng
from domain.rules.shades import RULESET
from domain.rules.shades.humans import FIRST_FOUND_OFFSETS, births, convert, spawn
from tests.unit.rules.shades.support import ScriptedRng, position, squares


def test_a_stored_human_rises_on_a_free_tomb_in_the_shuffled_order():
    """SH-3: seat 1's free tombs, 1 (0, 0) and 3 (0, 4), are shuffled (one draw: below(2) =
    0 swaps them), so shade 1 rises on tomb 3 and shade 2 on tomb 1."""
    state = position(stored={1: 2})
    after, steps = spawn(state, ScriptedRng([0]))
    assert squares(after) == {1: (0, 4), 2: (0, 0)}
    assert after.seat(1).stored == 0 and after.next_shade == 3
    assert steps[0].data == {
        "seat": 1,
        "shuffled": [3, 1],
        "spawned": [[1, 3], [2, 1]],
        "stored": 0,
    }


def test_stored_humans_beyond_the_free_tombs_stay_stored():
    """SH-3: 5 stored humans, 2 free tombs: 2 shades rise, 3 humans carry over."""
    after, steps = spawn(position(stored={1: 5}), ScriptedRng([1]))  # below(2) = 1: no swap
    assert squares(after) == {1: (0, 0), 2: (0, 4)}
    assert after.seat(1).stored == 3 and steps[0].data["stored"] == 3


def test_a_tomb_with_any_shade_on_it_is_not_free():
    """SH-3: tomb 1 holds seat 1's own shade; only tomb 3 is free (a list of one: no draw)."""
    state = position(shades=[(1, 0, 0)], stored={1: 2})
    after, steps = spawn(state, ScriptedRng([]))
    assert squares(after) == {1: (0, 0), 2: (0, 4)}
    assert after.seat(1).stored == 1 and steps[0].data["shuffled"] == [3]


def test_a_razed_tomb_spawns_nothing_and_an_eliminated_seat_spawns_nothing():
    """SH-5: a razed tomb never spawns again; SH-7: an eliminated seat never spawns."""
    state = position(
        stored={1: 3, 2: 3}, razed={1: 0, 3: 0}, eliminated={2: (0, "forfeit")}, turn=1
    )
    assert spawn(state, ScriptedRng([])) == (state, [])


def test_a_human_marked_by_one_seat_is_converted():
    """SH-3, SH-1: the shade north of the human (squared distance 1) and a shade on the
    human's own square both mark; the converting seat stores the humans."""
    state = position(shades=[(1, 2, 1), (1, 5, 2)], humans=[(2, 2), (5, 2)])
    after, steps = convert(state)
    assert after.humans == () and after.seat(1).stored == 2
    assert steps[0].data == {"seat": 1, "humans": [1, 2], "stored": 2}


def test_a_human_diagonal_to_a_shade_is_out_of_range():
    """SH-1: the conversion range is a squared distance of 1; a diagonal is 2."""
    state = position(shades=[(1, 1, 1)], humans=[(2, 2)])
    assert convert(state) == (state, [])


def test_a_human_marked_by_two_seats_is_lost_to_both():
    """SH-12: seats 1 and 2 both reach human 1: its soul escapes, nobody stores it."""
    state = position(shades=[(1, 2, 1), (2, 2, 3)], humans=[(2, 2)])
    after, steps = convert(state)
    assert after.humans == () and (after.seat(1).stored, after.seat(2).stored) == (0, 0)
    assert steps[0].rule == "SH-12"
    assert steps[0].data == {"human": 1, "x": 2, "y": 2, "seats": [1, 2]}
    assert "its soul escapes and no seat converts it (SH-12)" in steps[0].text


def test_version_1_cites_sh_3_for_a_contested_human():
    """Version 1's contested human cites SH-3, word for word as its stored matches hold."""
    state = position(shades=[(1, 2, 1), (2, 2, 3)], humans=[(2, 2)], version=1)
    after, steps = convert(state)
    assert after.humans == () and steps[0].rule == "SH-3"
    assert steps[0].text == (
        "Human 1 on (2, 2) is marked by seats 1, 2: its soul escapes and no seat converts it (SH-3)"
    )


@pytest.mark.parametrize(
    ("first", "later"),
    [
        (i, j)
        for i in range(len(FIRST_FOUND_OFFSETS))
        for j in range(len(FIRST_FOUND_OFFSETS))
        if i < j
    ],
)
def test_the_first_found_option_searches_left_up_own_down_right(first, later):
    """SH-12 option: of two seats' shades marking the human on (3, 2), the one on the square
    that comes first in (x-1, y), (x, y-1), (x, y), (x, y+1), (x+1, y) wins it, whichever
    seat it is; the human leaves the map and the other seat stores nothing."""
    (fx, fy), (lx, ly) = FIRST_FOUND_OFFSETS[first], FIRST_FOUND_OFFSETS[later]
    for winner, loser in ((1, 2), (2, 1)):
        shades = [(winner, 3 + fx, 2 + fy), (loser, 3 + lx, 2 + ly)]
        state = position(shades=shades, humans=[(3, 2)], contested_human="first_found")
        after, steps = convert(state)
        assert after.humans == ()
        assert (after.seat(winner).stored, after.seat(loser).stored) == (1, 0)
        assert steps[0].rule == "SH-12" and steps[0].data == {
            "human": 1,
            "x": 3,
            "y": 2,
            "seats": [1, 2],
            "seat": winner,
            "stored": 1,
        }


def test_a_contested_human_won_adds_to_the_seats_conversions_of_the_turn():
    """SH-12 option: seat 2 converts human 1 alone (SH-3) and wins contested human 2: it
    stores both, the contest's step counting after the conversion's."""
    state = position(
        shades=[(2, 1, 2), (2, 4, 2), (1, 5, 1)],
        humans=[(1, 3), (5, 2)],
        stored={2: 3},
        contested_human="first_found",
    )
    after, steps = convert(state)
    assert after.seat(2).stored == 5 and after.humans == ()
    assert [(s.rule, s.data["stored"]) for s in steps] == [("SH-3", 4), ("SH-12", 5)]


def test_an_eliminated_seats_shade_found_first_wins_the_contested_human():
    """SH-12 option and SH-7: an eliminated seat's shade stays in play and is searched like
    any other: found first, its seat stores the human."""
    state = position(
        shades=[(2, 1, 2), (1, 2, 1)],
        humans=[(2, 2)],
        eliminated={2: (0, "forfeit")},
        contested_human="first_found",
    )
    after, _ = convert(state)
    assert (after.seat(1).stored, after.seat(2).stored) == (0, 1)


def test_two_shades_of_one_seat_marking_a_human_convert_it_once():
    """SH-3: marks are by seat: two of seat 1's shades make one conversion."""
    after, _ = convert(position(shades=[(1, 2, 1), (1, 2, 3)], humans=[(2, 2)]))
    assert after.seat(1).stored == 1


def test_an_eliminated_seats_shades_still_mark_and_convert():
    """SH-7 (the shades stay in play): an eliminated seat's shade converts a human alone, and
    contests one with a seat still alive."""
    state = position(
        shades=[(2, 2, 1), (2, 5, 1), (1, 5, 3)],
        humans=[(2, 2), (5, 2)],
        eliminated={2: (0, "forfeit")},
    )
    after, _ = convert(state)
    assert after.humans == () and (after.seat(1).stored, after.seat(2).stored) == (0, 1)


def test_no_birth_and_no_draw_when_the_map_holds_its_cap():
    """SH-8: R = cap - humans = 0: nothing is drawn, nobody is born."""
    state = position(humans=[(2, 2)], cap=1)
    assert births(state, ScriptedRng([])) == (state, [])


def test_a_mass_birth_brings_all_r_humans():
    """SH-8: the first draw, below(100) = 1 < 2, is the 2/100 mass birth: R = 2 humans, on
    land squares 3 (4, 0) and 0 (0, 0)."""
    after, steps = births(position(cap=2), ScriptedRng([1, 3, 0]))
    assert [(h.id, h.square) for h in after.humans] == [(1, (4, 0)), (2, (0, 0))]
    assert steps[0].data == {
        "room": 2,
        "mass": True,
        "none": False,
        "count": 2,
        "born": [[1, 4, 0], [2, 0, 0]],
    }


def test_no_birth_with_the_three_in_ten_draw():
    """SH-8: below(100) = 50 (no mass), below(10) = 2 < 3: none this turn, on record."""
    after, steps = births(position(cap=5), ScriptedRng([50, 2]))
    assert after.humans == () and steps[0].data["none"] and steps[0].data["count"] == 0


@pytest.mark.parametrize(("draw", "count"), [(0, 1), (2, 3)])
def test_otherwise_one_to_ceil_three_tenths_of_r_are_born(draw, count):
    """SH-8: R = 7, ceil(0.3 * 7) = 3: below(100) = 50, below(10) = 5, then between(1, 3)."""
    after, steps = births(position(cap=7), ScriptedRng([50, 5, draw] + [6] * count))
    assert len(after.humans) == count and after.next_human == count + 1
    assert all(h.square == (0, 1) for h in after.humans)  # land square 6, drawn each time
    assert steps[0].data["count"] == count


def test_humans_may_be_born_on_occupied_squares():
    """SH-8: a birth square is any land square, a shade's, a tomb's or a human's included:
    two humans are born on (0, 0), a tomb with a shade on it."""
    state = position(shades=[(1, 0, 0)], cap=2)
    after, _ = births(state, ScriptedRng([1, 0, 0]))
    assert [h.square for h in after.humans] == [(0, 0), (0, 0)]
    assert squares(after) == {1: (0, 0)}


def test_births_never_land_on_water():
    """SH-8: over many turns of the real Rng, no human is born on water."""
    state = position(cap=30)
    for turn in range(1, 40):
        after, _ = births(state, Rng("births", turn))
        assert all(h.square not in state.settings.board.water for h in after.humans)


def test_the_human_cap_is_drawn_once_between_p_and_3p():
    """SH-8: over 300 seeds the cap of a 4-seat match is always in 4..12, and both ends occur."""
    caps = {
        RULESET.initial_state(RULESET.validate_config({}), 4, Rng(f"cap-{n}", 0)).human_cap
        for n in range(300)
    }
    assert caps == set(range(4, 13))
