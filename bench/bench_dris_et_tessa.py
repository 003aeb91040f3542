"""Benchmark: Dris et-Tessa random games per second and perft nodes per second, on one core.

Figures for the fast ply generator (domain/rules/dris_et_tessa/engine.py,
bitboards as Python ints), for the same games through the ruleset contract
(`random_order` + `resolve`, what the service runs), and for the
deliberately simple generator of the tests (tests/unit/rules/dris_et_tessa/
simple.py). A random game plays uniformly random plies from the start to
its end, as a random playout of the Ludii engine does; the game statistics
(plies a game, results) are printed with the DT-6 draw rule (the service's)
and without it (the rules as Ludii plays them). Pins the process to one core
where the system allows it. Prints figures and never fails.

Run: .venv/bin/python bench/bench_dris_et_tessa.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.rules.dris_et_tessa import RULESET
from domain.rules.dris_et_tessa.engine import START, Game, perft, random_game
from domain.rules.rng import Rng
from tests.unit.rules.dris_et_tessa import simple

Below = Callable[[int], int]


def pin_to_one_core() -> str:
    """Pins the process to its first allowed core; returns which, or why not."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return f"pinned to core {core}"


def float_below(seed: int) -> Below:
    """Returns a fast `below(n)` from a seeded Mersenne Twister (bias below 2**-40)."""
    draw = random.Random(seed).random
    return lambda n: int(draw() * n)


def rate(play: Callable[[int], Game], seconds: float) -> tuple[float, list[Game]]:
    """Returns (games a second, the games) of `play(index)` repeated for `seconds`."""
    games: list[Game] = []
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        games.append(play(len(games)))
    return len(games) / (time.perf_counter() - began), games


def simple_game(rnd: random.Random, draw_turns: int) -> Game:
    """Plays a uniformly random game with the simple generator."""
    position, plies, turns, quiet = simple.start(), 0, 0, 0
    while moves := simple.legal_plies(position):
        ply = moves[int(rnd.random() * len(moves))]
        removing, mover = ply[0] == "remove", position.mover
        position = simple.apply(position, ply)
        plies += 1
        if position.mover != mover:  # the turn is over
            turns += 1
            quiet = 0 if removing else quiet + 1
            if draw_turns and quiet >= draw_turns and simple.legal_plies(position):
                return Game(0, plies, turns)
    return Game(3 - position.mover, plies, turns)


def contract_game(seed: int, draw_turns: int) -> Game:
    """Plays a random game through the ruleset contract, as the service's bots would."""
    config = RULESET.validate_config({"draw_turns": draw_turns})
    state = RULESET.initial_state(config, 2, Rng(f"bench-{seed}", 0))
    rng = Rng(f"bench-{seed}", 1)
    plies = 0
    while not (outcome := RULESET.outcome(state)).finished:
        seat = state.position.mover
        order = RULESET.random_order(state, seat, rng)
        state, _ = RULESET.resolve(state, [(seat, order)], rng)
        plies += 1 + (order.remove is not None)
    return Game(outcome.winners[0] if outcome.winners else 0, plies, state.turn)


def describe(games: list[Game]) -> str:
    """Returns the mean plies and turns of the games and how they ended."""
    results = Counter(game.result for game in games)
    plies = statistics.mean(game.plies for game in games)
    turns = statistics.mean(game.turns for game in games)
    return (
        f"{plies:.1f} plies ({turns:.1f} turns) a game; seat 1 won {results[1]}, "
        f"seat 2 {results[2]}, drawn {results[0]}, stopped {results[-1]}"
    )


def games_section(seconds: float) -> None:
    """Prints random games a second of each generator, with and without the draw rule."""
    runs = [
        ("fast, float draws", lambda i: random_game(float_below(i), 100)),
        ("fast, Rng draws", lambda i: random_game(Rng(f"bench-{i}", 0).below, 100)),
        ("ruleset contract", lambda i: contract_game(i, 100)),
        ("simple generator", lambda i: simple_game(random.Random(i), 100)),
        ("fast, no DT-6", lambda i: random_game(float_below(i), 0)),
    ]
    print("random games, uniformly random plies (DT-6 draw after 100 quiet turns unless said)")
    for name, play in runs:
        per_second, games = rate(play, seconds)
        print(f"  {name:<18} {per_second:>8.0f} games/s  ({len(games)} games: {describe(games)})")


def perft_section() -> None:
    """Prints perft nodes a second from the start for the fast and the simple generator."""
    print("perft from the start (a placement, a step, a removal: one ply each)")
    for depth in (5, 6):
        began = time.perf_counter()
        counts = perft(START, depth)
        seconds = time.perf_counter() - began
        played = sum(counts[:-1])
        print(
            f"  fast   depth {depth}: {counts[-1]:>11,} in {seconds:6.2f} s = "
            f"{sum(counts) / seconds / 1e6:6.2f} M sequences/s (the last ply counted, not "
            f"played), {played / seconds / 1e6:.2f} M positions played/s"
        )
    began = time.perf_counter()
    counts = simple.perft(simple.start(), 4)
    seconds = time.perf_counter() - began
    print(
        f"  simple depth 4: {counts[-1]:>11,} in {seconds:6.2f} s = "
        f"{sum(counts) / seconds / 1e6:6.2f} M sequences/s (every ply played)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per figure")
    args = parser.parse_args()
    print(f"dris_et_tessa, Python {sys.version.split()[0]}, {pin_to_one_core()}")
    games_section(args.seconds)
    perft_section()


if __name__ == "__main__":
    main()
