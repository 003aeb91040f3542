"""DRTS Team 23 as a Ruleset: metadata, start, clock, forfeit and view, in two versions.

The other functions of the contract live in the skeleton's modules (config,
state, orders, resolve, display) and in scoring; `RULESET_V1` (no items,
orders replaced whole) and `RULESET_V2` (items, orders merged per piece and
screened operation by operation: `*_v2` modules, `merge`) at the bottom bind
them. `RULESET` is version 1, kept for the code that names it.
"""

from __future__ import annotations

from dataclasses import replace

from domain.rules.contract import (
    JSON,
    Config,
    Dynamics,
    MovementPolicy,
    OrderPolicy,
    Ruleset,
    RulesetInfo,
    Silence,
    Step,
    ToMove,
    check_seat_count,
    check_seat_number,
)
from domain.rules.drts_team23.board import start_squares
from domain.rules.drts_team23.commands import (
    combining,
    combining_v2,
    command_note,
    command_spends,
    commands_of_order,
    legal_commands,
    legal_commands_v2,
    order_of_commands,
)
from domain.rules.drts_team23.config import (
    CONFIG_FIELDS,
    CONFIG_FIELDS_V2,
    PRESETS,
    GameSettings,
    Start,
    check_config,
)
from domain.rules.drts_team23.display import display, display_v2
from domain.rules.drts_team23.merge import merge_orders, screen_order
from domain.rules.drts_team23.orders import (
    Order,
    check_order,
    dump_order,
    format_order,
    legal_orders,
    parse_order,
    random_order,
)
from domain.rules.drts_team23.orders_v2 import (
    check_order_v2,
    dump_order_v2,
    format_order_v2,
    parse_order_v2,
    random_order_v2,
)
from domain.rules.drts_team23.resolve import resolve, resolve_phases
from domain.rules.drts_team23.resolve_v2 import resolve_phases_v2, resolve_v2
from domain.rules.drts_team23.scoring import is_finished, outcome
from domain.rules.drts_team23.state import KINDS, SEATS, Piece, Seat, State, dump_state, load_state
from domain.rules.drts_team23.state_v2 import dump_state_v2, load_state_v2
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


INFO_V2 = replace(
    INFO,
    version=2,
    title="DRTS Team 23",
    config_fields=CONFIG_FIELDS_V2,
    order_policy=OrderPolicy.MERGE,
)


def initial_state(config: Config, seats: int, rng: Rng) -> State:
    """Returns the state before movement 1: 8 teamless seats, pieces per DRTS-3 (or off-board).

    Raises InvalidConfigError unless there are exactly 8 seats. `rng` is not
    used: the start is fixed.
    """
    return _initial_state(RULESET_V1.validate_config(config), seats, rng)


def initial_state_v2(config: Config, seats: int, rng: Rng) -> State:
    """Returns version 2's state before movement 1: version 1's, with the v2 config."""
    return _initial_state(RULESET_V2.validate_config(config), seats, rng)


def _initial_state(config: Config, seats: int, rng: Rng) -> State:
    del rng
    check_seat_count(INFO, seats)
    settings = GameSettings.of(config)
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


def view_v2(state: State, seat: int | None) -> JSON:
    """Returns what anyone sees in version 2: the whole state JSON (nothing is secret)."""
    del seat
    return dump_state_v2(state)


RULESET_V1: Ruleset[State, Order] = Ruleset(
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
    check_config=check_config,
    legal_orders=legal_orders,
    legal_commands=legal_commands,
    order_of_commands=order_of_commands,
    commands_of_order=commands_of_order,
    combining=combining,
    command_note=command_note,
    display=display,
    resolve_phases=resolve_phases,
)

RULESET = RULESET_V1

RULESET_V2: Ruleset[State, Order] = replace(
    RULESET_V1,
    info=INFO_V2,
    initial_state=initial_state_v2,
    parse_order=parse_order_v2,
    format_order=format_order_v2,
    dump_order=dump_order_v2,
    check_order=check_order_v2,
    resolve=resolve_v2,
    view=view_v2,
    dump_state=dump_state_v2,
    load_state=load_state_v2,
    random_order=random_order_v2,
    legal_orders=None,  # items multiply the orders past listing (docs/games/drts_team23.md)
    legal_commands=legal_commands_v2,  # listed piece by piece instead (issue 48)
    combining=combining_v2,
    command_spends=command_spends,
    display=display_v2,
    resolve_phases=resolve_phases_v2,
    merge_orders=merge_orders,
    screen_order=screen_order,
)
