"""The matrix's session: every stage of every game built once (lazily, on first use) in a
store of its own, one Flask app reading whichever stage a cell reads, the `drts` command
on that stage's application, and the matrix's figures printed at the end."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from api.app import create_app
from service.matches import Matches
from service.settings import Settings
from tests.matrix.games import Game, games
from tests.matrix.stages import OPERATOR, Stage, build

FIGURES: dict[str, Any] = {"cells": 0, "copies": 0, "built": 0, "build_seconds": 0.0}
APP_CONFIG = {
    "TESTING": True,
    "DRTS_LONG_POLL_MAX_SECONDS": 1,
    "DRTS_STREAM_MAX_SECONDS": 0.3,
    "DRTS_RATE_LIMIT_PER_ADDRESS": 0,  # the matrix reads far faster than a client may
    "DRTS_RATE_LIMIT_PER_TOKEN": 0,
    "DRTS_OPERATOR_TOKEN": OPERATOR,
}


class Stages:
    """The session's stages, each built on first use and kept."""

    def __init__(self, template: str, folder: Path) -> None:
        self.template, self.folder = template, folder
        self.games = {game.key: game for game in games()}
        self.built: dict[tuple[str, str], Stage] = {}

    def get(self, game: str, name: str) -> Stage:
        key = (game, name)
        if key not in self.built:
            started = time.perf_counter()
            self.built[key] = build(self.games[game], name, self.template, self.folder)
            FIGURES["built"] += 1
            FIGURES["build_seconds"] += time.perf_counter() - started
        return self.built[key]

    def game(self, key: str) -> Game:
        return self.games[key]

    def close(self) -> None:
        for stage in self.built.values():
            stage.app.close()


@pytest.fixture(scope="session")
def stages(sqlite_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stages]:
    built = Stages(sqlite_template, tmp_path_factory.mktemp("matrix"))
    yield built
    built.close()


@pytest.fixture(scope="session")
def flask_app() -> Iterator[Flask]:
    """The app every cell reads through (its Matches application swapped to the stage's)."""
    placeholder = Matches(env=Settings("memory://").event_store_env(), operator_token=OPERATOR)
    yield create_app(APP_CONFIG, matches=placeholder)
    placeholder.close()


class Borrowed:
    """A stage's application lent to one `drts` command: the command's close is a no-op."""

    def __init__(self, app: Matches) -> None:
        self._app = app

    def __getattr__(self, name: str) -> Any:
        return getattr(self._app, name)

    def close(self) -> None:
        """The stage keeps its application open for the next cell."""


@pytest.fixture(scope="session")
def cli_on() -> Any:
    """Returns a context manager under which `drts` commands open a stage's application
    (cli/store.py's `connect`, lent while the block runs: a patch left for the session
    would reach the tests run after the matrix)."""

    @contextlib.contextmanager
    def on(stage: Stage) -> Iterator[None]:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("cli.store.connect", lambda *args, **kwargs: Borrowed(stage.app))
            yield

    return on


@pytest.fixture(scope="session", autouse=True)
def matrix_clock() -> Iterator[None]:
    started = time.perf_counter()
    yield
    FIGURES["seconds"] = time.perf_counter() - started


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Prints the matrix's figures: cells run and listed, stages built, time spent."""
    if not FIGURES["cells"]:
        return
    terminalreporter.write_line(
        f"matrix: {FIGURES['cells']} cells run ({FIGURES['copies']} of them on a copy of "
        f"their stage), {FIGURES.get('listed', 0)} listed as not run; "
        f"{FIGURES['built']} stages built in {FIGURES['build_seconds']:.1f} s; "
        f"{FIGURES.get('seconds', 0):.1f} s in all"
    )
    spent = ", ".join(f"{kind} {seconds:.1f} s" for kind, seconds in FIGURES["by_kind"].items())
    terminalreporter.write_line(f"matrix: reading by surface kind (builds included): {spent}")
