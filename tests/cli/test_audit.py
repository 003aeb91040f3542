"""`drts match audit` (issue 17): a match re-adjudicated from the shell, in words or JSON;
exit 1 naming the first divergence."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from domain.rules import registry
from domain.rules.contract import Step
from domain.rules.registry import get_ruleset
from domain.rules.rng import Rng
from tests.support.cli import created


def played(drts) -> tuple[str, str]:
    match_id, referee, alice, bob = created(drts)
    drts("start", match_id, "--referee-token", referee)
    drts("order", match_id, "first 1", "--token", bob)
    for seat, cell in ((alice, "e4"), (bob, "b4"), (alice, "g4"), (bob, "g1")):
        drts("order", match_id, cell, "--token", seat)
    return match_id, referee


def test_a_finished_match_re_adjudicates_exactly(drts):
    match_id, _ = played(drts)
    out = drts("audit", match_id).output
    assert f"match {match_id} under district_war v1: 5 resolved movement(s)" in out
    assert "exact: every step, state hash and outcome is the stored one" in out
    report = json.loads(drts("audit", match_id, "--json").output)
    assert report["exact"] and report["divergence"] is None and report["movements"] == 5


def test_a_running_match_needs_the_referee_token(drts):
    match_id, referee, alice, _ = created(drts)
    drts("start", match_id, "--referee-token", referee)
    assert "missing_token" in drts("audit", match_id, ok=False).output
    assert "not_referee" in drts("audit", match_id, "--token", alice, ok=False).output
    assert "exact" in drts("audit", match_id, "--token", referee).output
    assert "SecretViewed" in drts("events", match_id).output


def test_the_event_lines_are_terminal_safe_and_mark_a_cut(drts):
    """A dispute's text with a bidi override and a zero-width space is shown escaped in
    `drts match events`; data cut at 150 characters ends with `…`, and the JSON form
    holds it whole. (ESC sequences and C1 controls are refused when filed since issue 41;
    an old log holding one is escaped the same way.)"""
    match_id, referee, alice, _ = created(drts)
    drts("start", match_id, "--referee-token", referee)
    text = "red \u200bALERT \u202egnp.exe " + "x" * 200
    drts("dispute", "file", match_id, "--cite", "1", "--text", text, "--token", alice)

    line = next(x for x in drts("events", match_id).output.splitlines() if "DisputeFiled" in x)

    assert "\u200b" not in line and "\u202e" not in line
    assert "red \\u200bALERT \\u202egnp.exe" in line
    assert line.endswith("…") and "x" * 200 not in line
    filed = next(
        e
        for e in json.loads(drts("events", match_id, "--json").output)
        if e["type"] == "DisputeFiled"
    )
    assert filed["data"]["text"] == text


def test_a_divergence_is_named_and_exits_1(drts, monkeypatch):
    match_id, _ = played(drts)
    original = get_ruleset("district_war")

    def resolve(state: Any, orders: Any, rng: Rng) -> Any:
        after, steps = original.resolve(state, orders, rng)
        return after, tuple(
            Step(s.rule, s.text.upper(), s.data) if s.data.get("points") else s for s in steps
        )

    monkeypatch.setitem(registry.REGISTRY["district_war"], 1, replace(original, resolve=resolve))
    out = drts("audit", match_id, ok=False).output
    named = r"^DIVERGES at movement 5, step \d+: step differs \(rulings: DW-4\)$"
    assert re.search(named, out, re.M)
    assert "stored:     {" in out and "recomputed: {" in out
    report = json.loads(drts("audit", match_id, "--json", ok=False).output)
    assert report["divergence"]["what"] == "step" and report["divergence"]["rulings"] == ["DW-4"]
