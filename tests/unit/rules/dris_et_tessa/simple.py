"""A deliberately simple second move generator for Dris et-Tessa, to check the fast one.

It shares nothing with domain/rules/dris_et_tessa/ but the rulings: the
board is written out by hand from DT-1 (its 16 lines, neighbours read off
them), a position is a dict from point name to seat, plies are tuples, and
every rule is a plain loop over points. It is slow on purpose: it must be
easy to read and check against the rulings, not fast.
"""

from __future__ import annotations

from dataclasses import dataclass

# DT-1: the 16 lines of three of the Nine Men's Morris board, by point name.
LINES = [
    ("a7", "d7", "g7"),
    ("b6", "d6", "f6"),
    ("c5", "d5", "e5"),
    ("a4", "b4", "c4"),
    ("e4", "f4", "g4"),
    ("c3", "d3", "e3"),
    ("b2", "d2", "f2"),
    ("a1", "d1", "g1"),
    ("a1", "a4", "a7"),
    ("b2", "b4", "b6"),
    ("c3", "c4", "c5"),
    ("d5", "d6", "d7"),
    ("d1", "d2", "d3"),
    ("e3", "e4", "e5"),
    ("f2", "f4", "f6"),
    ("g1", "g4", "g7"),
]
POINTS = sorted({point for line in LINES for point in line})
# Two points are neighbours when they stand next to each other on a line.
NEIGHBOURS = {point: set() for point in POINTS}
for a, b, c in LINES:
    NEIGHBOURS[a].add(b)
    NEIGHBOURS[b].update((a, c))
    NEIGHBOURS[c].add(b)


@dataclass(frozen=True)
class Simple:
    """A position: the seat on each occupied point, the hands, the seat to move, and whether
    it owes a removal."""

    board: tuple[tuple[str, int], ...]  # sorted (point, seat) pairs
    hands: tuple[int, int]
    mover: int
    removal: bool = False

    def seats(self) -> dict[str, int]:
        """Returns the seat on each occupied point."""
        return dict(self.board)


def start() -> Simple:
    """Returns the start: an empty board, 9 pieces in each hand, seat 1 to move (DT-2)."""
    return Simple((), (9, 9), 1)


def in_a_mill(seats: dict[str, int], point: str) -> bool:
    """Returns whether the piece on `point` stands on a line of three of its own seat."""
    lines = [line for line in LINES if point in line]
    return any(all(seats.get(p) == seats[point] for p in line) for line in lines)


def owned(position: Simple, seat: int) -> int:
    """Returns the pieces a seat owns, on the board and in hand."""
    on_board = sum(1 for _, s in position.board if s == seat)
    return on_board + position.hands[seat - 1]


def legal_plies(position: Simple) -> list[tuple[str, ...]]:
    """Returns the legal plies: ("place", p), ("step", f, t) or ("remove", p)."""
    me, enemy = position.mover, 3 - position.mover
    seats = position.seats()
    if position.removal:  # DT-4
        theirs = [p for p in POINTS if seats.get(p) == enemy]
        free = [p for p in theirs if not in_a_mill(seats, p)]
        return [("remove", p) for p in (free or theirs)]
    if owned(position, me) <= 2:  # DT-5: the game is over
        return []
    empty = [p for p in POINTS if p not in seats]
    if position.hands[me - 1] > 0:  # DT-2: placement while the hand holds pieces
        return [("place", p) for p in empty]
    steps = []
    for origin in POINTS:
        if seats.get(origin) == me:
            steps += [("step", origin, to) for to in sorted(NEIGHBOURS[origin]) if to in empty]
    return steps


def apply(position: Simple, ply: tuple[str, ...]) -> Simple:
    """Returns the position after a legal ply."""
    board = dict(position.board)
    hands = list(position.hands)
    me, enemy = position.mover, 3 - position.mover
    if ply[0] == "remove":
        del board[ply[1]]
        return Simple(tuple(sorted(board.items())), position.hands, enemy)
    if ply[0] == "place":
        to = ply[1]
        hands[me - 1] -= 1
    else:
        to = ply[2]
        del board[ply[1]]
    board[to] = me
    mill = in_a_mill(board, to)  # DT-3: a line of three through the point moved to
    owes = mill and enemy in board.values()
    return Simple(tuple(sorted(board.items())), (hands[0], hands[1]), me if owes else enemy, owes)


def perft(position: Simple, depth: int) -> list[int]:
    """Returns the number of ply sequences of each length 1..depth, by plain recursion."""
    counts = [0] * depth

    def walk(node: Simple, level: int) -> None:
        if level == depth:
            return
        for ply in legal_plies(node):
            counts[level] += 1
            walk(apply(node, ply), level + 1)

    walk(position, 0)
    return counts
