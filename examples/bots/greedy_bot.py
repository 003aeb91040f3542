#!/usr/bin/env python3
"""A Shades bot that walks each shade towards the nearest human or enemy tomb (by a
breadth-first search around water), never sending two of its shades to one square
(they would collide and die, SH-3): `python3 examples/bots/greedy_bot.py`."""

from __future__ import annotations

from collections import deque
from typing import Any

from shades_io import Board, command, own_shades, play

Square = tuple[int, int]


def goals(board: Board, state: Any) -> set[Square]:
    """Returns the squares worth walking to: humans and the tombs of other seats."""
    humans = {(f["position"]["x"], f["position"]["y"]) for f in state["alive_food"]}
    tombs = {
        (h["position"]["x"], h["position"]["y"])
        for h in state["alive_hills"]
        if h["owner"] != board.me
    }
    return humans | tombs


def first_step(board: Board, start: Square, targets: set[Square]) -> Square:
    """Returns the first square on a shortest path from `start` to a target (start if none)."""
    if start in targets:
        return start
    came: dict[Square, Square] = {start: start}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        for near in board.neighbours(square):
            if near in came:
                continue
            came[near] = square
            if near in targets:
                while came[near] != start:
                    near = came[near]
                return near
            queue.append(near)
    return start


def decide(board: Board, state: Any) -> list[dict[str, Any]]:
    """Returns a step towards the nearest goal for each of my shades, one shade a square."""
    targets = goals(board, state)
    mine = own_shades(state, board.me)
    taken = {square for _, square in mine}  # a shade that cannot move stays where it is
    commands = []
    for shade, square in mine:
        step = first_step(board, square, targets)
        if step != square and step not in taken:
            taken.discard(square)
            taken.add(step)
            commands.append(command(shade, step))
    return commands


if __name__ == "__main__":
    play(decide)
