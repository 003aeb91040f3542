#!/usr/bin/env python3
"""A Shades bot that moves every shade one random step (or lets it stay), never onto
water or off the map: `python3 examples/bots/random_bot.py [SEED]`."""

from __future__ import annotations

import random
import sys
from typing import Any

from shades_io import Board, command, own_shades, play

rng = random.Random(sys.argv[1] if len(sys.argv) > 1 else None)


def decide(board: Board, state: Any) -> list[dict[str, Any]]:
    """Returns a random step for each of my shades; a shade drawn to stay is not listed."""
    commands = []
    for shade, square in own_shades(state, board.me):
        target = rng.choice([square, *board.neighbours(square)])
        if target != square:
            commands.append(command(shade, target))
    return commands


if __name__ == "__main__":
    play(decide)
