"""The state after each phase of a resolved movement, run again on demand (never stored).

A movement's phases (the ruleset contract's `Ruleset.phases`, with the
forfeits of a passed deadline first) are computed again from what the log
already holds: the match just before `MovementClosed` (its state, after any
referee action, its pending orders with their content, its strikes), the
seats `SeatEliminated` forfeited in that close, and the movement's Rng (the
match seed and the movement number). A corrected movement's close is its timeline's:
the events a correction superseded (the close it replaced) are left out. The state
after the last phase must hash to the stored `MovementResolved.state_hash`;
otherwise the installed rules no longer give the recorded result, and no phase is
shown.

Phase 0 is the state the resolution started from; phase K (1..n) the state
after the K-th phase. Only a resolved movement has phases, so a phase never
shows an order that is still secret.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.integrity import normalized
from domain.match import Match
from domain.match.timelines import timelines
from domain.rules.contract import Phase, state_hash
from service.errors import (
    MovementNotResolvedError,
    PhaseNotFoundError,
    PhasesDivergedError,
)
from service.queries.views import movement_entry, outcome_json
from service.results import StateView, Viewer

if TYPE_CHECKING:
    from service.store.application import MatchStore

BEFORE = "before the resolution"


@dataclass(frozen=True)
class Traced:
    """A resolved movement run again: the state it started from and its phases."""

    movement: int
    version: int  # of its MovementResolved event
    before: Any
    phases: tuple[Phase[Any], ...]


def traced(app: MatchStore, match: Match, movement: int) -> Traced:
    """Returns the phases of a resolved movement, checked against its stored state hash.

    Raises MovementNotFoundError, MovementNotResolvedError or PhasesDivergedError.
    """
    entry = movement_entry(match, movement)
    if entry.closed is None or entry.resolved is None:
        raise MovementNotResolvedError(
            f"movement {movement} of match {match.id} is not resolved (yet): "
            "only a resolved movement has phases"
        )
    closed, resolved = entry.closed, entry.resolved
    kept = app.past.traces.get((match.id, resolved))
    if kept is not None:
        return kept  # type: ignore[no-any-return]
    # a corrected movement: its timeline's events only, not the close it superseded
    events = timelines(list(app.events.get(match.id, gt=entry.opened, lte=resolved)))[-1]
    forfeited = [e.seat for e in events if isinstance(e, Match.SeatEliminated)]
    stored = next(e for e in events if isinstance(e, Match.MovementResolved)).state_hash
    before = app.get_match(match.id, closed - 1).table()
    phases = before.phases(forfeited)
    ruleset = before.ruleset
    again = state_hash(normalized(ruleset.dump_state(phases[-1].state)))
    if again != stored:
        raise PhasesDivergedError(
            f"running movement {movement} of match {match.id} again under "
            f"{ruleset.name} v{ruleset.info.version} gives state hash {again}, "
            f"not the stored {stored}: the installed rules differ from those that resolved it"
        )
    run = Traced(movement, resolved, before.state, phases)
    app.past.traces.put((match.id, resolved), run)  # checked: kept (service/store/pastreads.py)
    return run


def phase_state(
    app: MatchStore, match: Match, movement: int, phase: int, viewer: Viewer
) -> StateView:
    """Returns the state after phase `phase` of `movement`'s resolution as the viewer may
    see it, with the steps of phases 1..phase and the names of every phase.

    Raises PhaseNotFoundError for a phase outside 0..n, and as `traced`.
    """
    run = traced(app, match, movement)
    count = len(run.phases)
    if not 0 <= phase <= count:
        raise PhaseNotFoundError(
            f"movement {movement} of match {match.id} has phases 0..{count} "
            f"(0: {BEFORE}), not {phase}"
        )
    ruleset = match.rules()
    state = run.before if phase == 0 else run.phases[phase - 1].state
    shown = ruleset.dump_state(state) if viewer.referee else ruleset.view(state, viewer.seat)
    return StateView(
        match_id=str(match.id),
        movement=movement,
        phase=phase,
        phase_name=BEFORE if phase == 0 else run.phases[phase - 1].name,
        phases=[p.name for p in run.phases],
        version=run.version,
        state=normalized(shown),
        steps=[step.to_json() for p in run.phases[:phase] for step in p.steps],
        outcome=outcome_json(ruleset.outcome(state).to_json()),
        orders=[],
    )
