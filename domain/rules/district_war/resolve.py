"""Resolution of one District War movement: the DMO's choice (DW-2) or a placement (DW-3),
and at the last troop the scoring steps (DW-4, DW-5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from domain.rules.contract import JSON, Step, Steps
from domain.rules.district_war.orders import ChooseFirst, Order, Place, check_order
from domain.rules.district_war.placement import check_placement
from domain.rules.district_war.scoring import final_steps
from domain.rules.district_war.state import State, is_over, opponent, with_placement
from domain.rules.rng import Rng


def resolve(state: State, orders: Sequence[tuple[int, Order]], rng: Rng) -> tuple[State, Steps]:
    """Returns the state after the seat to act's order, or its silence, and the steps.

    `orders` holds at most the one order of the seat to act (the Table
    replaces a seat's earlier order, OrderPolicy.REPLACE). A silent DMO
    places second (DW-2); a silent placer changes nothing (its strikes are
    the Table's, DW-6). Nothing is random: `rng` is not used.
    """
    for seat, order in orders:
        check_order(state, seat, order)
    if state.first is None and not is_over(state):
        chosen = orders[0][1] if orders else None
        return _choose(state, chosen)
    if not orders:
        return state, ()
    seat, order = orders[0]
    assert isinstance(order, Place)  # check_order allows nothing else now
    return _place(state, seat, order.cell)


def _choose(state: State, order: Order | None) -> tuple[State, Steps]:
    dmo = state.settings.dmo
    if isinstance(order, ChooseFirst):
        text = f"seat {dmo} (the DMO) chooses seat {order.seat} to place first"
        data: dict[str, JSON] = {"dmo": dmo, "first": order.seat, "chosen": True}
        return replace(state, first=order.seat), (Step("DW-2", text, data),)
    first = opponent(dmo)
    text = f"seat {dmo} (the DMO) did not choose in time: seat {first} places first, the DMO second"
    data = {"dmo": dmo, "first": first, "chosen": False}
    return replace(state, first=first), (Step("DW-2", text, data),)


def _place(state: State, seat: int, cell: str) -> tuple[State, Steps]:
    clause = check_placement(state, cell)
    district = state.settings.board.district(cell)
    after = with_placement(state, cell)
    data = {"seat": seat, "cell": cell, "district": district, "clause": clause.name.lower()}
    text = f"seat {seat} places a troop on {cell} (district {district}; {clause})"
    step = Step("DW-3", text, data)
    return after, (step, *(final_steps(after) if is_over(after) else ()))
