"""`drts scenario run`: a readable diff for every mismatch and a non-zero exit."""

import json

from click.testing import CliRunner

from cli.main import main

GOOD = {
    "description": "DW-3: the first troop may go in district G",
    "ruleset": "district_war",
    "seats": 2,
    "movements": [
        {"orders": {"2": ["first 1"]}},
        {"orders": {"1": ["c5"]}, "expect": {"state": {"cells": {"c5": 1}}, "to_move": [2]}},
    ],
}


def write(tmp_path, name, scenario):
    path = tmp_path / name
    path.write_text(json.dumps(scenario))
    return str(path)


def test_a_passing_scenario_exits_zero(tmp_path):
    result = CliRunner().invoke(main, ["scenario", "run", write(tmp_path, "good.json", GOOD)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok") and "1 passed, 0 failed" in result.output


def test_a_mismatch_prints_a_diff_and_exits_one(tmp_path):
    bad = json.loads(json.dumps(GOOD))
    bad["movements"][1]["expect"] = {"state": {"cells": {"c5": 2}}, "to_move": [1]}
    result = CliRunner().invoke(main, ["scenario", "run", write(tmp_path, "bad.json", bad)])
    assert result.exit_code == 1
    assert "FAIL" in result.output
    assert "state.cells.c5 expected 2, got 1" in result.output
    assert "to_move expected [1], got [2]" in result.output


def test_an_unexpected_rejection_is_a_mismatch(tmp_path):
    bad = json.loads(json.dumps(GOOD))
    bad["movements"][1]["orders"] = {"1": ["d4", "c5"]}  # d4 is in district F (size 3)
    result = CliRunner().invoke(main, ["scenario", "run", write(tmp_path, "rej.json", bad)])
    assert result.exit_code == 1 and "unexpected rejection seat 1 order 'd4'" in result.output


def test_an_unknown_expectation_key_is_an_error_not_a_silent_pass(tmp_path):
    bad = json.loads(json.dumps(GOOD))
    bad["movements"][1]["expect"] = {"scoers": {"1": 0}}
    result = CliRunner().invoke(main, ["scenario", "run", write(tmp_path, "typo.json", bad)])
    assert result.exit_code == 1 and "unknown key(s) scoers" in result.output
