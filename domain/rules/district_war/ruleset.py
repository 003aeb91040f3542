"""District War as a Ruleset: metadata, start, clock, forfeit and view; `RULESET` binds them.

Source text: rules/district_war.txt, with the rulings DW-1..DW-6 of
rules/DECISIONS.md; docs/games/district_war.md says how they are applied.

- DW-1 the board is config data (board.py, config.py);
- DW-2 the DMO seat first chooses who places first (movement 1; silence:
  the DMO places second, no strike);
- DW-3 where each troop may go (placement.py, checked in orders.py);
- DW-4 districts score their size to a strict majority; DW-5 ties are broken
  size by size, else the match is drawn (scoring.py);
- DW-6 the clock: every placement is a movement with Silence.STRIKE; the
  Table gives the strikes and extensions and calls `forfeit` at the last one.

Nothing is hidden and nothing is random: `view` shows the whole state and
`resolve` draws nothing from its Rng.
"""

from __future__ import annotations

from dataclasses import replace

from domain.errors import MovementClosedError
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
    check_seat_count,
    check_seat_number,
)
from domain.rules.district_war.config import CONFIG_FIELDS, PRESETS, settings_of
from domain.rules.district_war.display import display
from domain.rules.district_war.orders import (
    Order,
    check_order,
    dump_order,
    format_order,
    legal_orders,
    parse_order,
    random_order,
)
from domain.rules.district_war.resolve import resolve
from domain.rules.district_war.scoring import outcome
from domain.rules.district_war.state import (
    SEATS,
    State,
    dump_state,
    is_over,
    load_state,
    opponent,
    seat_to_act,
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
    presets=PRESETS,
)


def initial_state(config: Config, seats: int, rng: Rng) -> State:
    """Returns the empty board awaiting the DMO's choice (DW-2); exactly 2 seats."""
    check_seat_count(INFO, seats)
    return State(settings_of(RULESET.validate_config(config)))


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


def forfeit(state: State, seat: int) -> tuple[State, Steps]:
    """Returns the state with `seat` out of the match: the other seat wins (DW-6).

    UnknownSeatError for a seat other than 1 and 2; MovementClosedError once
    the match is finished.
    """
    check_seat_number(INFO.name, seat, len(SEATS))
    if is_over(state):
        raise MovementClosedError(f"the match is finished; seat {seat} cannot forfeit it")
    text = f"seat {seat} forfeits the match (strike {state.settings.max_strikes} loses)"
    step = Step("DW-6", f"{text}; seat {opponent(seat)} wins", {"seat": seat})
    return replace(state, forfeited=seat), (step,)


def view(state: State, seat: int | None) -> JSON:
    """Returns the whole dumped state: District War hides nothing from seats or spectators."""
    return dump_state(state)


RULESET: Ruleset[State, Order] = Ruleset(
    info=INFO,
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
    view_is_state=True,  # nothing in the state is secret (view above)
    dump_state=dump_state,
    load_state=load_state,
    random_order=random_order,
    legal_orders=legal_orders,
    display=display,
)
