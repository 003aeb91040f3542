"""District War (`district_war`): two seats place troops on a 7x7 board of 11 districts.

Source text: rules/district_war.txt, with the rulings DW-1..DW-6 of
rules/DECISIONS.md; docs/games/district_war.md says how they are applied.

- DW-1 the board is config data (board.py);
- DW-2 the DMO seat first chooses who places first (movement 1; silence:
  the DMO places second, no strike);
- DW-3 where each troop may go (placement.py);
- DW-4 districts score their size to a strict majority; DW-5 ties are broken
  size by size, else the match is drawn (scoring.py);
- DW-6 the clock: every placement is a movement with Silence.STRIKE; the
  Table gives the strikes and extensions and calls `forfeit` at the last one.

Nothing is hidden and nothing is random: `view` shows the whole state and
`resolve` draws nothing from its Rng.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from domain.errors import IllegalOrderError, InvalidConfigError, MovementClosedError
from domain.rules.contract import (
    JSON,
    Config,
    Dynamics,
    MovementPolicy,
    Ruleset,
    RulesetInfo,
    Silence,
    Step,
    Steps,
    ToMove,
)
from domain.rules.district_war.config import CONFIG_FIELDS, settings_of, validate_config
from domain.rules.district_war.orders import (
    ChooseFirst,
    Order,
    Place,
    dump_order,
    format_order,
    parse_order,
)
from domain.rules.district_war.placement import allowed_cells, check_placement
from domain.rules.district_war.scoring import final_steps, outcome
from domain.rules.district_war.state import (
    SEATS,
    State,
    dump_state,
    is_over,
    load_state,
    opponent,
    seat_to_act,
    with_placement,
)
from domain.rules.rng import Rng

INFO = RulesetInfo(
    name="district_war",
    version=1,
    title="District War",
    min_seats=2,
    max_seats=2,
    dynamics=Dynamics.SEQUENTIAL,
    config_fields=CONFIG_FIELDS,
)

__all__ = ["INFO", "RULESET", "ChooseFirst", "Order", "Place", "State"]


def initial_state(config: Config, seats: int, rng: Rng) -> State:
    """Returns the empty board awaiting the DMO's choice (DW-2); exactly 2 seats."""
    if seats != len(SEATS):
        raise InvalidConfigError(f"District War is played by exactly 2 seats, not {seats}")
    return State(settings_of(validate_config(config)))


def to_move(state: State) -> ToMove:
    """Returns the seat owing an order and its clock (DW-2 for the choice, DW-6 for placements)."""
    settings = state.settings
    seat = seat_to_act(state)
    seats = () if seat is None else (seat,)
    if state.first is None:
        # DW-2: a DMO silent past the placement time limit places second, with no strike.
        return ToMove(seats, MovementPolicy(settings.placement_seconds, Silence.PASS, True))
    policy = MovementPolicy(
        deadline_seconds=settings.placement_seconds,
        silence=Silence.STRIKE,  # DW-6
        close_early=True,
        extension_seconds=settings.extension_seconds,
        max_strikes=settings.max_strikes,
    )
    return ToMove(seats, policy)


def check_order(state: State, seat: int, order: Order) -> None:
    """Raises IllegalOrderError unless `seat` may give `order` now, saying why."""
    acting = seat_to_act(state)
    if acting is None:
        raise IllegalOrderError(f"the match is finished; seat {seat} has nothing to order")
    if seat != acting:
        raise IllegalOrderError(f"not your turn: seat {acting} is to {_duty(state)}")
    if state.first is None and not isinstance(order, ChooseFirst):
        raise IllegalOrderError(
            f"seat {seat} (the DMO) must first choose who places first, e.g. 'first 1' (DW-2)"
        )
    if isinstance(order, ChooseFirst) and state.first is not None:
        raise IllegalOrderError(f"seat {state.first} was already chosen to place first (DW-2)")
    if isinstance(order, Place):
        check_placement(state, order.cell)


def resolve(state: State, orders: Sequence[tuple[int, Order]], rng: Rng) -> tuple[State, Steps]:
    """Returns the state after the seat to act's order, or its silence, and the steps.

    `orders` holds at most the one order of the seat to act (the Table
    replaces a seat's earlier order, OrderPolicy.REPLACE). A silent DMO
    places second (DW-2); a silent placer changes nothing (its strikes are
    the Table's, DW-6).
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


def forfeit(state: State, seat: int) -> tuple[State, Steps]:
    """Returns the state with `seat` out of the match: the other seat wins (DW-6)."""
    if seat not in SEATS:
        raise IllegalOrderError(f"no seat {seat} in District War (seats 1 and 2)")
    if is_over(state):
        raise MovementClosedError(f"the match is finished; seat {seat} cannot forfeit it")
    text = f"seat {seat} forfeits the match (strike {state.settings.max_strikes} loses)"
    step = Step("DW-6", f"{text}; seat {opponent(seat)} wins", {"seat": seat})
    return replace(state, forfeited=seat), (step,)


def view(state: State, seat: int | None) -> JSON:
    """Returns the whole dumped state: District War hides nothing from seats or spectators."""
    return dump_state(state)


def random_order(state: State, seat: int, rng: Rng) -> Order:
    """Returns a uniformly random legal order; raises IllegalOrderError if `seat` owes none."""
    acting = seat_to_act(state)
    if seat != acting:
        raise IllegalOrderError(f"seat {seat} owes no order now (seat to act: {acting})")
    if state.first is None:
        return ChooseFirst(rng.choice(SEATS))
    return Place(rng.choice(allowed_cells(state)[1]))


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


def _duty(state: State) -> str:
    return "choose who places first (DW-2)" if state.first is None else "place a troop"


RULESET: Ruleset[State, Order] = Ruleset(
    info=INFO,
    validate_config=validate_config,
    initial_state=initial_state,
    to_move=to_move,
    parse_order=parse_order,
    format_order=format_order,
    dump_order=dump_order,
    check_order=check_order,
    resolve=resolve,
    forfeit=forfeit,
    outcome=outcome,
    view=view,
    dump_state=dump_state,
    load_state=load_state,
    random_order=random_order,
)
