"""Rounds of tables for games of more than two seats (issue 45): DRTS Team 23 (8 seats),
Shades and B-Chess (2 to 8), or any game, `seats` = [low, high] players a table.

- Filling: as many players as can be seated are, at the fewest tables the high bound
  allows, their sizes differing by at most one (10 players at tables of 2 to 8: two
  tables of 5); those left over (no table can take them: 10 players at tables of 8 seat
  8) have a bye, the lowest-ranked who has not had one first. A bye scores nothing.
- Field: round 1 is drawn from the seed (purpose "tables 1"); later rounds are by the
  standing (points, total score, the draw), the top players at table 1, and so on.
- Seats rotate: each table's seats are assigned by a maximum-weight matching of players
  to seats, which gives each player the seat they have sat in least often (in a field
  that stays together, every seat once before any twice); among equals the seat turns
  one place a round.
- Scoring by placement (service/pairing/points.py); for DRTS Team 23 the placement is
  the team's result, then the seat's own score (the service computes it from the match).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import networkx as nx

from service.pairing.draw import draw_key, drawn_order
from service.pairing.history import History
from service.pairing.result import Pairing

PAIRING_VERSION = 1
BYE_POINTS = 0


def table_sizes(players: int, low: int, high: int) -> list[int]:
    """Returns the sizes of the tables seating the most of `players` at tables of `low`
    to `high`, fewest tables, largest first, differing by at most one ([] if none)."""
    for seated in range(players, low - 1, -1):
        count = -(-seated // high)
        if seated // count >= low:
            extra = seated % count
            return [seated // count + 1] * extra + [seated // count] * (count - extra)
    return []


def standing_order(history: History) -> list[str]:
    """Returns the active players as the field is filled: round 1 by the seed's draw,
    later by points, total score and the draw (purpose "standing")."""
    if not history.rounds:
        return drawn_order(history.seed, "tables 1", history.active)
    points, scores = totals(history)
    return sorted(
        history.active,
        key=lambda p: (-points[p], -scores[p], draw_key(history.seed, "standing", p)),
    )


def totals(history: History) -> tuple[Counter[str], Counter[str]]:
    """Returns each player's points and total score over the recorded games."""
    points: Counter[str] = Counter(dict.fromkeys(history.players, 0))
    scores: Counter[str] = Counter(dict.fromkeys(history.players, 0))
    for record in history.rounds:
        for game in record.final_games():
            points.update(game.points)
            scores.update(game.scores)
    return points, scores


def pair(history: History, low: int, high: int) -> Pairing | None:
    """Returns the next round's tables and byes (module docstring); None when no table
    can be filled from the field."""
    order = standing_order(history)
    sizes = table_sizes(len(order), low, high)
    if not sizes:
        return None
    byes = _byes(order, len(order) - sum(sizes), history)
    field = [player for player in order if player not in byes]
    tables, start = [], 0
    for size in sizes:
        tables.append(_rotated(field[start : start + size], history))
        start += size
    return Pairing(history.next_round, tuple(tables), tuple(byes))


def _byes(order: list[str], count: int, history: History) -> list[str]:
    """Returns the `count` lowest-ranked players, those without a bye first."""
    had = Counter(player for record in history.rounds for player in record.byes)
    bottom_up = list(reversed(order))
    return sorted(bottom_up, key=lambda p: (had[p], bottom_up.index(p)))[:count]


def _rotated(players: Sequence[str], history: History) -> tuple[str, ...]:
    """Returns a table's players in seat order: each in the seat they sat in least."""
    seat_counts: Counter[tuple[str, int]] = Counter(
        (player, seat)
        for record in history.rounds
        for table in record.tables
        for seat, player in enumerate(table)
    )
    size, turn = len(players), history.next_round - 1
    band = size + 1  # the turn's preference adds up to at most `size`
    most = max(seat_counts.values(), default=0) + 1
    graph = nx.Graph()
    for index, player in enumerate(players):
        for seat in range(size):
            preferred = 1 if (index + turn) % size == seat else 0
            weight = band * (most - seat_counts[(player, seat)]) + preferred
            graph.add_edge(("player", player), ("seat", seat), weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    seated: dict[int, str] = {}
    for a, b in matching:
        player_node, seat_node = (a, b) if a[0] == "player" else (b, a)
        seated[seat_node[1]] = player_node[1]
    return tuple(seated[seat] for seat in range(size))
