"""DRTS Team 23 as a Ruleset: metadata, start, clock, forfeit and view.

The other functions of the contract live in the skeleton's modules (config,
state, orders, resolve, display) and in scoring; `RULESET` at the bottom
binds them.
"""

from __future__ import annotations

from dataclasses import replace

from domain.rules.contract import (
    JSON,
    Config,
    Dynamics,
    MovementPolicy,
    Ruleset,
    RulesetInfo,
    Silence,
    Step,
    ToMove,
    check_seat_count,
    check_seat_number,
)
from domain.rules.drts_team23.board import start_squares
from domain.rules.drts_team23.config import (
    CONFIG_FIELDS,
    PRESETS,
    GameSettings,
    Start,
    check_config,
)
from domain.rules.drts_team23.display import display
from domain.rules.drts_team23.orders import (
    Order,
    check_order,
    dump_order,
    format_order,
    legal_orders,
    parse_order,
    random_order,
)
from domain.rules.drts_team23.resolve import resolve, resolve_phases
from domain.rules.drts_team23.scoring import is_finished, outcome
from domain.rules.drts_team23.state import KINDS, SEATS, Piece, Seat, State, dump_state, load_state
from domain.rules.rng import Rng

INFO = RulesetInfo(
    name="drts_team23",
    version=1,
    title="DRTS Team 23 (without items)",
    min_seats=SEATS,
    max_seats=SEATS,
    dynamics=Dynamics.SIMULTANEOUS,
    config_fields=CONFIG_FIELDS,
    presets=PRESETS,
)


def initial_state(config: Config, seats: int, rng: Rng) -> State:
    """Returns the state before movement 1: 8 teamless seats, pieces per DRTS-3 (or off-board).

    Raises InvalidConfigError unless there are exactly 8 seats. `rng` is not
    used: the start is fixed.
    """
    del rng
    check_seat_count(INFO, seats)
    settings = GameSettings.of(RULESET.validate_config(config))
    pieces = []
    for seat in range(1, SEATS + 1):
        for kind, square in zip(KINDS, start_squares(seat), strict=True):
            if settings.start is Start.ON_BOARD:
                pieces.append(Piece(seat, kind, square))
            else:  # DRTS-3 option: enter by recovery, from movement 1 on
                pieces.append(Piece(seat, kind, None, 1))
    return State(settings, 1, tuple(Seat(n) for n in range(1, SEATS + 1)), tuple(pieces))


def to_move(state: State) -> ToMove:
    """Returns every seat that has not forfeited, while the match goes on (none once finished).

    All seats order at once; a movement lasts `movement_seconds`, closes
    early only if the config says so (DRTS-2), and silence holds (DRTS-22).
    """
    settings = state.settings
    policy = MovementPolicy(
        deadline_seconds=settings.movement_seconds,
        silence=Silence.HOLD,
        close_early=settings.close_early,
    )
    if is_finished(state):
        return ToMove((), policy)
    return ToMove(tuple(seat.number for seat in state.seats if not seat.forfeited), policy)


def forfeit(state: State, seat: int) -> tuple[State, tuple[Step, ...]]:
    """Returns the state with `seat` out of the match, and the step saying so.

    The game's policy never forfeits (silence holds, DRTS-22); when a referee
    does, the seat owes no more orders, and it stays as if silent for good:
    its pieces stay on the board and hold, it keeps its score and team (or is
    placed at movement 6 like any teamless seat), and it shares its team's
    win. Forfeiting a seat twice changes nothing. UnknownSeatError for a seat
    that does not exist.
    """
    check_seat_number(INFO.name, seat, SEATS)
    if state.seat(seat).forfeited:
        return state, ()
    seats = tuple(replace(s, forfeited=True) if s.number == seat else s for s in state.seats)
    text = f"Seat {seat} forfeits: it sends no more orders and its pieces hold from now on"
    return replace(state, seats=seats), (Step("DRTS-22", text, {"seat": seat}),)


def view(state: State, seat: int | None) -> JSON:
    """Returns what `seat` (or a spectator, None) sees: the whole state JSON.

    The state holds no secret: the orders of the open movement are kept by
    the Table and the Match aggregate, outside the state, until it resolves.
    """
    del seat
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
    dump_state=dump_state,
    load_state=load_state,
    random_order=random_order,
    check_config=check_config,
    legal_orders=legal_orders,
    display=display,
    resolve_phases=resolve_phases,
)
