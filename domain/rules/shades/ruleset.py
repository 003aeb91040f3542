"""Shades as a Ruleset: metadata, start (SH-2, SH-8), clock (SH-4, SH-10), forfeit and view.

The other functions of the contract live in the skeleton's modules (config,
state, orders, resolve, display) and in scoring; `RULESET_V2` at the bottom
binds them. `legal_orders` is left out (None): any order that parses is
legal (SH-4 judges commands at resolution), so the legal orders of a seat
are endless, and even its valid ones number up to 5 to the power of its
shades. The game lists its valid commands shade by shade instead
(`legal_commands`), and `random_order` draws among them.

Two versions, named as every game names them (docs/rulesets.md, Versions):
`RULESET_V1` (the options of SH-5 and SH-6's normalised scoring; a contested
human's step cites SH-3) and `RULESET_V2`, the latest and the base the other is
a `replace` of (`RULESET` is the same object, the name from before versions),
which adds SH-6's sequential elimination bonus and SH-12's contested human as
options (both taken by its `contest` preset) and cites SH-12 for a
contested human. Version 1 stays registered so that its stored matches play,
replay and audit as they were recorded (docs/rulesets.md, Versions).
"""

from __future__ import annotations

from dataclasses import replace

from domain.errors import InvalidConfigError
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
from domain.rules.rng import Rng
from domain.rules.shades.config import (
    CONFIG_FIELDS,
    CONFIG_FIELDS_V2,
    PRESETS,
    PRESETS_V2,
    GameSettings,
)
from domain.rules.shades.display import display
from domain.rules.shades.orders import (
    Order,
    check_order,
    combining,
    commands_of_order,
    dump_order,
    format_order,
    legal_commands,
    order_of_commands,
    parse_order,
    random_order,
)
from domain.rules.shades.protocol import turn_message
from domain.rules.shades.resolve import resolve, resolve_phases
from domain.rules.shades.scoring import (
    award_bonus,
    end_steps,
    is_finished,
    outcome_of,
    start_score,
)
from domain.rules.shades.state import (
    MAX_SEATS,
    MIN_SEATS,
    Elimination,
    Reason,
    Seat,
    Shade,
    State,
    Tomb,
    dump_state,
    load_state,
    load_state_v1,
)

INFO_V1 = RulesetInfo(
    name="shades",
    version=1,
    title="Shades (the KSP Proboj spring 2026 bot game)",
    min_seats=MIN_SEATS,
    max_seats=MAX_SEATS,
    dynamics=Dynamics.SIMULTANEOUS,
    config_fields=CONFIG_FIELDS,
    presets=PRESETS,
    # a contest bot's reply commands every shade it moves (SH-11): a seat with a few hundred
    # shades sends tens of thousands of characters, more than the 4,096 of other games
    max_order_chars=60_000,
)
INFO = replace(INFO_V1, version=2, config_fields=CONFIG_FIELDS_V2, presets=PRESETS_V2)


def initial_state(config: Config, seats: int, rng: Rng) -> State:
    """Returns version 2's state before turn 0 (`start_state`)."""
    return start_state(GameSettings.of(RULESET_V2.validate_config(config)), seats, rng)


def initial_state_v1(config: Config, seats: int, rng: Rng) -> State:
    """Returns version 1's state before turn 0 (`start_state`)."""
    return start_state(GameSettings.of(RULESET_V1.validate_config(config)), seats, rng)


def start_state(settings: GameSettings, seats: int, rng: Rng) -> State:
    """Returns the state before turn 0: tombs assigned, a shade on each, the human cap drawn.

    SH-2: each seat gets floor(tombs / seats) of the map's tombs, drawn at
    random (`rng.sample` over the tombs in map order: seat 1 takes the first
    k drawn, seat 2 the next k, ...); tomb i and shade i share a square and an
    id; left-over tombs are plain ground. SH-8: the human cap is drawn
    uniformly from seats..3*seats. No human is on the map yet. Raises
    InvalidConfigError for a seat count outside 2..8 or a map with fewer
    tombs than seats.
    """
    check_seat_count(INFO, seats)
    squares = settings.board.tombs
    per_seat = len(squares) // seats
    if per_seat < 1:
        raise InvalidConfigError(
            f"the map has {len(squares)} tombs, fewer than the {seats} seats (SH-2: at least "
            "one tomb a seat)"
        )
    drawn = rng.sample(squares, per_seat * seats)
    tombs = tuple(Tomb(i + 1, i // per_seat + 1, x, y) for i, (x, y) in enumerate(drawn))
    shades = tuple(Shade(tomb.id, tomb.owner, tomb.x, tomb.y) for tomb in tombs)
    score = start_score(settings, per_seat)
    return State(
        settings=settings,
        turn=0,
        human_cap=rng.between(seats, 3 * seats),
        seats=tuple(Seat(n, score=score) for n in range(1, seats + 1)),
        tombs=tombs,
        shades=shades,
        next_shade=len(shades) + 1,
    )


def setup_steps(state: State) -> tuple[Step, ...]:
    """Returns the steps that record the start's random draws: each seat's tombs (SH-2) and
    the human cap (SH-8), read from the initial state they made."""
    per_seat = {
        seat.number: [t for t in state.tombs if t.owner == seat.number] for seat in state.seats
    }
    tombs = "; ".join(
        f"seat {seat}: " + ", ".join(f"tomb {t.id} at ({t.x},{t.y})" for t in owned)
        for seat, owned in per_seat.items()
    )
    drawn: dict[str, JSON] = {
        str(seat): [[t.id, t.x, t.y] for t in owned] for seat, owned in per_seat.items()
    }
    seats = len(state.seats)
    return (
        Step("SH-2", f"tombs drawn at random, a shade on each: {tombs}", {"tombs": drawn}),
        Step(
            "SH-8",
            f"human cap drawn at random from {seats}..{3 * seats}: {state.human_cap}",
            {"human_cap": state.human_cap},
        ),
    )


def to_move(state: State) -> ToMove:
    """Returns every seat still alive, while the match goes on (none once it is over).

    All seats order at once; a turn lasts `turn_seconds` and closes as soon
    as every seat alive has ordered (SH-10); a seat silent at the deadline is
    eliminated (SH-4, `Silence.ELIMINATION`).
    """
    policy = MovementPolicy(
        deadline_seconds=state.settings.turn_seconds,
        silence=Silence.ELIMINATION,
        close_early=True,
    )
    if is_finished(state):
        return ToMove((), policy)
    return ToMove(state.alive, policy)


def forfeit(state: State, seat: int) -> tuple[State, tuple[Step, ...]]:
    """Returns the state with `seat` eliminated in the open turn, and the steps saying so.

    SH-4: a seat with no valid reply by the deadline is eliminated before the
    turn resolves; its shades and tombs stay (SH-7), and its elimination pays
    the survivors of the turn (SH-6) when the turn ends, or at once when this
    forfeit ends the match (SH-9). Forfeiting an eliminated seat changes
    nothing. UnknownSeatError for a seat that does not exist.
    """
    check_seat_number(INFO.name, seat, len(state.seats))
    if not state.seat(seat).alive or is_finished(state):
        return state, ()
    out = replace(state.seat(seat), eliminated=Elimination(state.turn, Reason.FORFEIT))
    seats = tuple(out if s.number == seat else s for s in state.seats)
    after = replace(state, seats=seats)
    text = (
        f"Seat {seat} sent no valid reply by the deadline of turn {state.turn}: eliminated; "
        "its shades and tombs stay in play (SH-4, SH-7)"
    )
    steps: tuple[Step, ...] = (Step("SH-4", text, {"seat": seat, "reason": "forfeit"}),)
    if is_finished(after):
        after, bonus = award_bonus(after)
        steps += bonus + end_steps(after)
    return after, steps


def view(state: State, seat: int | None) -> JSON:
    """Returns what `seat` sees: the protocol's per-turn message its bot reads (SH-11); a
    spectator (None) sees the whole state JSON, as nothing in it is secret."""
    if seat is None:
        return dump_state(state)
    return turn_message(state, seat)


RULESET_V2: Ruleset[State, Order] = Ruleset(
    info=INFO,
    initial_state=initial_state,
    to_move=to_move,
    parse_order=parse_order,
    format_order=format_order,
    dump_order=dump_order,
    check_order=check_order,
    resolve=resolve,
    forfeit=forfeit,
    outcome=outcome_of,
    view=view,
    dump_state=dump_state,
    load_state=load_state,
    random_order=random_order,
    legal_commands=legal_commands,
    order_of_commands=order_of_commands,
    commands_of_order=commands_of_order,
    combining=combining,
    display=display,
    resolve_phases=resolve_phases,
    setup_steps=setup_steps,
)

RULESET = RULESET_V2  # the name from before versions: the latest

RULESET_V1: Ruleset[State, Order] = replace(
    RULESET_V2, info=INFO_V1, initial_state=initial_state_v1, load_state=load_state_v1
)
