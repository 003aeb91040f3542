"""Invariants held after every DRTS Team 23 resolution: points add up, teams stay within
capacity."""

from __future__ import annotations

from collections import Counter

from domain.rules.drts_team23.state import SEATS, TEAM_CAPACITY, TEAMS, State
from domain.table import Resolution


def check_points(before: State, resolution: Resolution):
    seat_delta, team_delta = Counter(), Counter()
    for step in resolution.steps:
        seat_delta.update({int(k): v for k, v in step.data.get("seat_points", {}).items()})
        team_delta.update(step.data.get("team_points", {}))
    after = resolution.state
    for seat in range(1, SEATS + 1):
        assert after.seat(seat).score - before.seat(seat).score == seat_delta[seat]
    for team in TEAMS:
        assert after.team_score(team) - before.team_score(team) == team_delta[team.value]


def check_teams(state: State):
    for team in TEAMS:
        assert len(state.members(team)) <= TEAM_CAPACITY
    if state.last_resolved >= 6:
        assert all(seat.team is not None for seat in state.seats)
