"""Fixtures of the service tests: the scenario files' Matches driver, shared by a module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.scenario_driver import MatchesDriverFactory


@pytest.fixture(scope="module")
def through_matches() -> Iterator[MatchesDriverFactory]:
    """Plays scenario files through the Matches application, on one temporary SQLite store."""
    factory = MatchesDriverFactory()
    yield factory
    factory.close()
