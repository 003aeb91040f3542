"""Tournament points (issue 45): every result is scored by placement, as if each player
played each other player at the table, 2 for each one placed below, 1 for each one placed
level. Two players: a win 2, a draw 1, a loss 0; a table of n: 2(n - 1) for first alone.
Byes score by the format (service/pairing/__init__.py, `bye_points`)."""

from __future__ import annotations

from collections.abc import Mapping

WIN, DRAW, LOSS = 2, 1, 0


def placement_points(placements: Mapping[str, int]) -> dict[str, int]:
    """Returns each player's points from the placements (1 best; equal places tie)."""
    return {
        player: sum(
            WIN if place < other else DRAW
            for rival, other in placements.items()
            if rival != player and place <= other
        )
        for player, place in placements.items()
    }


def placements_from_ranking(ranking: list[list[str]]) -> dict[str, int]:
    """Returns placements from groups best first (players level share a group): each
    group's place is one more than the number of players above it (1, 2, 2, 4)."""
    placements, above = {}, 0
    for group in ranking:
        for player in group:
            placements[player] = above + 1
        above += len(group)
    return placements


def team_placements(
    team_of: Mapping[str, str], team_scores: Mapping[str, int], scores: Mapping[str, int]
) -> dict[str, int]:
    """Returns placements for a team game (DRTS Team 23, issue 45): by the player's final
    team's score, then the player's own score; equal on both, equal places."""
    rank = {player: (-team_scores[team_of[player]], -scores[player]) for player in team_of}
    groups: dict[tuple[int, int], list[str]] = {}
    for player in sorted(team_of, key=rank.__getitem__):
        groups.setdefault(rank[player], []).append(player)
    return placements_from_ranking(list(groups.values()))
