"""Helpers of the Dris et-Tessa tests: the fast engine's positions and plies in the simple
generator's terms, and random positions reached by random plies."""

from __future__ import annotations

from domain.rules.dris_et_tessa.board import NAMES, points_of
from domain.rules.dris_et_tessa.engine import START, Position, play, plies
from domain.rules.rng import Rng
from tests.unit.rules.dris_et_tessa.simple import Simple


def to_simple(position: Position) -> Simple:
    """Returns the simple generator's form of a fast engine position."""
    board = {NAMES[p]: seat for seat in (1, 2) for p in points_of(position.boards[seat - 1])}
    return Simple(tuple(sorted(board.items())), position.hands, position.mover, position.removal)


def simple_ply(ply: int) -> tuple[str, ...]:
    """Returns the simple generator's form of a fast engine ply."""
    if ply & 1024:
        return ("remove", NAMES[ply & 31])
    if ply < 32:
        return ("place", NAMES[ply])
    return ("step", NAMES[(ply >> 5) - 1], NAMES[ply & 31])


def random_position(seed: str, most: int, removal: bool = False) -> Position:
    """Returns the position after a random number (0..most) of uniformly random plies,
    stopping early where the game ends; with `removal`, playing on until one is owed."""
    rng = Rng(seed, 0)
    position = START
    count = rng.between(0, most)
    while moves := plies(position):
        if count <= 0 and (position.removal or not removal):
            break
        position = play(position, rng.choice(moves))
        count -= 1
    return position
