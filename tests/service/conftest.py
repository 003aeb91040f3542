"""Fixtures of the service tests: the scenario files' Matches driver, shared by a module;
match archives played once a session (docs/archive.md); the fragile toy ruleset
registered for a test."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator

import pytest

from domain.rules import registry
from service.clock import ManualClock
from service.matches import Matches
from service.scenarios.driver import MatchesDriverFactory
from tests.corpus.plays import Desk
from tests.support.archives import finished_district_war, open_drts, opened
from tests.support.quarantine import BROKEN


@pytest.fixture(scope="module")
def through_matches() -> Iterator[MatchesDriverFactory]:
    """Plays scenario files through the Matches application, on one temporary SQLite store."""
    factory = MatchesDriverFactory()
    yield factory
    factory.close()


def _archive_of(template: str, directory: str, play: Callable[[Matches, ManualClock], Desk]) -> str:
    """Returns, as JSON text, the archive of a match played on a new SQLite store (the
    referee's full form when it is unfinished)."""
    url = f"sqlite:///{shutil.copyfile(template, f'{directory}/archive.sqlite')}"
    app = opened(url, ManualClock())
    try:
        desk = play(app, app.clock)  # type: ignore[arg-type]
        return json.dumps(app.export_archive(desk.id, desk.referee))
    finally:
        app.close()


@pytest.fixture(scope="session")
def dw_archive_text(sqlite_template: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The archive of a finished District War match (public form), played once, as text."""
    return _archive_of(sqlite_template, str(tmp_path_factory.mktemp("dw")), finished_district_war)


@pytest.fixture(scope="session")
def open_drts_archive_text(sqlite_template: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The full-form archive of a DRTS Team 23 match with orders sealed in its open
    movement, played once, as text."""
    return _archive_of(sqlite_template, str(tmp_path_factory.mktemp("drts")), open_drts)


@pytest.fixture
def fragile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.REGISTRY, "toy_fragile", {1: BROKEN})
