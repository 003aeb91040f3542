"""Resolution of one Shades turn, phase by phase in the order of SH-3.

1. moves: every command at once against the turn's snapshot (SH-1, SH-3, SH-4) - `moves`;
2. collisions: every shade on a shared square dies (SH-3) - `moves.collide`;
3. attack: the fear rule, all at once (SH-3, SH-7) - `combat.attack`;
4. razing (SH-5, SH-6) - `combat.raze`;
5. spawning from stored humans on shuffled free tombs (SH-3) - `humans.spawn`;
6. conversion, contested humans lost (SH-3) - `humans.convert`;
7. births (SH-8) - `humans.births`;
8. elimination and its bonus (SH-6, SH-7) - `scoring.eliminations`;
9. end of the turn: the next one opens, or the match ends (SH-9).

`resolve_phases` reports the state after each; `resolve` is its last state
and all its steps. The turn's Rng is drawn from in phases 5 and 7 only, in
that order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from domain.rules.contract import Phase, Step, resolution_of
from domain.rules.rng import Rng
from domain.rules.shades.combat import attack, raze
from domain.rules.shades.humans import births, convert, spawn
from domain.rules.shades.moves import collide, move_shades
from domain.rules.shades.orders import Order, check_order
from domain.rules.shades.scoring import eliminations, end_steps, is_finished
from domain.rules.shades.state import State

PHASES = (
    "moves: every command at once (SH-1, SH-3, SH-4)",
    "collisions (SH-3)",
    "attack: the fear rule (SH-3)",
    "razing (SH-5)",
    "spawning (SH-3)",
    "conversion (SH-3)",
    "births (SH-8)",
    "elimination and its bonus (SH-6, SH-7)",
    "end of the turn (SH-9)",
)
FINISHED = "the match is finished: nothing happens"


def resolve(
    state: State, orders: Sequence[tuple[int, Order]], rng: Rng
) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after the open turn and the steps that explain it.

    `orders` lists (seat, order) in arrival order, one a seat at most (the
    Table keeps a seat's last order, OrderPolicy.REPLACE); a seat missing
    from it sent nothing, and its shades stay. Each order's seat is checked
    again (IllegalOrderError for an eliminated seat, or once the match is
    finished). A finished match resolves to itself, with no step.
    """
    return resolution_of(resolve_phases(state, orders, rng))


def resolve_phases(
    state: State, orders: Sequence[tuple[int, Order]], rng: Rng
) -> tuple[Phase[State], ...]:
    """Returns the nine phases of `resolve`, in the order of SH-3 (one phase, FINISHED,
    changing nothing, for a finished match). IllegalOrderError as for `resolve`."""
    for seat, order in orders:
        check_order(state, seat, order)
    if is_finished(state):
        return (Phase(FINISHED, state),)
    work: tuple[Callable[[State], tuple[State, Sequence[Step]]], ...] = (
        lambda s: move_shades(s, orders),
        collide,
        attack,
        raze,
        lambda s: spawn(s, rng),
        convert,
        lambda s: births(s, rng),
        eliminations,
        _end_turn,
    )
    phases = []
    for name, run in zip(PHASES, work, strict=True):
        state, steps = run(state)
        phases.append(Phase(name, state, tuple(steps)))
    return tuple(phases)


def _end_turn(state: State) -> tuple[State, tuple[Step, ...]]:
    after = replace(state, turn=state.turn + 1)
    return after, end_steps(after)
