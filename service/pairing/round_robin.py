"""Round robin (issue 45): everyone meets everyone once a leg, by the circle method.

- The players' numbers are drawn from the seed (`drawn_order`, purpose "round robin"), as
  an organiser draws numbers for a Berger table; an odd field adds a rest (a bye) that
  each player takes once a leg.
- Circle method, in its arithmetic form (Berger's tables): with numbers 0 to m - 1
  turning and number m fixed (m = n - 1, n even), round r (from 0) pairs i with
  (r - i) mod m, and i with m where 2i = r (mod m).
- Seat order is balanced: the lower number sits first when the two numbers' sum is odd,
  the higher when it is even, and the fixed number sits first in odd rounds (counted
  from 1); so in one leg no one sits first more than once more than second (an odd field:
  exactly as often). The second leg repeats the first with every table's seats swapped.
- A withdrawn player is paired no more: their scheduled opponent gets a bye (a walkover,
  scored as a win: `walkovers`), a rest scores nothing.
"""

from __future__ import annotations

from service.pairing.draw import drawn_order
from service.pairing.history import History
from service.pairing.result import Pairing

PAIRING_VERSION = 1
REST = ""  # the extra number an odd field's schedule pairs a resting player with


def rounds_needed(players: int, legs: int) -> int:
    """Returns how many rounds the field plays: (n - 1) a leg, n for an odd n."""
    return legs * (players - 1 + players % 2)


def schedule(players: list[str], seed: str, legs: int) -> list[list[tuple[str, str]]]:
    """Returns every round's tables in seat order (a REST table where one player rests)."""
    numbers = drawn_order(seed, "round robin", players)
    if len(numbers) % 2:
        numbers.append(REST)
    m = len(numbers) - 1  # numbers 0 .. m - 1 turn; number m (the rest, if any) stays
    leg = []
    for r in range(m):
        tables = []
        for i in range(m):
            j = (r - i) % m
            if j == i:  # meets the fixed number: first in even rounds
                first, second = (i, m) if r % 2 == 0 else (m, i)
            elif i < j:  # the lower number first when the sum is odd
                first, second = (i, j) if (i + j) % 2 else (j, i)
            else:
                continue
            tables.append((numbers[first], numbers[second]))
        leg.append(sorted(tables, key=lambda t: REST in t))
    second_leg = [[(b, a) for a, b in tables] for tables in leg]
    return leg + second_leg if legs == 2 else leg


def pair(history: History, legs: int) -> Pairing | None:
    """Returns the next round's pairing, or None once every round has been played."""
    rounds = schedule(list(history.players), history.seed, legs)
    number = history.next_round
    if number > len(rounds):
        return None
    tables, byes = [], []
    for first, second in rounds[number - 1]:
        present = [p for p in (first, second) if p != REST and p not in history.withdrawn]
        if len(present) == 2:
            tables.append((first, second))
        else:
            byes.extend(present)
    return Pairing(number, tuple(tables), tuple(byes))


def walkovers(history: History, number: int, legs: int) -> set[str]:
    """Returns who had a bye in round `number` because their opponent had withdrawn (a win
    by forfeit), as opposed to a scheduled rest."""
    scheduled = schedule(list(history.players), history.seed, legs)[number - 1]
    rested = {player for table in scheduled if REST in table for player in table}
    return set(history.rounds[number - 1].byes) - rested
