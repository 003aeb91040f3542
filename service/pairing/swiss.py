"""Swiss pairing (issue 45): a simplified Dutch system, solved as one maximum-weight
matching (networkx's `max_weight_matching`, Edmonds' blossom algorithm, exact on integer
weights) rather than a hand-made search. The rules, in order of priority:

1. No two players meet twice (a pair that met has no edge; a round that cannot be paired
   so raises UnpairableRoundError, as does a field of fewer than two).
2. With an odd field, the bye goes to the lowest-ranked player who has not had one and
   whose leaving still lets the rest be paired; when everyone has had one, to the
   lowest-ranked. A bye scores a win (2 points).
3. Score groups: the pairing minimises the sum over tables of the squared difference of
   the two players' points, so players meet their own score group and as few float as
   can be.
4. Dutch fold: within a score group of k, ranked, the i-th meets the (i + k/2)-th (the
   top half against the bottom half); a player floating down meets the top of the
   group below.
5. Seat order: the player with fewer first seats so far sits first; then the one who sat
   second last round; then the higher-ranked on odd rounds, the lower on even ones. A
   pair who both have sat first more often loses a little weight (rule 5 never overrides
   rules 1 to 4).

The ranking is by points, then the pairing number (registration order: an organiser
registers the strongest first). Tables are numbered by their higher-ranked player.

Rule 1 can leave a round with no pairing at all (6 players whose first 3 rounds were
the three rounds of ann-bo-cy against di-ed-fy: the pairs not met yet form two
triangles). `max_rounds` is the bound under which that cannot happen, and a Swiss
planned for more rounds than its field allows is refused before round 1
(`check_field`, called by the running tournament, service/tournaments/running.py).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import networkx as nx

from service.pairing.history import History
from service.pairing.points import WIN
from service.pairing.result import Pairing, PairingError

PAIRING_VERSION = 1
BYE_POINTS = WIN


class UnpairableRoundError(PairingError):
    """Raised when a round cannot be paired without a repeat meeting (rule 1), which only
    withdrawals during the event can bring about (`max_rounds`): the running tournament
    then finishes early (service/tournaments/running.py)."""

    code = "unpairable_round"


class FieldTooSmallError(PairingError):
    """Raised when a Swiss is planned for more rounds than its field is sure to pair."""

    code = "field_too_small"


def max_rounds(players: int) -> int:
    """Returns the most rounds a Swiss of `players` is sure to pair under rule 1: ceil(n/2).

    With an odd field add the bye as a player, for N = n + 1; else N = n. After k rounds
    each of the N has met k others (rule 2 gives nobody a second bye while someone has
    none), so the pairs not met yet form a graph where each has N - 1 - k. Dirac's
    theorem: a graph whose every vertex has at least N/2 neighbours has a Hamiltonian
    cycle, so (N even) a perfect matching: round k + 1 pairs while k <= N/2 - 1, that is
    every round up to N/2 = ceil(n/2). The bound is tight: the example in the module's
    docstring (6 players) fails at round 4. Withdrawals during the event shrink the field
    and are not covered."""
    return (players + 1) // 2


def check_field(players: int, rounds: int | None) -> None:
    """Raises FieldTooSmallError when `rounds` (None: the format's ceil(log2 n), always
    within the bound) exceed `max_rounds(players)`."""
    if rounds is not None and players >= 2 and rounds > max_rounds(players):
        raise FieldTooSmallError(
            f"a Swiss of {rounds} rounds needs at least {2 * rounds - 1} players to be sure "
            f"every round pairs without a repeat meeting (rounds <= ceil(players / 2)); "
            f"{players} are registered: register more players, or create the tournament "
            f"with at most {max_rounds(players)} rounds"
        )


def points(history: History) -> Counter[str]:
    """Returns each player's points: their games' and a win for each bye."""
    totals: Counter[str] = Counter({player: 0 for player in history.players})
    for record in history.rounds:
        for game in record.final_games():
            totals.update(game.points)
        totals.update({player: BYE_POINTS for player in record.byes})
    return totals


def ranked(history: History) -> list[str]:
    """Returns the active players by points, then pairing number."""
    totals, number = points(history), {p: i for i, p in enumerate(history.players)}
    return sorted(history.active, key=lambda p: (-totals[p], number[p]))


def pair(history: History) -> Pairing:
    """Returns the next round's pairing by the module's rules. Raises UnpairableRoundError
    when every pairing of the field would repeat a meeting, or fewer than two are left."""
    order = ranked(history)
    if len(order) < 2:
        raise UnpairableRoundError(
            f"round {history.next_round} cannot be paired: {len(order)} player is left"
        )
    met = _met(history)
    bye: tuple[str, ...] = ()
    if len(order) % 2:
        bye = (_bye(order, met, history),)
        order = [p for p in order if p not in bye]
    graph = _graph(order, met, history)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(order):
        raise UnpairableRoundError(
            f"round {history.next_round} cannot be paired without a repeat meeting"
        )
    rank = {p: i for i, p in enumerate(order)}
    pairs = sorted(
        (tuple(sorted(pair, key=rank.__getitem__)) for pair in matching), key=lambda t: rank[t[0]]
    )
    tables = tuple(_seated(a, b, history) for a, b in pairs)
    return Pairing(history.next_round, tables, bye)


def _met(history: History) -> set[frozenset[str]]:
    return {frozenset(table) for record in history.rounds for table in record.tables}


def _bye(order: list[str], met: set[frozenset[str]], history: History) -> str:
    """Returns the bye (rule 2)."""
    had = {player for record in history.rounds for player in record.byes}
    candidates = [p for p in reversed(order) if p not in had] + list(reversed(order))
    for candidate in candidates:
        rest = [p for p in order if p != candidate]
        if _pairable(rest, met):
            return candidate
    raise UnpairableRoundError(
        f"round {history.next_round} cannot be paired without a repeat meeting"
    )


def _pairable(players: list[str], met: set[frozenset[str]]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from(
        (a, b) for a, b in combinations(players, 2) if frozenset((a, b)) not in met
    )
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(players)


def _graph(order: list[str], met: set[frozenset[str]], history: History) -> nx.Graph:
    """Returns the graph of allowed tables weighted by rules 3 to 5, in bands so that a
    higher rule always outweighs every lower one together."""
    totals, n = points(history), len(order)
    groups: dict[int, list[str]] = {}
    for player in order:
        groups.setdefault(totals[player], []).append(player)
    balance = _balance(history)
    fold_band = 2 * n + 1  # colour penalties add up to at most 2 per table
    score_band = fold_band * (n * n + 1)  # fold penalties add up to below n * n
    top = max((totals[a] - totals[b]) ** 2 for a, b in combinations(order, 2)) if n > 1 else 0
    graph = nx.Graph()
    graph.add_nodes_from(order)
    for a, b in combinations(order, 2):
        if frozenset((a, b)) in met:
            continue
        penalty = (
            score_band * (totals[a] - totals[b]) ** 2
            + fold_band * _fold(a, b, totals, groups)
            + _colour(a, b, balance)
        )
        graph.add_edge(a, b, weight=score_band * (top + 1) - penalty)
    return graph


def _fold(a: str, b: str, totals: Counter[str], groups: dict[int, list[str]]) -> int:
    """Returns rule 4's penalty: how far a table is from the group's fold."""
    if totals[a] == totals[b]:
        group = groups[totals[a]]
        distance = abs(group.index(a) - group.index(b))
        return abs(distance - len(group) // 2)
    lower = a if totals[a] < totals[b] else b
    return groups[totals[lower]].index(lower)


def _balance(history: History) -> dict[str, int]:
    """Returns first seats minus second seats for each player so far."""
    balance = dict.fromkeys(history.players, 0)
    for record in history.rounds:
        for table in record.tables:
            balance[table[0]] += 1
            balance[table[1]] -= 1
    return balance


def _colour(a: str, b: str, balance: dict[str, int]) -> int:
    """Returns rule 5's penalty: 1 when both lean to the same seat, 2 when strongly."""
    if balance[a] * balance[b] <= 0:
        return 0
    return 2 if min(abs(balance[a]), abs(balance[b])) > 1 else 1


def _seated(higher: str, lower: str, history: History) -> tuple[str, str]:
    """Returns a table in seat order (rule 5)."""
    balance = _balance(history)
    if balance[higher] != balance[lower]:
        return (higher, lower) if balance[higher] < balance[lower] else (lower, higher)
    last = history.rounds[-1].tables if history.rounds else ()
    seconds = {table[1] for table in last}
    if (higher in seconds) != (lower in seconds):
        return (higher, lower) if higher in seconds else (lower, higher)
    return (higher, lower) if history.next_round % 2 else (lower, higher)
