"""Scenario files play the same through the Matches application as on the pure Table."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.scenarios import TableDriver, run_scenario

pytestmark = pytest.mark.usefixtures("toy_rulesets")

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_toy_scenario_passes_through_the_matches_application(path, through_matches):
    report = run_scenario(path, through_matches)
    assert report.passed, "\n".join([report.description, *report.mismatches])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_toy_scenario_passes_on_the_table_too(path):
    report = run_scenario(path, TableDriver)
    assert report.passed, "\n".join([report.description, *report.mismatches])


def test_the_scenario_matches_are_real_matches_that_verify(through_matches):
    run_scenario(FILES[0], through_matches)
    matches = through_matches.matches
    last = list(matches.match_ids())[-1]
    assert matches.verify_chain(last).ok and matches.replay(last).agrees


def test_a_refused_referee_action_must_be_expected(tmp_path):
    path = tmp_path / "refused.json"
    path.write_text(
        '{"description": "an action nobody expected to fail", "ruleset": "toy_ref", "seats": 2,'
        ' "movements": [{"actions": [{"action": "smite", "args": {}}], "close": false}]}'
    )
    report = run_scenario(path, TableDriver)
    assert report.mismatches == [
        "movement entry 1: unexpected rejection referee action 'smite': unknown_action: "
        "toy_ref has no referee action 'smite' (its actions: grant)"
    ]
