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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from domain.rules.contract import Step
from domain.rules.drts_team23.battle import battles
from domain.rules.drts_team23.moves import apply_operations, check_orders
from domain.rules.drts_team23.orders import Order
from domain.rules.drts_team23.scoring import end_steps, is_finished, score_captures
from domain.rules.drts_team23.state import State
from domain.rules.drts_team23.teams import assign_teams
from domain.rules.rng import Rng


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
    del rng
    check_orders(state, orders)
    if is_finished(state):
        return state, ()
    moved_state, moved, move_steps = apply_operations(state, orders)
    # Step 0: no items in this version.
    requests = {seat: order.team for seat, order in orders if order.team is not None}
    team_state, team_steps = assign_teams(moved_state, requests)
    # Steps 2-5: no items in this version.
    sides = [seat.side for seat in team_state.seats]
    captures = battles(team_state.pieces, sides, moved)
    battle_state, battle_steps = score_captures(team_state, captures)
    # Steps 7-9: no items in this version.
    final = replace(battle_state, movement=state.movement + 1)
    return final, (*move_steps, *team_steps, *battle_steps, *end_steps(final))
