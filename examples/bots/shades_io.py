"""The Shades bot protocol over stdin/stdout, for the example bots (shades_protocol.md).

Every message, in either direction, is one or more lines followed by a line
holding a single `.`. A bot reads the init message, answers with an empty
message, then reads a state message and answers with its commands each turn
until its stdin ends. Standard library only: copy this file beside a bot.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
MAX_COMMANDS = 100  # drts takes a reply of at most 4096 characters: about 120 commands


def messages() -> Iterator[Any]:
    """Yields each message read from stdin, as JSON (None for an empty one)."""
    lines: list[str] = []
    for line in sys.stdin:
        if line.rstrip("\r\n") == ".":
            text = "".join(lines).strip()
            lines = []
            yield json.loads(text) if text else None
        else:
            lines.append(line)


def reply(message: Any) -> None:
    """Writes a message to stdout (nothing but the `.` line for None) and flushes it."""
    if message is not None:
        sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.write(".\n")
    sys.stdout.flush()


class Board:
    """The map of the init message: its size and its water squares."""

    def __init__(self, init: Any) -> None:
        board = init["map"]
        self.width, self.height = board["width"], board["height"]
        self.water = {(p["x"], p["y"]) for p in board["water_tiles"]}
        self.me = init["my_id"]

    def neighbours(self, square: tuple[int, int]) -> list[tuple[int, int]]:
        """Returns the squares one step N, E, S, W of `square` that a shade may enter."""
        x, y = square
        steps = ((x + dx, y + dy) for dx, dy in STEPS.values())
        return [
            (nx, ny)
            for nx, ny in steps
            if 0 <= nx < self.width and 0 <= ny < self.height and (nx, ny) not in self.water
        ]


def own_shades(state: Any, me: int) -> list[tuple[int, tuple[int, int]]]:
    """Returns (id, square) of my shades in a state message, by id."""
    ants = state["alive_ants"].values()
    mine = [(a["id"], (a["position"]["x"], a["position"]["y"])) for a in ants if a["owner"] == me]
    return sorted(mine)


def command(shade: int, target: tuple[int, int]) -> dict[str, Any]:
    """Returns one command of the reply: shade `shade` to square `target`."""
    return {"id": shade, "target": {"x": target[0], "y": target[1]}}


def play(decide: Callable[[Board, Any], list[dict[str, Any]]]) -> None:
    """Plays a whole match: `decide(board, state)` gives each turn's commands."""
    stream = messages()
    board = Board(next(stream))
    reply(None)
    for state in stream:
        reply({"data": decide(board, state)[:MAX_COMMANDS]})
