"""How many rounds a Swiss field is sure to pair (service/pairing/swiss.py, `max_rounds`
and `check_field`): ceil(n / 2) by Dirac's theorem, tight for 6 players, and every field
of 2 to 14 pairs that many rounds under each result rule tried."""

from __future__ import annotations

import hashlib

import pytest

from service.pairing import swiss
from service.pairing.history import History, RoundRecord
from service.pairing.result import PairingError
from tests.support.tournaments import SEED, Rule, game, played, players


def _reverse(history: History) -> Rule:
    number = {player: index for index, player in enumerate(history.players)}
    return lambda table: {p: sorted(table, key=lambda q: -number[q]).index(p) + 1 for p in table}


def _hashed(history: History) -> Rule:
    """Returns a rule: the lower SHA-256 of round and player wins (an arbitrary but fixed
    upset pattern)."""

    def key(player: str) -> str:
        return hashlib.sha256(f"{history.next_round}:{player}".encode()).hexdigest()

    return lambda table: {p: sorted(table, key=key).index(p) + 1 for p in table}


@pytest.mark.parametrize("count", range(2, 15))
@pytest.mark.parametrize("rule", [None, _reverse, _hashed])
def test_a_field_pairs_every_round_up_to_its_bound(count, rule) -> None:  # type: ignore[no-untyped-def]
    """Rule 1 never fails within max_rounds(n) = ceil(n / 2) rounds, whoever wins."""
    history = History(players(count), SEED)
    for _ in range(swiss.max_rounds(count)):
        history = played(history, swiss.pair(history), rule and rule(history))
    met = [frozenset(t) for record in history.rounds for t in record.tables]
    assert len(met) == len(set(met))


def test_the_bound_is_tight_for_six_players() -> None:
    """Three rounds of ann-bo-cy against di-ed-fy leave two triangles unmet: round 4 of 6
    (past max_rounds(6) = 3) cannot be paired without a repeat."""
    top, bottom = ("p1", "p2", "p3"), ("p4", "p5", "p6")
    history = History(players(6), SEED)
    for shift in range(3):
        tables = tuple((top[i], bottom[(i + shift) % 3]) for i in range(3))
        record = RoundRecord(
            shift + 1, tables, (), tuple((game(t, {t[0]: 1, t[1]: 2}),) for t in tables)
        )
        history = History(history.players, SEED, (*history.rounds, record))
    assert swiss.max_rounds(6) == 3
    with pytest.raises(PairingError, match="round 4 cannot be paired without a repeat"):
        swiss.pair(history)


@pytest.mark.parametrize(("count", "bound"), [(2, 1), (3, 2), (8, 4), (9, 5), (10, 5)])
def test_the_bound_is_half_the_field_rounded_up(count: int, bound: int) -> None:
    assert swiss.max_rounds(count) == bound
    swiss.check_field(count, bound)
    swiss.check_field(count, None)  # ceil(log2 n) rounds: always within the bound


def test_a_swiss_planned_past_its_bound_is_refused_naming_the_players_it_needs() -> None:
    with pytest.raises(swiss.FieldTooSmallError, match="6 rounds needs at least 11 players"):
        swiss.check_field(9, 6)
    assert swiss.FieldTooSmallError.code == "field_too_small"
