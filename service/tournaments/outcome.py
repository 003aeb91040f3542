"""A finished match's result as a tournament records it (issue 45): each player's
placement (1 best, shared when level), tournament points by placement
(service/pairing/points.py) and game score, bound to the match's head and timeline.

Placements follow the ratings' sides (service/queries/ratings.py, `placement`): winners first,
then by score; a draw without winners ties everyone; a team game (DRTS Team 23) by the
final team's score, then the seat's own score."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.match import Match
from service.pairing.points import placement_points, placements_from_ranking
from service.queries.ratings import placement


@dataclass(frozen=True)
class MatchResult:
    """What ResultRecorded carries for one match."""

    head: dict[str, Any]
    placements: dict[str, int]
    points: dict[str, int]
    scores: dict[str, int]
    timeline: int


def result_of(match: Match) -> MatchResult | None:
    """Returns the result of a finished match whose seats all name players, or None."""
    if not match.finished or match.outcome is None:
        return None
    players = {seat.number: seat.player_id for seat in match.seats}
    if not players or None in players.values():
        return None
    outcome: Any = match.outcome
    scores = {int(s): int(v) for s, v in (outcome.get("scores") or {}).items()}
    sides = placement(outcome, match.state, sorted(players))
    refine = bool(outcome.get("team_scores"))  # a team game: then the seat's own score
    keyed = {
        seat: (rank, -scores.get(seat, 0) if refine else 0)
        for seats, rank in sides
        for seat in seats
    }
    groups: dict[tuple[int, int], list[str]] = {}
    for seat in sorted(keyed, key=keyed.__getitem__):
        groups.setdefault(keyed[seat], []).append(str(players[seat]))
    placements = placements_from_ranking(list(groups.values()))
    return MatchResult(
        {"version": match.version, "chain": match.chain},
        placements,
        placement_points(placements),
        {str(players[s]): scores.get(s, 0) for s in players},
        int(match.timeline),
    )
