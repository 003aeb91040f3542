"""Standings with their tie-breaks (issue 45), in the order a tournament recorded at its
creation (domain/tournament/base.py, DEFAULT_TIE_BREAKS):

- `points`: the games' points (service/pairing/points.py) and the byes' (by format);
- `buchholz`: the sum of the final points of every opponent met (a bye adds nothing);
- `sonneborn_berger`: over two-player games, the points scored against each opponent
  times that opponent's final points (a win counts them fully, a draw half: points are
  2 and 1);
- `head_to_head`: the points scored in two-player games against the players level on
  points;
- `total_score`: the sum of the game scores (tables);
- `draw`: the seed's draw (purpose "standing"), lower first: it leaves no tie.

Higher is better for all but the draw. The latest game of a table counts (a drawn
elimination match's replay replaces it); results are as recorded, on the timeline each
follows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from service.pairing.draw import draw_key
from service.pairing.history import Game, History


@dataclass(frozen=True)
class Standing:
    """One player's place: rank (1 best, no two alike), points and tie-break values."""

    rank: int
    player_id: str
    points: int
    tie_breaks: Mapping[str, int | str]
    withdrawn: bool = False

    def to_json(self) -> dict[str, Any]:
        """Returns the entry as Finished's `standing` records it."""
        return {
            "rank": self.rank,
            "player_id": self.player_id,
            "points": self.points,
            "tie_breaks": dict(self.tie_breaks),
            "withdrawn": self.withdrawn,
        }


def standings(
    history: History, order: Sequence[str], bye_points: Mapping[tuple[int, str], int]
) -> list[Standing]:
    """Returns every registered player's standing under the tie-break `order`;
    `bye_points[(round, player)]` is what each bye scored (0 when absent)."""
    games = [(record.number, game) for record in history.rounds for game in record.final_games()]
    points: Counter[str] = Counter(dict.fromkeys(history.players, 0))
    for _, game in games:
        points.update(game.points)
    for record in history.rounds:
        points.update({p: bye_points.get((record.number, p), 0) for p in record.byes})
    values = {
        player: {
            name: _value(name, player, [g for _, g in games], points, history.seed)
            for name in order
        }
        for player in history.players
    }
    ranked = sorted(history.players, key=lambda p: _key(values[p], order))
    return [
        Standing(rank, player, points[player], values[player], player in history.withdrawn)
        for rank, player in enumerate(ranked, 1)
    ]


def _key(values: Mapping[str, int | str], order: Sequence[str]) -> tuple[Any, ...]:
    return tuple(values[name] if name == "draw" else -int(values[name]) for name in order)


def _value(name: str, player: str, games: list[Game], points: Counter[str], seed: str) -> int | str:
    mine = [game for game in games if player in game.players]
    if name == "points":
        return points[player]
    if name == "buchholz":
        return sum(points[other] for game in mine for other in game.opponents(player))
    if name == "sonneborn_berger":
        return sum(
            game.points[player] * points[game.opponents(player)[0]]
            for game in mine
            if len(game.players) == 2
        )
    if name == "head_to_head":
        level = {other for other in points if other != player and points[other] == points[player]}
        return sum(
            game.points[player]
            for game in mine
            if len(game.players) == 2 and game.opponents(player)[0] in level
        )
    if name == "total_score":
        return sum(game.scores.get(player, 0) for game in mine)
    if name == "draw":
        return draw_key(seed, "standing", player)
    raise ValueError(f"unknown tie-break {name!r}")
