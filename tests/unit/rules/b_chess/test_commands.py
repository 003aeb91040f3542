"""B-Chess's per-object commands (`legal_commands`, issue 48): each object's targets on the
Field as it stands (BC-8), the purchase while affordable (BC-6, BC-9), and the combining
rule: one action an object, purchases while macks last (BC-3, BC-6)."""

from __future__ import annotations

from domain.rules.b_chess import RULESET
from domain.rules.b_chess.commands import PURCHASE, affordable_purchases
from domain.rules.b_chess.orders import MoveAction, Order, PurchaseAction
from tests.unit.rules.b_chess.support import position


def targets(listed, piece: str) -> set[tuple[int, int]]:
    return {action.to for action in listed[piece]}


def test_bc_8_a_slide_stops_before_an_object_and_never_lands_on_an_own_one():
    """BC-8: Rook R3 on 5,5 slides 1..8 squares orthogonally through empty squares only;
    its own King on 5,7 stops it at 5,6; the enemy Pawn on 2,5 is taken, not passed."""
    state = position(
        [("K1", 1, 5, 7), ("K2", 2, 15, 15), ("R3", 1, 5, 5), ("P4", 2, 2, 5)], torus=False
    )
    rook = targets(RULESET.legal_commands(state, 1), "R3")
    assert (5, 6) in rook and (5, 7) not in rook and (5, 8) not in rook
    assert (2, 5) in rook and (1, 5) not in rook
    assert {(5, c) for c in range(0, 5)} <= rook and (13, 5) in rook and (14, 5) not in rook


def test_bc_8_a_pawn_steps_straight_to_an_empty_square_and_takes_diagonally():
    """BC-8: Pawn P3 on 5,5: the enemy King on 4,5 blocks its step north, the enemy Pawn on
    6,6 may be taken, the empty diagonals may not be stepped to."""
    state = position(
        [("K1", 1, 10, 10), ("K2", 2, 4, 5), ("P3", 1, 5, 5), ("P4", 2, 6, 6)], torus=False
    )
    assert targets(RULESET.legal_commands(state, 1), "P3") == {(5, 4), (5, 6), (6, 5), (6, 6)}


def test_bc_6_bc_9_purchases_are_listed_while_affordable_and_only_with_a_king():
    """BC-6: the n-th purchase of a Turn costs 10 x (n - 1): 50 macks pay for 3 (0 + 10 +
    20), 9 macks for 1; BC-9: a seat without its King purchases nothing."""
    state = position([("K1", 1, 5, 5), ("K2", 2, 15, 15)])
    assert RULESET.legal_commands(state, 1)[PURCHASE] == (PurchaseAction(),)
    assert RULESET.combining_of(state, 1).repeats == {PURCHASE: 3}
    assert affordable_purchases(position([("K1", 1, 5, 5)], macks=9), 1) == 1
    kingless = position([("K2", 2, 15, 15), ("Q3", 1, 5, 5)])
    assert PURCHASE not in RULESET.legal_commands(kingless, 1)
    assert RULESET.combining_of(kingless, 1).repeats == {}


def test_bc_3_one_action_an_object_and_no_snapshot():
    """BC-3: an object carries out at most one order a Turn; the objects act one after
    another, so a listed target may be taken first (no snapshot)."""
    state = position([("K1", 1, 5, 5), ("K2", 2, 15, 15)])
    rule = RULESET.combining_of(state, 1)
    assert rule.snapshot is False
    one, two = RULESET.legal_commands(state, 1)["K1"][:2]
    assert RULESET.combination_fault(state, 1, [one, PurchaseAction()]) == ""
    assert "commanded 2 times" in RULESET.combination_fault(state, 1, [one, two])
    assert RULESET.combination_fault(state, 1, [PurchaseAction()] * 4)
    assert MoveAction("K1", (9, 9)) not in RULESET.legal_commands(state, 1)["K1"]


def test_bc_6_bc_3_over_standing_orders_purchases_and_macks_are_what_is_left():
    """BC-6: the purchases sent earlier this Turn come first and count: after two (0 + 10
    macks) the 50 macks pay for one more (20) and 40 are left; after three none more is
    paid for (30 > 20), so the rule allows no purchase; BC-3: an object the standing orders
    already command is `ordered` (a further action of it is tried only if that one fails)."""
    state = position([("K1", 1, 5, 5), ("K2", 2, 15, 15)])
    king = RULESET.legal_commands(state, 1)["K1"][0]
    two = [Order((king, PurchaseAction())), Order((PurchaseAction(),))]
    rule = RULESET.combining_of(state, 1, two)
    assert (rule.repeats, rule.stock, rule.ordered) == ({PURCHASE: 1}, {"macks": 40}, {"K1": {}})
    assert RULESET.combination_fault(state, 1, [PurchaseAction()], two) == ""
    assert "commanded 2 times" in RULESET.combination_fault(state, 1, [PurchaseAction()] * 2, two)
    three = [*two, Order((PurchaseAction(),))]
    spent = RULESET.combining_of(state, 1, three)
    assert (spent.repeats, spent.stock) == ({PURCHASE: 0}, {"macks": 20})
    assert RULESET.combination_fault(state, 1, [PurchaseAction()], three)
