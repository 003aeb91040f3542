"""Dris et-Tessa as a Ruleset: metadata, start, clock, forfeit and view; `RULESET` binds them.

Source texts: the Ludii ruleset titled "Dris et-Tessa (Ludii 4)", its rules
summary and its game description, with the rulings DT-1..DT-6;
docs/games/dris_et_tessa.md says how they are applied.

- DT-1 the board (board.py);
- DT-2 placement then movement, per seat (engine.py, checked in orders.py);
- DT-3 a mill gives one removal in the same turn; DT-4 which piece it may
  take (engine.py, orders.py, resolve.py);
- DT-5 the win at the end of a turn; DT-6 the service's draw (outcome.py).

Sequential: each turn is one movement for the seat to move, its clock set by
the config (`turn_seconds`; `timeout` loss or strike). Nothing is hidden and
nothing is random.
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
from domain.rules.dris_et_tessa.config import CONFIG_FIELDS, PRESETS, settings_of
from domain.rules.dris_et_tessa.display import display
from domain.rules.dris_et_tessa.orders import (
    Order,
    check_order,
    dump_order,
    format_order,
    legal_orders,
    parse_order,
    random_order,
)
from domain.rules.dris_et_tessa.outcome import is_over, outcome
from domain.rules.dris_et_tessa.resolve import resolve
from domain.rules.dris_et_tessa.state import SEATS, State, dump_state, load_state, opponent
from domain.rules.rng import Rng

INFO = RulesetInfo(
    name="dris_et_tessa",
    version=1,
    title="Dris et-Tessa (Ludii 4)",
    min_seats=2,
    max_seats=2,
    dynamics=Dynamics.SEQUENTIAL,
    config_fields=CONFIG_FIELDS,
    presets=PRESETS,
)


def initial_state(config: Config, seats: int, rng: Rng) -> State:
    """Returns the empty board, 9 pieces in each hand, seat 1 to place (DT-2); exactly 2 seats."""
    check_seat_count(INFO, seats)
    return State(settings_of(RULESET.validate_config(config)))


def to_move(state: State) -> ToMove:
    """Returns the seat whose turn it is and its clock: `turn_seconds`, closing as soon as the
    order arrives; silence loses the match or strikes, as the config says."""
    settings = state.settings
    seats = () if is_over(state) else (state.position.mover,)
    if settings.timeout == "loss":
        return ToMove(seats, MovementPolicy(settings.turn_seconds, Silence.LOSS, True))
    policy = MovementPolicy(
        deadline_seconds=settings.turn_seconds,
        silence=Silence.STRIKE,
        close_early=True,
        extension_seconds=settings.extension_seconds,
        max_strikes=settings.max_strikes,
    )
    return ToMove(seats, policy)


def forfeit(state: State, seat: int) -> tuple[State, Steps]:
    """Returns the state with `seat` out of the match: the other seat wins.

    UnknownSeatError for a seat other than 1 and 2; MovementClosedError once
    the match is finished.
    """
    check_seat_number(INFO.name, seat, len(SEATS))
    if is_over(state):
        raise MovementClosedError(f"the match is finished; seat {seat} cannot forfeit it")
    text = f"seat {seat} forfeits the match; seat {opponent(seat)} wins"
    return replace(state, forfeited=seat), (Step("forfeit", text, {"seat": seat}),)


def view(state: State, seat: int | None) -> JSON:
    """Returns the whole dumped state: Dris et-Tessa hides nothing from seats or spectators."""
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
