"""Whole random matches through domain.table.Table: invariants and exact replays.

Every seat sends `random_order` each movement (as text, the way mail does);
after each movement the 24 pieces are all accounted for, the scores moved by
exactly the points the steps name, no team is over capacity, and the match
ends between movement 20 and 40 (DRTS-20). Replaying the recorded orders with
the same seed gives the same bytes.
"""

from collections import Counter

import pytest

from domain.rules.contract import Result, canonical_json
from domain.rules.drts_team23 import RULESET
from domain.rules.drts_team23.state import KINDS, SEATS, State
from domain.rules.rng import Rng
from domain.table import Table
from tests.support.team23_checks import check_points, check_teams

SEEDS = [f"match-{n}" for n in range(16)]


def play_random_match(seed, config=None):
    """Returns the table at the end and every (orders sent, resolution) of the match."""
    table = Table.start(RULESET, config or {}, SEATS, seed)
    history = []
    while not table.outcome().finished:
        sent = []
        for seat in table.to_move().seats:
            order = RULESET.random_order(table.state, seat, Rng(seed, table.movement, f"bot{seat}"))
            table.submit(seat, RULESET.format_order(order))
            sent.append((seat, RULESET.dump_order(order)))
        history.append((sent, table.close().resolution))
    return table, history


def check_pieces(state: State):
    assert len(state.pieces) == SEATS * len(KINDS)
    assert Counter((p.seat, p.kind) for p in state.pieces) == Counter(
        (seat, kind) for seat in range(1, SEATS + 1) for kind in KINDS
    )
    sides = {}
    for piece in state.pieces:
        if piece.square is None:
            assert 1 <= piece.recover_from <= state.last_resolved + 3  # DRTS-18
        else:
            sides.setdefault(piece.square, set()).add(state.seat(piece.seat).side)
    assert all(len(found) == 1 for found in sides.values()), "enemies share a square"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_random_match_keeps_every_invariant(seed):
    """DRTS-9, DRTS-10, DRTS-18, DRTS-19, DRTS-20 over a whole random match."""
    table, history = play_random_match(seed)
    before = RULESET.initial_state(RULESET.validate_config({}), SEATS, Rng(seed, 0))
    for _, resolution in history:
        check_pieces(resolution.state)
        check_points(before, resolution)
        check_teams(resolution.state)
        before = resolution.state
    assert 20 <= table.state.last_resolved <= 40


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_an_off_board_random_match_keeps_every_invariant(seed):
    """DRTS-3 option: pieces enter by recovery, and the same invariants hold."""
    table, history = play_random_match(seed, {"start": "off_board"})
    before = RULESET.initial_state(
        RULESET.validate_config({"start": "off_board"}), SEATS, Rng(seed, 0)
    )
    for _, resolution in history:
        check_pieces(resolution.state)
        check_points(before, resolution)
        before = resolution.state
    assert table.outcome().finished


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_the_winners_are_the_seats_of_the_winning_teams(seed):
    """DRTS-20: winners = the seats of the winning team(s)."""
    table, _ = play_random_match(seed)
    outcome = table.outcome()
    assert outcome.result in (Result.WIN, Result.DRAW)
    members = sorted(
        s.number for s in table.state.seats if s.team and s.team.value in outcome.winning_teams
    )
    assert list(outcome.winners) == members


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_replaying_the_same_orders_and_seed_gives_identical_bytes(seed):
    """Determinism: the recorded orders (as JSON) and seed rebuild the match byte for byte."""
    table, history = play_random_match(seed)
    replay = Table.start(RULESET, {}, SEATS, seed)
    for sent, resolution in history:
        for seat, order in sent:
            replay.submit(seat, order)
        again = replay.close().resolution
        assert [s.to_json() for s in again.steps] == [s.to_json() for s in resolution.steps]
        assert canonical_json(RULESET.dump_state(again.state)) == canonical_json(
            RULESET.dump_state(resolution.state)
        )
    assert canonical_json(RULESET.dump_state(replay.state)) == canonical_json(
        RULESET.dump_state(table.state)
    )
