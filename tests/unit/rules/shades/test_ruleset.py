"""The start (SH-2, SH-8), the clock (SH-4, SH-10), forfeits, views, the contest preset and
the phases of a turn (SH-3), through the ruleset and the pure Table."""

import pytest

from domain.errors import IllegalOrderError, InvalidConfigError, UnknownSeatError
from domain.rules.contract import Silence, canonical_json
from domain.rules.rng import Rng
from domain.rules.shades import RULESET
from domain.rules.shades.resolve import PHASES
from domain.rules.shades.state import Reason
from domain.table import Table
from tests.unit.rules.shades.support import FIELD, position

FIVE_TOMBS = ("T.T.T", ".....", "T...T")


def start(seats=2, **config):
    return RULESET.initial_state(RULESET.validate_config(config), seats, Rng("start", 0))


def test_each_seat_gets_floor_tombs_over_seats_and_a_shade_on_each():
    """SH-2: 5 tombs, 2 seats: 2 each; tomb i and shade i share an id and a square."""
    state = start(map=list(FIVE_TOMBS))
    assert [t.owner for t in state.tombs] == [1, 1, 2, 2]
    assert [(s.id, s.owner, s.square) for s in state.shades] == [
        (t.id, t.owner, t.square) for t in state.tombs
    ]
    assert state.next_shade == 5 and state.humans == () and state.turn == 0


def test_the_left_over_tomb_is_plain_ground():
    """SH-2: the fifth tomb square belongs to nobody: no tomb, nothing spawns there."""
    state = start(map=list(FIVE_TOMBS))
    used = {t.square for t in state.tombs}
    (left,) = set(state.settings.board.tombs) - used
    assert all(t.square != left for t in state.standing_tombs)


def test_tombs_are_drawn_at_random_from_the_seed():
    """SH-2: other seeds, other assignments; the same seed, the same one."""
    draws = {
        tuple(t.square for t in RULESET.initial_state({}, 2, Rng(f"s{n}", 0)).tombs)
        for n in range(20)
    }
    assert len(draws) > 10
    assert start().tombs == start().tombs


def test_a_seat_starts_with_points_for_its_tombs():
    """SH-6: 2 tombs a seat is 2 points; normalised, 100."""
    assert [s.score for s in start(map=list(FIVE_TOMBS)).seats] == [2, 2]
    assert [s.score for s in start(scoring="normalised").seats] == [100, 100]


def test_a_map_with_fewer_tombs_than_seats_is_refused():
    """SH-2: at least one tomb a seat."""
    with pytest.raises(InvalidConfigError, match="has 2 tombs, fewer than the 3 seats"):
        start(seats=3, map=["T..T"] * 1 + ["...."])


def test_every_seat_alive_orders_at_once_within_the_turn_seconds():
    """SH-10: 5 s by default, early close; SH-4: silence eliminates."""
    policy = RULESET.to_move(start()).policy
    assert (policy.deadline_seconds, policy.close_early) == (5, True)
    assert policy.silence is Silence.ELIMINATION
    state = position(shades=[(1, 1, 1)], eliminated={2: (0, "forfeit")})
    assert RULESET.to_move(state).seats == (1,)


def test_a_turn_closes_early_once_every_seat_alive_has_ordered():
    """SH-10: seat 2 is out; seat 1's order alone makes the turn ready."""
    table = Table(RULESET, "early", position(shades=[(1, 1, 1), (2, 5, 3)]))
    table.submit(1, "1 e")
    assert not table.is_ready()
    table.submit(2, "hold")
    assert table.is_ready()
    out = Table(RULESET, "early", position(shades=[(1, 1, 1)], eliminated={2: (0, "forfeit")}))
    out.submit(1, "1 e")
    assert out.is_ready()


def test_a_seat_silent_at_the_deadline_is_eliminated_and_its_shades_stay():
    """SH-4, SH-7: seat 2 sends nothing: it is forfeited before the turn resolves; its
    shade stays on the board; seat 1, alive after the turn, gets the bonus (SH-6)."""
    table = Table(RULESET, "silent", position(shades=[(1, 1, 1), (2, 5, 3)]))
    table.submit(1, "1 e")
    passed = table.pass_deadline()
    assert passed.forfeited == (2,) and passed.resolution is not None
    state = table.state
    assert state.seat(2).eliminated.reason is Reason.FORFEIT and state.seat(2).eliminated.turn == 0
    assert {s.owner for s in state.shades} == {1, 2}
    assert state.seat(1).score == 3 and [s.rule for s in passed.steps][:2] == ["SH-4", "SH-1"]


def test_an_eliminated_seat_may_not_order():
    """SH-4: it is no longer asked for commands."""
    state = position(shades=[(1, 1, 1)], eliminated={2: (0, "forfeit")})
    with pytest.raises(IllegalOrderError, match="seat 2 was eliminated in turn 0"):
        RULESET.check_order(state, 2, RULESET.parse_order("hold"))


def test_a_forfeit_that_ends_the_match_pays_the_survivor_at_once():
    """SH-4, SH-6, SH-9: seat 2 has no tomb left; forfeiting it leaves seat 1 alone with
    every tomb: the match ends in the forfeit, and seat 1 gets its +1 there."""
    state = position(shades=[(1, 1, 1), (2, 5, 3)], razed={2: 0, 4: 0}, turn=1)
    after, steps = RULESET.forfeit(state, 2)
    assert RULESET.outcome(after).finished and after.seat(1).score == 3
    assert [s.rule for s in steps] == ["SH-4", "SH-6", "SH-9"]
    assert RULESET.forfeit(after, 2) == (after, ())


def test_a_seat_sees_its_bots_state_message_and_a_spectator_the_state():
    """SH-11: view(state, seat) is the protocol's per-turn message; nothing is secret."""
    state = position(shades=[(1, 1, 1)], stored={1: 2})
    assert RULESET.view(state, 1)["food_count"] == 2
    assert RULESET.view(state, None) == RULESET.dump_state(state)
    with pytest.raises(UnknownSeatError):
        RULESET.view(state, 3)


def test_the_contest_preset_sets_every_option_to_the_original_servers():
    """The preset: 300 turns of 5 s, one tomb a turn (SH-5 option), normalised scoring and
    the sequential elimination bonus (SH-6 options), a contested human to the first shade
    found (SH-12 option); the map stays the match's own."""
    config = RULESET.configure({"map": list(FIELD)}, "contest")
    assert config == {
        "map": list(FIELD),
        "turns": 300,
        "turn_seconds": 5,
        "razing": "one",
        "scoring": "normalised",
        "elimination_bonus": "sequential",
        "contested_human": "first_found",
    }


def test_the_new_options_default_to_the_rulings():
    """SH-6 and SH-12: without the options a match pays eliminations at the end of the turn
    and lets a contested human's soul escape."""
    config = RULESET.validate_config({})
    assert (config["elimination_bonus"], config["contested_human"]) == ("end_of_turn", "escapes")


def test_a_turn_has_the_nine_phases_of_sh_3_in_order():
    """SH-3: moves, collisions, attack, razing, spawning, conversion, births, elimination,
    end; each phase's state follows from the one before."""
    state = position(shades=[(1, 1, 1), (2, 5, 3)], humans=[(1, 2)], cap=3)
    orders = [(1, RULESET.parse_order("1 s"))]
    phases = RULESET.phases(state, orders, Rng("phases", 1))
    assert [p.name for p in phases] == list(PHASES)
    assert phases[0].state.shades[0].square == (1, 2)  # moved
    assert phases[5].state.seat(1).stored == 1  # converted the human it stands on
    assert phases[-1].state.turn == 1


def test_the_turns_rng_is_drawn_only_by_spawning_and_births():
    """Every random draw is recorded: a turn without stored humans or room for births draws
    nothing."""
    state = position(shades=[(1, 1, 1), (2, 5, 3)])
    rng = Rng("draws", 1)
    RULESET.resolve(state, [], rng)
    assert rng.draws == 0


def test_a_random_300_turn_match_of_4_seats_replays_to_identical_bytes():
    """Determinism: the same seed and orders give the same steps and states, byte for byte,
    for all 300 turns of a 4-seat match on a 20x20 map."""

    def play_match():
        rows = RULESET.validate_config({"map": RIVER})["map"]
        table = Table.start(RULESET, {"map": rows}, 4, "bytes")
        out = []
        while not table.outcome().finished:
            bots = Rng("bytes", table.movement, "bots")
            for seat in table.to_move().seats:
                table.submit(
                    seat, RULESET.dump_order(RULESET.random_order(table.state, seat, bots))
                )
            steps = table.close().steps
            out.append(canonical_json([s.to_json() for s in steps]))
            out.append(canonical_json(RULESET.dump_state(table.state)))
        return table, out

    first, one = play_match()
    _, two = play_match()
    assert first.state.turn == 300 and len(one) == 600
    assert one == two


RIVER = [
    ".........~~.........",
    ".........~~.........",
    "..T......~~......T..",
    "....................",
    ".........~~.........",
    ".........~~.........",
    ".........~~.........",
    ".........~~.........",
    ".....T...~~...T.....",
    "....................",
    "....................",
    ".........~~.........",
    ".........~~.........",
    ".........~~.........",
    "..T......~~......T..",
    ".........~~.........",
    "....................",
    "......T..~~..T......",
    ".........~~.........",
    ".........~~.........",
]
