"""Dris et-Tessa's ply generator on bitboards: legal plies, their effect, perft, random games.

A ply is one placement, one step or one removal. A turn is one placement or
step of the seat to move, and when that ply forms a mill, the removal that
follows it, a ply of the same seat (DT-3). Rulings applied:

- DT-2: a seat with pieces in hand places one on an empty point; a seat
  whose hand is empty steps a piece to an adjacent empty point (no flying);
- DT-3: a placement or step filling a line of three own pieces through the
  point moved to gives one removal, even for two lines at once;
- DT-4: the removal takes an enemy piece on no enemy line of three, or any
  enemy piece when all stand on such lines;
- DT-5: at the start of each turn the game is over if the seat to move owns
  two pieces or fewer (board and hand) or has no legal ply: the other seat
  has won, at the end of its turn.

DT-6 (the service's draw) is not a rule of play: `random_game` applies it on
request, perft never does. When a mill forms while the enemy has no piece on
the board (only possible in a set-up position) there is nothing to remove
and the turn ends.

Plies are ints: a placement on point t is `t`, a step from f to t is
`(f + 1) << 5 | t`, a removal of point p is `REMOVE | p` (points are the bit
indices of board.py). The hot loops work on the mover's and the enemy's masks
and hands, and inline the board's shifts where a call would cost more than
the work.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from domain.rules.dris_et_tessa.board import (
    FULL,
    LINES_AT,
    SHIFTS,
    STEP_FROM,
    anticlockwise,
    clockwise,
    in_mills,
    inwards,
    nth_point,
    outwards,
    points_of,
)

PIECES = 9  # DT-2: pieces per seat
REMOVE = 1 << 10
MAX_TURNS = 100_000  # where `random_game` stops a game the draw rule does not end
# STEP_CODE[d][t]: the ply stepping in direction d to t (meaningless where STEP_FROM is -1).
STEP_CODE: tuple[tuple[int, ...], ...] = tuple(
    tuple((origin + 1) << 5 | t for t, origin in enumerate(row)) for row in STEP_FROM
)


class Position(NamedTuple):
    """A position between plies: the seats' masks and hands, the seat to move, and whether
    it owes the removal of a mill it has just formed (DT-3)."""

    boards: tuple[int, int]  # seat 1's points, seat 2's points
    hands: tuple[int, int]  # pieces not yet placed, seat 1 and seat 2
    mover: int  # 1 or 2
    removal: bool = False


START = Position((0, 0), (PIECES, PIECES), 1)


class Game(NamedTuple):
    """A random game's end: `result` is the winning seat, 0 for a draw (DT-6), -1 for a game
    stopped at the turn limit; with the plies and turns it lasted."""

    result: int
    plies: int
    turns: int


def plies(position: Position) -> list[int]:
    """Returns the legal plies of the seat to move (none once the game is over, DT-5)."""
    me, opp, hand = _mover_view(position)
    return _plies(me, opp, hand, position.removal)


def count_plies(position: Position) -> int:
    """Returns how many legal plies the seat to move has (0 once the game is over)."""
    me, opp, hand = _mover_view(position)
    return _count(me, opp, hand, position.removal)


def play(position: Position, ply: int) -> Position:
    """Returns the position after a ply, which must be legal in `position`."""
    boards, hands = list(position.boards), list(position.hands)
    seat = position.mover - 1
    if ply & REMOVE:
        boards[1 - seat] ^= 1 << (ply & 31)
        return Position((boards[0], boards[1]), position.hands, 3 - position.mover)
    target = ply & 31
    if ply >> 5:
        boards[seat] ^= 1 << ((ply >> 5) - 1)
    else:
        hands[seat] -= 1
    boards[seat] |= 1 << target
    owes = forms_mill(boards[seat], target) and boards[1 - seat] != 0
    mover = position.mover if owes else 3 - position.mover
    return Position((boards[0], boards[1]), (hands[0], hands[1]), mover, owes)


def forms_mill(mask: int, point: int) -> bool:
    """Returns whether `mask` fills a line of three through `point` (DT-3)."""
    first, second = LINES_AT[point]
    return (mask & first) == first or (mask & second) == second


def removable(enemy: int) -> int:
    """Returns the enemy points a removal may take: those on no enemy line of three, or all
    when every enemy piece stands on one (DT-4)."""
    return enemy & ~in_mills(enemy) or enemy


def winner(position: Position) -> int | None:
    """Returns the seat that has won (DT-5: the seat to move, at the start of its turn, owns
    two pieces or fewer or cannot move), or None while the game goes on."""
    if position.removal:
        return None
    me, opp, hand = _mover_view(position)
    if me.bit_count() + hand <= 2 or not _count(me, opp, hand, False):
        return 3 - position.mover
    return None


def perft(position: Position, depth: int) -> list[int]:
    """Returns the number of ply sequences from `position` of each length 1..depth."""
    counts = [0] * depth
    if depth > 0:
        me, opp, hand = _mover_view(position)
        other = position.hands[2 - position.mover]
        _perft(me, opp, hand, other, position.removal, 0, depth, counts)
    return counts


def _mover_view(position: Position) -> tuple[int, int, int]:
    seat = position.mover - 1
    return position.boards[seat], position.boards[1 - seat], position.hands[seat]


def _plies(me: int, opp: int, hand: int, removal: bool) -> list[int]:
    if removal:
        return [REMOVE | p for p in points_of(removable(opp))]
    if me.bit_count() + hand <= 2:
        return []  # DT-5: the game is over
    empty = FULL ^ me ^ opp
    if hand:
        return list(points_of(empty))
    found: list[int] = []
    for (shift, _), codes in zip(SHIFTS, STEP_CODE, strict=True):
        found += [codes[t] for t in points_of(shift(me) & empty)]
    return found


def _count(me: int, opp: int, hand: int, removal: bool) -> int:
    if removal:
        return removable(opp).bit_count()
    if me.bit_count() + hand <= 2:
        return 0
    empty = FULL ^ me ^ opp
    if hand:
        return empty.bit_count()
    return (
        (clockwise(me) & empty).bit_count()
        + (anticlockwise(me) & empty).bit_count()
        + (inwards(me) & empty).bit_count()
        + (outwards(me) & empty).bit_count()
    )


def _perft(
    me: int,
    opp: int,
    hand: int,
    other: int,
    removal: bool,
    level: int,
    depth: int,
    counts: list[int],
) -> None:
    if level + 1 == depth:
        counts[level] += _count(me, opp, hand, removal)
        return
    moves = _plies(me, opp, hand, removal)
    counts[level] += len(moves)
    deeper = level + 1
    if removal:
        for ply in moves:
            _perft(opp ^ (1 << (ply & 31)), me, other, hand, False, deeper, depth, counts)
        return
    if hand:
        hand -= 1
    for ply in moves:
        target = ply & 31
        after = me | 1 << target if ply < 32 else me ^ (1 << ((ply >> 5) - 1) | 1 << target)
        first, second = LINES_AT[target]
        if ((after & first) == first or (after & second) == second) and opp:
            _perft(after, opp, hand, other, True, deeper, depth, counts)
        else:
            _perft(opp, after, other, hand, False, deeper, depth, counts)


def random_game(
    below: Callable[[int], int],
    draw_turns: int = 100,
    max_turns: int = MAX_TURNS,
    record: list[int] | None = None,
) -> Game:
    """Plays a game from the start with uniformly random plies and returns how it ended.

    `below(n)` draws an integer in [0, n); `draw_turns` turns in a row without
    a removal draw the game (DT-6; 0: never), `max_turns` stops it; `record`,
    if given, receives every ply. Each ply is chosen uniformly among the legal
    ones, as a random playout of the Ludii engine does.
    """
    me = opp = 0
    hand = other = PIECES
    mover, quiet, turns, count = 1, 0, 0, 0
    while True:
        empty = FULL ^ me ^ opp
        if hand:
            target = nth_point(empty, below(empty.bit_count()))
            ply = target
            me |= 1 << target
            hand -= 1
        else:
            ply = _random_step(me, empty, below)
            target = ply & 31
            me ^= 1 << ((ply >> 5) - 1) | 1 << target
        count += 1
        if record is not None:
            record.append(ply)
        first, second = LINES_AT[target]
        if ((me & first) == first or (me & second) == second) and opp:
            free = opp & ~in_mills(opp) or opp  # DT-4
            point = nth_point(free, below(free.bit_count()))
            opp ^= 1 << point
            count += 1
            quiet = 0
            if record is not None:
                record.append(REMOVE | point)
        else:
            quiet += 1
        turns += 1
        if _is_beaten(opp, other, FULL ^ me ^ opp):
            return Game(mover, count, turns)
        if draw_turns and quiet >= draw_turns:
            return Game(0, count, turns)
        if turns == max_turns:
            return Game(-1, count, turns)
        me, opp, hand, other, mover = opp, me, other, hand, 3 - mover


def _random_step(me: int, empty: int, below: Callable[[int], int]) -> int:
    # The four shifts of board.py, inlined: this runs on most plies of a game.
    ahead = (((me << 1) & 0xFEFEFE) | ((me >> 7) & 0x010101)) & empty
    back = (((me >> 1) & 0x7F7F7F) | ((me << 7) & 0x808080)) & empty
    inner = ((me & 0x00AAAA) << 8) & empty
    outer = ((me & 0xAAAA00) >> 8) & empty
    k = below(ahead.bit_count() + back.bit_count() + inner.bit_count() + outer.bit_count())
    for targets, codes in zip((ahead, back, inner, outer), STEP_CODE, strict=True):
        size = targets.bit_count()
        if k < size:
            return codes[nth_point(targets, k)]
        k -= size
    raise AssertionError("a seat to move always has a step here (DT-5)")


def _is_beaten(enemy: int, hand: int, empty: int) -> bool:
    """Returns whether the seat with `enemy` and `hand` has lost (DT-5) with `empty` free."""
    if enemy.bit_count() + hand <= 2:
        return True
    if hand:
        return not empty
    reach = clockwise(enemy) | anticlockwise(enemy) | inwards(enemy) | outwards(enemy)
    return not reach & empty
