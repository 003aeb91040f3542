"""Resolution of one DRTS Team 23 v2 movement: version 1's, with the item steps.

The operations at once (DRTS-5), then the builds of DeathStars and
Blackholes (DRTS-14, `builds`), then the text's steps:

0. Star conversions (DRTS-16) - `stars.invoke_stars`; Generator conversions (DRTS-15) -
   `generators.convert_generators`;
1. team allocation (DRTS-19) - `teams.assign_teams`;
2. Blackhole absorptions (DRTS-13), Generators included - `blackholes.absorb`;
3. Generator points (DRTS-15) - `generators.count_generators`;
4. Meeting counters before the battle (DRTS-17) - `meetings.count_meetings`;
5. DeathStar captures (DRTS-11, DRTS-12), Generators included -
   `deathstars.deathstar_captures`;
6. battles (DRTS-9, Stars included; Generators take no part) and their points
   (DRTS-10); the captures of Generators by every piece on their square (DRTS-15) -
   `generators.capture_generators`;
7. removal of captured Generators (DRTS-15) - `generators.remove_generators`;
8. Meeting counters after the battle: resets and Star awards (DRTS-17) -
   `meetings.review_meetings`;
9. removal of DeathStars reached by a piece (DRTS-12) - `deathstars.destroy_deathstars`.

Then Star status that has run out ends, and the movement closes (DRTS-20).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.rules.contract import Phase, Step, resolution_of
from domain.rules.drts_team23.battle import battles
from domain.rules.drts_team23.blackholes import absorb
from domain.rules.drts_team23.builds import build_items
from domain.rules.drts_team23.deathstars import deathstar_captures, destroy_deathstars
from domain.rules.drts_team23.generators import (
    capture_generators,
    convert_generators,
    count_generators,
    remove_generators,
)
from domain.rules.drts_team23.meetings import count_meetings, review_meetings
from domain.rules.drts_team23.moves import apply_operations
from domain.rules.drts_team23.orders import Order
from domain.rules.drts_team23.orders_v2 import check_orders_v2
from domain.rules.drts_team23.resolve import END, FINISHED, OPERATIONS, STEPS
from domain.rules.drts_team23.scoring import end_steps, is_finished, score_captures
from domain.rules.drts_team23.stars import expire_stars, invoke_stars, star_indices
from domain.rules.drts_team23.state import Item, Piece, State, occupancy
from domain.rules.drts_team23.teams import assign_teams
from domain.rules.rng import Rng


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
    entered = set(built.squares) if built.board_items else set()
    starred, star_steps = invoke_stars(built, orders)
    converted, generator_steps = convert_generators(state, starred, orders)
    phases.append(Phase(STEPS[0], converted, star_steps + generator_steps))
    requests = {seat: order.team for seat, order in orders if order.team is not None}
    teamed, team_steps = assign_teams(converted, requests)
    phases.append(Phase(STEPS[1], teamed, team_steps))
    absorbed, absorb_steps = absorb(teamed)
    phases.append(Phase(STEPS[2], absorbed, absorb_steps))
    counted, count_steps = count_generators(absorbed)
    phases.append(Phase(STEPS[3], counted, count_steps))
    met, meeting_steps = count_meetings(counted)
    phases.append(Phase(STEPS[4], met, meeting_steps))
    fresh_stars = {i.square for i in met.board_items if i.item is Item.DEATHSTAR} & fresh
    captured, capture_steps = deathstar_captures(met, fresh_stars)
    phases.append(Phase(STEPS[5], captured, capture_steps))
    fought, battle_steps, taken = _battle(captured, moved)
    phases.append(Phase(STEPS[6], fought, battle_steps))
    removed, removal_steps = remove_generators(fought, taken)
    phases.append(Phase(STEPS[7], removed, removal_steps))
    reviewed, review_steps = review_meetings(removed)
    phases.append(Phase(STEPS[8], reviewed, review_steps))
    cleared, clear_steps = destroy_deathstars(reviewed, entered)
    phases.append(Phase(STEPS[9], cleared, clear_steps))
    final = expire_stars(cleared.changed(movement=state.movement + 1), state.movement + 1)
    phases.append(Phase(END, final, end_steps(final)))
    return tuple(phases)


def _battle(state: State, moved: frozenset[int]) -> tuple[State, tuple[Step, ...], tuple[int, ...]]:
    """Returns the state after step 6, its steps and the captured Generators: the battles
    of the pieces that are not Generators (DRTS-9, DRTS-10), and the Generators captured by
    every piece on their square (DRTS-15), both judged on the board after step 5."""
    scored, taken, generator_steps = capture_generators(state)
    fighters, squares = state.pieces, state.squares
    if taken or any(p.generator is not None for p in fighters):
        fighters = tuple(
            Piece(p.seat, p.kind, None) if p.generator is not None else p for p in fighters
        )  # off the board for the battle, which reads only seats, kinds and squares
        squares = occupancy(fighters)
    fights = battles(fighters, state.sides, moved, star_indices(state), squares)
    fought, battle_steps = score_captures(scored, fights)
    return fought, battle_steps + generator_steps, taken
