"""The fast ply generator (engine.py): perft from the start and from worked positions, and
agreement with the deliberately simple generator (simple.py) ply by ply and in perft."""

from __future__ import annotations

import random

import pytest

from domain.rules.dris_et_tessa.board import INDEX, LINES, NEIGHBOURS, in_mills, mask_of, names_of
from domain.rules.dris_et_tessa.engine import (
    REMOVE,
    START,
    count_plies,
    perft,
    play,
    plies,
    random_game,
    winner,
)
from domain.rules.dris_et_tessa.notation import parse_position, ply_text
from domain.rules.rng import Rng
from tests.unit.rules.dris_et_tessa import simple
from tests.unit.rules.dris_et_tessa.support import random_position, simple_ply, to_simple

# Every fourth position is played on until a removal is owed, so removals are always covered.
RANDOM_POSITIONS = [random_position(f"perft-{n}", 120, n % 4 == 0) for n in range(20)]


def test_dt1_the_board_has_24_points_and_16_lines_of_three():
    assert len(LINES) == 16 and all(line.bit_count() == 3 for line in LINES)
    assert sorted(names_of(line) for line in LINES) == sorted(
        tuple(sorted(line)) for line in simple.LINES
    )
    assert names_of((1 << 24) - 1) == tuple(simple.POINTS)
    for name in simple.POINTS:
        assert set(names_of(NEIGHBOURS[INDEX[name]])) == simple.NEIGHBOURS[name], name


def test_perft_from_the_start_counts_24_552_12144_255024():
    """The issue's figures: four placements, no mill possible yet."""
    assert perft(START, 4) == [24, 552, 12144, 255024]


def test_perft_from_the_start_to_depth_6_counts_the_first_mills_and_removals():
    """Depth 5: 24*23*22*21*20 (a mill forms, its removal is a ply of depth 6). Depth 6:
    19 placements after the 5,060,160 sequences without a mill, 2 removals after the
    40,320 with one (16 lines x 3! orders of seat 1 x 21*20 placements of seat 2)."""
    mills = 16 * 6 * 21 * 20
    assert perft(START, 6) == [24, 552, 12144, 255024, 5100480, 19 * (5100480 - mills) + 2 * mills]


def test_the_fast_and_the_simple_generator_agree_in_perft_from_the_start():
    assert perft(START, 4) == simple.perft(simple.start(), 4)


@pytest.mark.parametrize("index", range(20))
def test_the_fast_and_the_simple_generator_agree_in_perft_from_random_positions(index):
    position = RANDOM_POSITIONS[index]
    assert perft(position, 4) == simple.perft(to_simple(position), 4), position


def test_the_random_positions_cover_placement_movement_removal_and_the_end():
    kinds = {
        "placing": any(p.hands[p.mover - 1] and not p.removal for p in RANDOM_POSITIONS),
        "stepping": any(not p.hands[p.mover - 1] and not p.removal for p in RANDOM_POSITIONS),
        "removing": any(p.removal for p in RANDOM_POSITIONS),
    }
    assert all(kinds.values()), kinds


def test_the_two_generators_list_the_same_plies_through_random_games():
    rng = Rng("ply-by-ply", 0)
    for _ in range(30):
        position = START
        while moves := plies(position):
            fast = sorted(simple_ply(ply) for ply in moves)
            assert fast == sorted(simple.legal_plies(to_simple(position))), position
            assert count_plies(position) == len(moves)
            position = play(position, rng.choice(moves))
        assert winner(position) is not None
        assert simple.legal_plies(to_simple(position)) == []


def test_every_ply_has_the_same_effect_in_both_generators():
    rng = Rng("effects", 0)
    for _ in range(30):
        position = START
        while moves := plies(position):
            ply = rng.choice(moves)
            after = play(position, ply)
            assert to_simple(after) == simple.apply(to_simple(position), simple_ply(ply))
            position = after


def test_a_random_game_plays_legal_plies_and_ends_as_the_rules_say():
    rnd = random.Random(7)
    for _ in range(50):
        record: list[int] = []
        game = random_game(lambda n: int(rnd.random() * n), draw_turns=100, record=record)
        position = START
        for ply in record:
            assert ply in plies(position), (ply_text(ply), position)
            position = play(position, ply)
        assert game.plies == len(record)
        assert game.turns == sum(1 for ply in record if not ply & REMOVE)
        if game.result > 0:
            assert winner(position) == game.result
        else:
            assert game.result == 0 and winner(position) is None
            quiet = len(record) - max((i for i, p in enumerate(record) if p & REMOVE), default=-1)
            assert quiet - 1 == 100  # DT-6: 100 turns since the last removal


# -- positions worked by hand (position notation: notation.py) ---------------------------------


def test_dt4_fallback_removal_when_every_enemy_piece_stands_in_a_mill():
    """Seat 1 has just formed b2-d2-f2; seat 2's six pieces stand in the mills a1-d1-g1 and
    a7-d7-g7, so any of the six may go (DT-4). Then seat 2 steps: a1-a4, g1-g4, a7-a4, d7-d6
    and g7-g4 (5), plus the steps into the point just emptied: after xd1 a1-d1 and g1-d1
    (7), after xd7 a7-d7 and g7-d7 (6), after each corner one (5): 5+7+5+5+6+5 = 33."""
    position = parse_position("222/.../.../....../.../111/222 1 0 0 x")
    assert sorted(ply_text(p) for p in plies(position)) == [
        "xa1",
        "xa7",
        "xd1",
        "xd7",
        "xg1",
        "xg7",
    ]
    assert perft(position, 2) == [6, 33]
    assert perft(position, 3) == simple.perft(to_simple(position), 3)


def test_dt4_a_piece_in_a_mill_is_protected_while_another_is_free():
    """The same position with a seventh piece of seat 2 on c4, in no mill: only c4 may go."""
    position = parse_position("222/.../.../..2.../.../111/222 1 0 0 x")
    assert [ply_text(p) for p in plies(position)] == ["xc4"]
    assert perft(position, 3) == simple.perft(to_simple(position), 3)


def test_dt3_a_double_mill_gives_one_removal():
    """Seat 1 (a4, a7, d1, g1; 5 in hand) places on a1: two mills at once, one removal among
    seat 2's b2, d6, f4, then seat 2 places. Depth 1: 17 empty points. Depth 2: 3 removals
    after a1, and 16 placements of seat 2 after each of the 16 other points (no other
    placement forms a mill): 3 + 256 = 259. Depth 3: 17 placements after each removal
    (51), 15 after each of the 256 (3840): 3891."""
    position = parse_position("1../.2./.../1...2./.../2../.11 1 5 6")
    assert perft(position, 3) == [17, 259, 3891]
    after = play(position, mask_of(["a1"]).bit_length() - 1)
    assert after.removal and after.mover == 1
    removal = plies(after)[0]
    assert not play(after, removal).removal and play(after, removal).mover == 2


def test_dt5_a_blocked_seat_has_lost_and_perft_stops_there():
    """Seat 2 (a1, d1, a4) can only play a4-b4; seat 1 (a7, c4, d2, g1) has 8 steps, and
    c4-b4 blocks seat 2 entirely: seat 1 wins (DT-5). After the 7 other steps seat 2 has
    a4-b4, plus a4-a7 after a7-d7, plus d1-d2 after each of the 3 steps of d2, plus d1-g1
    after g1-g4: 2+0+1+1+2+2+2+2 = 12."""
    position = parse_position("1../.../.../2.1.../.../.1./221 1 0 0")
    assert perft(position, 2) == [8, 12]
    blocking = next(p for p in plies(position) if ply_text(p) == "c4-b4")
    blocked = play(position, blocking)
    assert plies(blocked) == [] and winner(blocked) == 1
    assert perft(blocked, 3) == [0, 0, 0]


def test_dt5_a_seat_with_two_pieces_has_lost_even_with_moves_left():
    position = parse_position("1../.../.../2.1.../.../.1./2.. 2 0 0")
    assert winner(position) == 1 and plies(position) == [] and count_plies(position) == 0


def test_in_mills_marks_exactly_the_pieces_on_full_lines():
    rng = Rng("mills", 0)
    for _ in range(500):
        mask = rng.below(1 << 24)
        expected = 0
        for line in LINES:
            if mask & line == line:
                expected |= line
        assert in_mills(mask) == expected
