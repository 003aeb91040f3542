"""A DRTS Team 23 match with movements to correct."""

from __future__ import annotations

from typing import Any

from service.matches import Matches

TEAMS = ["green"] * 3 + ["yellow"] * 3 + ["blue"] * 2


def drts_match(matches: Matches, clock: Any) -> tuple[Any, list[str]]:
    """Returns a DRTS Team 23 match (closing early) whose seat 4 moved its Water 10>16 in
    movement 2, then 16>22 with its Fire 11>17 in movement 3, then Water 22>28 in
    movement 4; movement 5 is open."""
    new = matches.create_match(
        "drts_team23", {"close_early": True, "movement_seconds": 600}, seats=8, seed="corr"
    )
    tokens = [matches.join(new.match_id, f"seat {n}").token for n in range(1, 9)]
    matches.start(new.match_id, new.referee_token)
    movements = [
        {seat: f"team {team}" for seat, team in enumerate(TEAMS, 1)},
        {4: "water 10>16"},
        {4: "water 16>22; fire 11>17"},
        {4: "water 22>28"},
    ]
    for orders in movements:
        for seat in range(1, 9):
            clock.advance(1)
            matches.submit_order(new.match_id, tokens[seat - 1], orders.get(seat, "hold"))
    return new, tokens
