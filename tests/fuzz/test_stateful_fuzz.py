"""The stateful fuzz of the HTTP API (issue 41), one test per game (games.py) on SQLite,
and one game on PostgreSQL: machine.py's rules in random order, its invariants after
every step.

In CI it runs FIXED examples of FIXED steps each, derandomized (the same cases every
run). A longer run explores new cases each time (docs/contributing.md, "The stateful
fuzz"):

    DRTS_FUZZ_EXAMPLES=300 DRTS_FUZZ_STEPS=80 .venv/bin/python -m pytest tests/fuzz \
        -p no:randomly --timeout=0
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.fuzz.games import FUZZED, FuzzGame, registered
from tests.fuzz.machine import FuzzMachine
from tests.support.postgres import new_pg_database, pg_url

CI_EXAMPLES = 5
CI_STEPS = 30
ON_POSTGRESQL = "drts_team23@2"  # the game with the most to store: eight seats, merged orders


def fuzz_settings() -> settings:
    """The fuzz's settings: CI's fixed, derandomized run, or the longer run the
    environment asks for (DRTS_FUZZ_EXAMPLES, DRTS_FUZZ_STEPS), random each time."""
    longer = "DRTS_FUZZ_EXAMPLES" in os.environ
    return settings(
        max_examples=int(os.environ.get("DRTS_FUZZ_EXAMPLES", CI_EXAMPLES)),
        stateful_step_count=int(os.environ.get("DRTS_FUZZ_STEPS", CI_STEPS)),
        derandomize=not longer,
        deadline=None,
        # the CI run replays nothing from hypothesis' database (derandomized, and shrunk
        # cases print as a test to paste); a longer run does, from the session's folder
        phases=(Phase.generate, Phase.shrink) if not longer else tuple(Phase),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        print_blob=True,
    )


def run(
    game: FuzzGame,
    new_store: Callable[[contextlib.ExitStack], str],
    folder: Path,
    store: str = "SQLite",
) -> None:
    machine = type(
        f"Fuzz_{game.key}",
        (FuzzMachine,),
        {"game": game, "new_store": staticmethod(new_store), "folder": folder, "store": store},
    )
    run_state_machine_as_test(machine, settings=fuzz_settings())


def sqlite_stores(template: str, folder: Path) -> Callable[[contextlib.ExitStack], str]:
    """Each example's store: a copy of the migrated template."""
    made = [0]

    def new(_: contextlib.ExitStack) -> str:
        made[0] += 1
        return f"sqlite:///{shutil.copyfile(template, folder / f'fuzz-{made[0]}.sqlite')}"

    return new


@pytest.mark.parametrize("game", FUZZED, ids=str)
def test_the_api_holds_under_random_commands(
    game: FuzzGame, sqlite_template: str, tmp_path: Path
) -> None:
    run(game, sqlite_stores(sqlite_template, tmp_path), tmp_path)


@pytest.mark.postgres
@pytest.mark.parametrize("game", [g for g in FUZZED if g.key == ON_POSTGRESQL], ids=str)
def test_the_api_holds_under_random_commands_on_postgresql(
    game: FuzzGame, pg_template: str, tmp_path: Path
) -> None:
    def new(stack: contextlib.ExitStack) -> str:
        return pg_url(stack.enter_context(new_pg_database("drts_fz", template=pg_template)))

    run(game, new, tmp_path, "PostgreSQL")


def test_every_registered_game_is_fuzzed() -> None:
    fuzzed = {(game.ruleset, game.version) for game in FUZZED}
    assert registered() <= fuzzed, f"no fuzz for {sorted(registered() - fuzzed)} (games.py)"


def test_every_preset_is_fuzzed_where_its_game_has_one_listed() -> None:
    """Shades' contest preset, the one the issue names, is fuzzed in both versions."""
    presets: dict[str, Any] = {}
    for game in FUZZED:
        presets.setdefault(game.key.split("/")[0], set()).add(game.preset)
    assert {"contest"} <= presets["shades@1"] and {"contest"} <= presets["shades@2"]
