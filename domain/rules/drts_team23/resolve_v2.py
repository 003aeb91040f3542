"""Resolution of one DRTS Team 23 v2 movement: version 1's, with the item steps.

The operations at once (DRTS-5), then the builds of DeathStars and
Blackholes (DRTS-14, `builds`), then the text's steps:

0. Star conversions (DRTS-16) - `stars.invoke_stars`;
1. team allocation (DRTS-19) - `teams.assign_teams`;
2. Blackhole absorptions (DRTS-13) - `blackholes.absorb`;
3. Generator points - not in this version;
4. Meeting counters before the battle - not in this version;
5. DeathStar captures (DRTS-11, DRTS-12) - `deathstars.deathstar_captures`;
6. battles (DRTS-9, Stars included) and their points (DRTS-10);
7. removal of captured Generators - not in this version;
8. Meeting counters after the battle - not in this version;
9. removal of DeathStars reached by a piece (DRTS-12) - `deathstars.destroy_deathstars`.

Then Star status that has run out ends, and the movement closes (DRTS-20).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from domain.rules.contract import Phase, Step, resolution_of
from domain.rules.drts_team23.battle import battles
from domain.rules.drts_team23.blackholes import absorb
from domain.rules.drts_team23.builds import build_items
from domain.rules.drts_team23.deathstars import deathstar_captures, destroy_deathstars
from domain.rules.drts_team23.moves import apply_operations
from domain.rules.drts_team23.orders import Order
from domain.rules.drts_team23.orders_v2 import check_orders_v2
from domain.rules.drts_team23.resolve import END, FINISHED, OPERATIONS, STEPS
from domain.rules.drts_team23.scoring import end_steps, is_finished, score_captures
from domain.rules.drts_team23.stars import expire_stars, invoke_stars, star_indices
from domain.rules.drts_team23.state import Item, State, occupancy
from domain.rules.drts_team23.teams import assign_teams
from domain.rules.rng import Rng

NOT_IN_VERSION = " - no Generators or Meetings in this version"


def resolve_v2(
    state: State, orders: Sequence[tuple[int, Order]], rng: Rng
) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after the open movement and its steps (`resolve_phases_v2`).

    `orders` lists (seat, order), one a seat, as the Table merges them
    (OrderPolicy.MERGE); each is checked again (IllegalOrderError). `rng` is
    not used: the game has no chance.
    """
    return resolution_of(resolve_phases_v2(state, orders, rng))


def resolve_phases_v2(
    state: State, orders: Sequence[tuple[int, Order]], rng: Rng
) -> tuple[Phase[State], ...]:
    """Returns the twelve phases of a v2 resolution (one, FINISHED, once the match is over)."""
    del rng
    check_orders_v2(state, orders)
    if is_finished(state):
        return (Phase(FINISHED, state),)
    operations = [(seat, order.operations) for seat, order in orders]
    moved_state, moved, move_steps = apply_operations(state, operations)
    built, build_steps = build_items(state, moved_state, orders)
    phases = [Phase(OPERATIONS, built, move_steps + build_steps)]
    fresh = {i.square for i in built.board_items} - {i.square for i in state.board_items}
    entered = set(occupancy(built.pieces)) if built.board_items else set()
    starred, star_steps = invoke_stars(built, orders)
    phases.append(Phase(STEPS[0], starred, star_steps))
    requests = {seat: order.team for seat, order in orders if order.team is not None}
    teamed, team_steps = assign_teams(starred, requests)
    phases.append(Phase(STEPS[1], teamed, team_steps))
    absorbed, absorb_steps = absorb(teamed)
    phases.append(Phase(STEPS[2], absorbed, absorb_steps))
    phases += [_not_in_version(step, absorbed) for step in (3, 4)]
    fresh_stars = {i.square for i in absorbed.board_items if i.item is Item.DEATHSTAR} & fresh
    captured, capture_steps = deathstar_captures(absorbed, fresh_stars)
    phases.append(Phase(STEPS[5], captured, capture_steps))
    sides = [seat.side for seat in captured.seats]
    fights = battles(captured.pieces, sides, moved, star_indices(captured))
    fought, battle_steps = score_captures(captured, fights)
    phases.append(Phase(STEPS[6], fought, battle_steps))
    phases += [_not_in_version(step, fought) for step in (7, 8)]
    cleared, clear_steps = destroy_deathstars(fought, entered)
    phases.append(Phase(STEPS[9], cleared, clear_steps))
    final = expire_stars(replace(cleared, movement=state.movement + 1), state.movement + 1)
    phases.append(Phase(END, final, end_steps(final)))
    return tuple(phases)


def _not_in_version(step: int, state: State) -> Phase[State]:
    return Phase(STEPS[step] + NOT_IN_VERSION, state)
