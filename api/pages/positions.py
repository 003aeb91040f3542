"""The replay scrubber's positions: every phase of every resolved movement, in order.

A position is (movement, phase): phase 0 is the state the movement's resolution started
from, phase K the state after its K-th phase (service/queries/phases.py). Moving on from the
last phase of a movement goes to phase 0 of the next resolved one.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.match import Match

Position = tuple[int, int]


@dataclass(frozen=True)
class Scrubber:
    """Where the replay stands and where each arrow key leads (None: nowhere)."""

    movements: tuple[int, ...]  # the resolved movements, in order
    movement: int
    phase: int
    phase_count: int
    previous: Position | None
    next: Position | None
    previous_movement: Position | None
    next_movement: Position | None


def resolved_movements(match: Match) -> tuple[int, ...]:
    """Returns the numbers of the match's resolved movements, in order."""
    return tuple(log.number for log in match.movements if log.resolved is not None)


def scrubber(
    movements: tuple[int, ...], movement: int, phase: int, phase_count: int, count_before: int
) -> Scrubber:
    """Returns the scrubber at (movement, phase) of a movement with `phase_count` phases;
    `count_before` is the phase count of the resolved movement before it (0 if none)."""
    at = movements.index(movement)
    earlier = movements[at - 1] if at > 0 else None
    later = movements[at + 1] if at + 1 < len(movements) else None
    if phase > 0:
        previous: Position | None = (movement, phase - 1)
    else:
        previous = None if earlier is None else (earlier, count_before)
    if phase < phase_count:
        following: Position | None = (movement, phase + 1)
    else:
        following = None if later is None else (later, 0)
    return Scrubber(
        movements,
        movement,
        phase,
        phase_count,
        previous,
        following,
        None if earlier is None else (earlier, 0),
        None if later is None else (later, 0),
    )
