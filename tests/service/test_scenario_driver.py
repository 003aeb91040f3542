"""Scenario files play the same through the Matches application as on the pure Table."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.scenarios.runner import ScenarioError, TableDriver, run_scenario

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


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('{"orders": [{"seat": 1, "order": "1", "at_": 3}]}', "unknown key"),
        ('{"expect_events": [{"seat": 1}]}', 'each with a "type"'),
    ],
    ids=["timed-order-typo", "event-without-type"],
)
def test_a_malformed_timed_order_or_expected_event_is_refused(tmp_path, entry, message):
    path = tmp_path / "malformed.json"
    path.write_text(
        f'{{"description": "malformed", "ruleset": "toy", "seats": 2, "movements": [{entry}]}}'
    )
    with pytest.raises(ScenarioError, match=message):
        run_scenario(path, TableDriver)


def test_expected_events_are_checked_through_the_matches_application_only(
    tmp_path, through_matches
):
    """The pure rules record no events: the TableDriver leaves `expect_events` unchecked."""
    path = tmp_path / "events.json"
    path.write_text(
        '{"description": "an event that never happens", "ruleset": "toy", "seats": 2,'
        ' "movements": [{"close": false, "expect_events": [{"type": "SeatStruck"}]}]}'
    )
    assert run_scenario(path, TableDriver).passed
    assert run_scenario(path, through_matches).mismatches == [
        "movement entry 1: no event matches {'type': 'SeatStruck'} in order (no SeatStruck event)"
    ]


def test_starting_strikes_are_in_a_match_that_verifies_and_replays(through_matches):
    path = Path(__file__).parents[1] / "scenarios/district_war"
    report = run_scenario(
        path / "dw6_a_seat_starting_with_two_strikes_loses_at_its_next_overrun.json",
        through_matches,
    )
    assert report.passed, report.mismatches
    matches = through_matches.matches
    last = list(matches.match_ids())[-1]
    assert matches.verify_chain(last).ok and matches.replay(last).agrees
