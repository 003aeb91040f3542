"""A series of bot matches: seeds counted up, maps taken in turn, seats rotated; the tally.

Match i (from 0) plays map i mod (number of maps), seed `seed + i` (a fresh
random seed each when none is given), and seats the programs rotated by i:
seat s gets program (s - 1 + i) mod P, so that over P matches every program
plays every seat. The tally counts per program its matches, wins (sole
winner), draws (a winner among several) and mean score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from cli.bots.runner import MatchPlan, MatchResult, Program


@dataclass
class Tally:
    """One program's record over a series."""

    program: Program
    matches: int = 0
    wins: int = 0
    draws: int = 0
    scores: list[float] = field(default_factory=list)

    @property
    def mean_score(self) -> float:
        """Returns the program's mean final score (0 before any match)."""
        return sum(self.scores) / len(self.scores) if self.scores else 0.0


def series_plans(
    plan: MatchPlan, maps: Sequence[str], count: int, seed: int | None
) -> list[MatchPlan]:
    """Returns the plans of a series of `count` matches built on `plan` (see the module)."""
    programs = plan.programs
    return [
        replace(
            plan,
            map=maps[i % len(maps)],
            seed=None if seed is None else str(seed + i),
            programs=tuple(programs[(s + i) % len(programs)] for s in range(len(programs))),
        )
        for i in range(count)
    ]


def tally(programs: Sequence[Program], results: Sequence[MatchResult]) -> list[Tally]:
    """Returns each distinct program's record over the results, best mean score first."""
    records = {program.command: Tally(program) for program in programs}
    for result in results:
        outcome = result.outcome if isinstance(result.outcome, dict) else {}
        winners = outcome.get("winners") or []
        for seat in result.seats:
            record = records[seat.program.command]
            record.matches += 1
            record.scores.append(result.score(seat.seat))
            if isinstance(winners, list) and seat.seat in winners:
                if len(winners) == 1:
                    record.wins += 1
                else:
                    record.draws += 1
    return sorted(records.values(), key=lambda r: (-r.mean_score, -r.wins))


def play_series(
    plans: Sequence[MatchPlan], play: Callable[[MatchPlan], MatchResult]
) -> list[MatchResult]:
    """Plays each plan in turn with `play`; returns the results."""
    return [play(plan) for plan in plans]
