"""The contract functions: start (DRTS-3, DRTS-21), clock (DRTS-2, DRTS-22), forfeit, view,
random orders, and the registry."""

from domain.rules.contract import Dynamics, OrderPolicy, Silence
from domain.rules.drts_team23 import RULESET, RULESET_V1, RULESET_V2
from domain.rules.drts_team23.orders import random_order
from domain.rules.drts_team23.ruleset import forfeit, initial_state, to_move, view
from domain.rules.drts_team23.state import Stock
from domain.rules.registry import get_ruleset
from domain.rules.rng import Rng
from tests.unit.rules.drts_team23.support import DEFAULT_TEAMS, play, position, square_of


def start(**config):
    return initial_state(RULESET.validate_config(config), 8, Rng("ruleset", 0))


def test_the_ruleset_is_registered_under_its_name():
    """The registry lists drts_team23 v1 (no items) and v2, the latest, which new matches get."""
    assert get_ruleset("drts_team23", 1) is RULESET is RULESET_V1
    assert get_ruleset("drts_team23") is get_ruleset("drts_team23", 2) is RULESET_V2
    assert RULESET_V1.info.order_policy is OrderPolicy.REPLACE
    assert RULESET_V2.info.order_policy is OrderPolicy.MERGE


def test_eight_seats_play_simultaneously():
    """DRTS-2, DRTS-3: 8 players commit at the same moment."""
    info = RULESET.info
    assert (info.min_seats, info.max_seats, info.dynamics) == (8, 8, Dynamics.SIMULTANEOUS)


def test_pieces_start_on_their_squares():
    """DRTS-3: seat 2's Water, Fire, Plant on 4, 5, 6; seat 7's on 37, 38, 39."""
    state = start()
    assert [square_of(state, name) for name in ("2W", "2F", "2P", "7W", "7F", "7P")] == [
        4,
        5,
        6,
        37,
        38,
        39,
    ]


def test_the_off_board_option_starts_every_piece_out_and_recoverable():
    """DRTS-3 option: pieces enter by recovery from movement 1."""
    state = start(start="off_board")
    assert all(piece.square is None and piece.recover_from == 1 for piece in state.pieces)


def test_each_seat_starts_with_its_item_stock():
    """DRTS-21: 4 Stars, 2 DeathStars, 1 Blackhole."""
    assert all(seat.stock == Stock(4, 2, 1) for seat in start().seats)


def test_every_seat_owes_orders_for_20_seconds_and_silence_holds():
    """DRTS-2, DRTS-22: the movement does not close early by default."""
    owing = to_move(start())
    assert owing.seats == (1, 2, 3, 4, 5, 6, 7, 8)
    policy = owing.policy
    assert (policy.deadline_seconds, policy.silence, policy.close_early) == (
        20,
        Silence.HOLD,
        False,
    )


def test_the_movement_length_follows_the_config():
    """DRTS-2: movement_seconds is a match option."""
    assert to_move(start(movement_seconds=45, close_early=True)).policy.deadline_seconds == 45


def test_nobody_owes_orders_once_the_match_is_finished():
    """DRTS-20."""
    assert to_move(position(team_scores=(1, 0, 0), movement=21)).seats == ()


def test_a_forfeited_seat_owes_no_more_orders():
    """forfeit: the seat is out for good."""
    state, steps = forfeit(start(), 3)
    assert 3 not in to_move(state).seats
    assert steps[0].rule == "DRTS-22"


def test_the_pieces_of_a_forfeited_seat_hold_and_can_be_captured():
    """forfeit: its pieces stay on the board as if silent (DRTS-22)."""
    state, _ = forfeit(position({"1P": 15, "4F": 14}, teams=DEFAULT_TEAMS), 1)
    after, _ = play(state, {4: "fire 14>15"})
    assert (square_of(after, "1P"), after.seat(1).score) == (None, -1)


def test_forfeiting_twice_changes_nothing():
    """forfeit is idempotent."""
    once, _ = forfeit(start(), 3)
    assert forfeit(once, 3) == (once, ())


def test_every_seat_and_spectator_sees_the_whole_state():
    """The state holds no secret; open orders live outside it."""
    state = start()
    assert view(state, 1) == view(state, None) == RULESET.dump_state(state)


def test_random_orders_are_legal_in_a_crowded_position():
    """random_order only produces orders check_order accepts."""
    state = start()
    for n in range(200):
        seat = 1 + n % 8
        RULESET.check_order(state, seat, random_order(state, seat, Rng("random", n)))


def test_random_orders_bring_back_pieces_that_may_be_recovered():
    """random_order includes recoveries (DRTS-18) among the legal operations."""
    state = start(start="off_board")
    orders = [random_order(state, 1, Rng("recover", n)) for n in range(30)]
    assert any(op.action.value == "recover" for order in orders for op in order.operations)
