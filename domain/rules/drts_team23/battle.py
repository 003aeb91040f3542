"""Capturability (DRTS-7) and the battles of step 6 (DRTS-9) of DRTS Team 23.

A battle is computed from the pieces where they stand after the moves, with
the teams as step 1 left them. It only says who captures whom; `scoring`
turns the captures into points (DRTS-10).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from domain.rules.drts_team23.state import Kind, Piece, Squares, occupancy

# DRTS-7: Plant beats Water, Water beats Fire, Fire beats Plant.
_BEATS = {Kind.PLANT: Kind.WATER, Kind.WATER: Kind.FIRE, Kind.FIRE: Kind.PLANT}


class Case(StrEnum):
    """Why a capture happened (DRTS-9)."""

    KIND = "kind"  # kind advantage: the winner captures the loser
    SAME_KIND = "same_kind"  # same kind, both moved in or both held: both captured
    MOVER = "mover"  # same kind, exactly one moved in: the mover captures the holder
    STAR = "star"  # v2: a Star captures a non-Star (DRTS-7, DRTS-9)
    STARS = "stars"  # v2: two Stars, both moved in or both held: both captured (DRTS-9)
    STAR_MOVER = "star_mover"  # v2: two Stars, exactly one moved in: it captures the holder


@dataclass(frozen=True)
class Capture:
    """One (capturer, victim) pair of a battle, as piece indices into `State.pieces`."""

    square: int
    capturer: int
    victim: int
    case: Case


def beats(attacker: Kind, target: Kind) -> bool:
    """Returns whether `attacker`'s kind has the advantage over `target`'s (DRTS-7)."""
    return _BEATS[attacker] is target


def can_capture(attacker: Kind, target: Kind) -> bool:
    """Returns whether a piece of kind `attacker` can capture one of kind `target` (DRTS-7).

    Same kinds can capture each other; without Stars, that and the kind
    advantage are the whole rule (`can_capture_piece` adds the Stars).
    """
    return attacker is target or _BEATS[attacker] is target


def can_capture_piece(attacker: Kind, attacker_star: bool, target: Kind, target_star: bool) -> bool:
    """Returns whether a piece can capture another, Star status included (DRTS-7): if exactly
    one is a Star only the Star captures; two Stars can capture each other whatever their
    kinds; otherwise `can_capture`."""
    if attacker_star or target_star:
        return attacker_star
    return can_capture(attacker, target)


def battles(
    pieces: Sequence[Piece],
    sides: Sequence[int],
    moved: Collection[int],
    stars: Collection[int] = (),
    squares: Squares | None = None,
) -> tuple[Capture, ...]:
    """Returns every capture of step 6 (DRTS-9), by square, then by pair in piece order.

    `sides[seat - 1]` is the seat's side (its team, or itself while teamless);
    `moved` holds the indices of the pieces that moved in this movement
    (a recovered piece counts as moved in, DRTS-18). On each square every pair
    of pieces of different sides is evaluated at once, so a captured piece
    still makes its own captures. `stars` holds the indices of the pieces with
    Star status (v2; DRTS-7, DRTS-9). `squares` is `occupancy(pieces)` when the caller has it.
    """
    if squares is None:
        squares = occupancy(tuple(pieces))
    captures: list[Capture] = []
    for square, indices in sorted(squares.items()):
        if len(indices) < 2 or len({sides[pieces[i].seat - 1] for i in indices}) < 2:
            continue
        for first, second in combinations(indices, 2):
            if sides[pieces[first].seat - 1] != sides[pieces[second].seat - 1]:
                captures.extend(_pair(square, first, second, pieces, moved, stars))
    return tuple(captures)


def _pair(
    square: int,
    first: int,
    second: int,
    pieces: Sequence[Piece],
    moved: Collection[int],
    stars: Collection[int],
) -> tuple[Capture, ...]:
    first_star, second_star = first in stars, second in stars
    if first_star != second_star:  # DRTS-9: Star vs non-Star, the Star captures
        winner, loser = (first, second) if first_star else (second, first)
        return (Capture(square, winner, loser, Case.STAR),)
    if first_star:  # DRTS-9: Star vs Star, kinds do not matter: as the same kind
        return _same(square, first, second, moved, Case.STARS, Case.STAR_MOVER)
    kind_first, kind_second = pieces[first].kind, pieces[second].kind
    if kind_first is not kind_second:
        if beats(kind_first, kind_second):
            return (Capture(square, first, second, Case.KIND),)
        return (Capture(square, second, first, Case.KIND),)
    return _same(square, first, second, moved, Case.SAME_KIND, Case.MOVER)


def _same(
    square: int, first: int, second: int, moved: Collection[int], both: Case, mover: Case
) -> tuple[Capture, ...]:
    first_moved, second_moved = first in moved, second in moved
    if first_moved and not second_moved:  # DRTS-8/9: the mover captures the holder
        return (Capture(square, first, second, mover),)
    if second_moved and not first_moved:
        return (Capture(square, second, first, mover),)
    return (Capture(square, first, second, both), Capture(square, second, first, both))
