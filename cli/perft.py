"""`drts perft RULESET DEPTH [--position P]`: counts a game's ply sequences, depth by depth.

Perft ("performance test") counts the sequences of plies of each length from a
position; two move generators that agree on these counts agree on the rules,
and the counts compare with other engines'. For Dris et-Tessa a placement, a
step and a removal are each one ply (a removal is a ply of the seat whose
mill gave it); positions are written in the game's position notation
(docs/games/dris_et_tessa.md). Only games with a ply generator have perft.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from domain.errors import InvalidStateError
from domain.rules.dris_et_tessa import engine as dris_et_tessa
from domain.rules.dris_et_tessa import notation as dris_et_tessa_notation

MAX_DEPTH = 64  # a guard against typos: depth 9 already takes hours


@dataclass(frozen=True)
class Perft:
    """A game's perft: its position notation (read and written) and its counter."""

    parse: Callable[[str], Any]
    format: Callable[[Any], str]
    count: Callable[[Any, int], list[int]]


GAMES: dict[str, Perft] = {
    "dris_et_tessa": Perft(
        dris_et_tessa_notation.parse_position,
        dris_et_tessa_notation.format_position,
        dris_et_tessa.perft,
    ),
}


@click.command("perft")
@click.argument("ruleset")
@click.argument("depth", type=click.IntRange(1, MAX_DEPTH))
@click.option(
    "--position",
    "-p",
    default="start",
    show_default=True,
    help="the position in the game's notation (quote it: it holds spaces)",
)
def perft(ruleset: str, depth: int, position: str) -> None:
    """Prints the number of ply sequences of each length 1..DEPTH from a position."""
    game = GAMES.get(ruleset)
    if game is None:
        known = ", ".join(sorted(GAMES))
        raise click.BadParameter(
            f"no perft for {ruleset!r} (games with perft: {known})", param_hint="'RULESET'"
        )
    try:
        start = game.parse(position)
    except InvalidStateError as error:
        raise click.BadParameter(str(error), param_hint="'--position'") from None
    click.echo(f"perft {ruleset} from {game.format(start)}")
    began = time.perf_counter()
    nodes = 0
    for level in range(1, depth + 1):
        # One search per depth, so each line shows as soon as it is known; the last search
        # costs ~20 times all the earlier ones together.
        count = game.count(start, level)[-1]
        nodes += count
        click.echo(f"depth {level}: {count}")
    seconds = time.perf_counter() - began
    click.echo(f"{nodes} sequences counted in {seconds:.2f} s")
