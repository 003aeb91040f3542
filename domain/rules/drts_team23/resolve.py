"""Resolution of one DRTS Team 23 movement: all operations at once, then steps 0..9 (DRTS-5).

The text's steps in its order, and where each lives:

0. conversions to Star and Generator (DRTS-15, DRTS-16) - items: not in this version;
1. team allocation (DRTS-19) - `teams.assign_teams`;
2. Blackhole absorptions (DRTS-13) - items: not in this version;
3. Generator points (DRTS-15) - items: not in this version;
4. Meeting counters before the battle (DRTS-17) - items: not in this version;
5. DeathStar captures (DRTS-11) - items: not in this version;
6. battles (DRTS-9) and their points (DRTS-10) - `battle.battles`, `scoring.score_captures`;
7. removal of captured Generators (DRTS-15) - items: not in this version;
8. Meeting counters after the battle (DRTS-17) - items: not in this version;
9. removal of captured DeathStars (DRTS-12) - items: not in this version.

Then the movement closes and the end of the match is checked (DRTS-20).

`resolve_phases` reports the state after each of these: the operations, each
step 0..9 (the item steps leave the state as it was), and the end of the
movement; `resolve` is its last state and all its steps.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.rules.contract import Phase, Step, resolution_of
from domain.rules.drts_team23.battle import battles
from domain.rules.drts_team23.moves import apply_operations
from domain.rules.drts_team23.orders import Order, check_orders
from domain.rules.drts_team23.scoring import end_steps, is_finished, score_captures
from domain.rules.drts_team23.state import State
from domain.rules.drts_team23.teams import assign_teams
from domain.rules.rng import Rng

OPERATIONS = "operations: every operation at once (DRTS-5)"
STEPS = (
    "step 0: conversions to Star and Generator (DRTS-15, DRTS-16)",
    "step 1: team allocation (DRTS-19)",
    "step 2: Blackhole absorptions (DRTS-13)",
    "step 3: Generator points (DRTS-15)",
    "step 4: Meeting counters before the battle (DRTS-17)",
    "step 5: DeathStar captures (DRTS-11)",
    "step 6: battles (DRTS-9) and their points (DRTS-10)",
    "step 7: removal of captured Generators (DRTS-15)",
    "step 8: Meeting counters after the battle (DRTS-17)",
    "step 9: removal of captured DeathStars (DRTS-12)",
)
END = "end of the movement: the next one opens, or the match ends (DRTS-20)"
FINISHED = "the match is finished: nothing happens"
NO_ITEMS = " - no items in this version"


def resolve(
    state: State, orders: Sequence[tuple[int, Order]], rng: Rng
) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after the open movement and the steps that explain it.

    `orders` lists (seat, order) in arrival order, one a seat at most (the
    Table replaces a seat's earlier order, OrderPolicy.REPLACE); a silent
    seat holds all its pieces (DRTS-22). Each order is checked again against
    the state at the start of the movement (IllegalOrderError if one is not
    legal, as every order is once the match is finished). Once finished,
    silence changes nothing: the state comes back unchanged, with no step.
    `rng` is not used: this game has no chance.
    """
    return resolution_of(resolve_phases(state, orders, rng))


def resolve_phases(
    state: State, orders: Sequence[tuple[int, Order]], rng: Rng
) -> tuple[Phase[State], ...]:
    """Returns the phases of `resolve`: the operations, steps 0..9, the end of the movement.

    Twelve phases, in the text's order; the item steps (0, 2-5, 7-9) keep the
    state as it was. A finished match has one phase, FINISHED, changing
    nothing. IllegalOrderError as for `resolve`.
    """
    del rng
    check_orders(state, orders)
    if is_finished(state):
        return (Phase(FINISHED, state),)
    operations = [(seat, order.operations) for seat, order in orders]
    moved_state, moved, move_steps = apply_operations(state, operations)
    phases = [Phase(OPERATIONS, moved_state, move_steps), _no_items(0, moved_state)]
    requests = {seat: order.team for seat, order in orders if order.team is not None}
    team_state, team_steps = assign_teams(moved_state, requests)
    phases.append(Phase(STEPS[1], team_state, team_steps))
    phases += [_no_items(step, team_state) for step in (2, 3, 4, 5)]
    captures = battles(team_state.pieces, team_state.sides, moved, squares=team_state.squares)
    battle_state, battle_steps = score_captures(team_state, captures)
    phases.append(Phase(STEPS[6], battle_state, battle_steps))
    phases += [_no_items(step, battle_state) for step in (7, 8, 9)]
    final = battle_state.changed(movement=state.movement + 1)
    phases.append(Phase(END, final, end_steps(final)))
    return tuple(phases)


def _no_items(step: int, state: State) -> Phase[State]:
    return Phase(STEPS[step] + NO_ITEMS, state)
