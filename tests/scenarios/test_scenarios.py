"""Every scenario file under tests/scenarios/ plays and meets its expectations."""

from pathlib import Path

import pytest

from service.scenarios.driver import matches_driver
from service.scenarios.runner import run_scenario

FILES = sorted(Path(__file__).parent.glob("*/*.json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_scenario(path):
    report = run_scenario(path, matches_driver())
    assert report.passed, "\n".join([report.description, *report.mismatches])
