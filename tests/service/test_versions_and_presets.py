"""Ruleset versions and presets through the Matches application (SQLite and PostgreSQL).

A match is pinned to the ruleset version it was created with and keeps
playing, replaying and auditing under it after a new version ships
(DESIGN.md); a preset is expanded into the recorded config.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import (
    InvalidConfigError,
    RulesetVersionNotInstalledError,
    UnknownRulesetVersionError,
)
from domain.rules import registry
from service.matches import Matches
from tests.support.toy_ruleset import RULESET as TOY_V1
from tests.support.toy_ruleset import RULESET_V2 as TOY_V2


def started(matches: Matches, **create: Any) -> tuple[Any, list[str]]:
    new = matches.create_match("toy", seed="versions", **create)
    tokens = [matches.join(new.match_id, name).token for name in ("alice", "bob")]
    assert new.referee_token is not None
    matches.start(new.match_id, new.referee_token)
    return new.match_id, tokens


def play_round(matches: Matches, match_id: Any, tokens: list[str]) -> list[str]:
    """Both seats pick; returns the texts of the bonus steps of the resolution."""
    matches.submit_order(match_id, tokens[0], "3")
    receipt = matches.submit_order(match_id, tokens[1], "1")
    assert receipt.closing is not None and receipt.closing.resolved
    return [step.text for step in receipt.closing.steps if step.rule == "TOY-3"]


def test_a_match_keeps_playing_under_its_version_after_a_new_one_ships(matches, monkeypatch):
    old, old_tokens = started(matches)
    assert play_round(matches, old, old_tokens)[0].endswith("draws the bonus")
    monkeypatch.setitem(registry.REGISTRY, "toy", {1: TOY_V1, 2: TOY_V2})

    assert play_round(matches, old, old_tokens)[0].endswith("draws the bonus")  # still v1
    assert matches.summary(old).ruleset_version == 1
    assert matches.replay(old).agrees and matches.verify_chain(old).ok
    new, new_tokens = started(matches)
    assert matches.summary(new).ruleset_version == 2
    assert play_round(matches, new, new_tokens)[0].endswith("draws the bonus of 2")
    pinned, pinned_tokens = started(matches, version=1)
    assert play_round(matches, pinned, pinned_tokens)[0].endswith("draws the bonus")


def test_an_unknown_version_is_refused_when_creating_a_match(matches):
    with pytest.raises(UnknownRulesetVersionError, match=r"toy has no version 7 \(installed: 1\)"):
        matches.create_match("toy", version=7)


def test_a_match_whose_version_is_not_installed_says_so_clearly(matches, monkeypatch):
    monkeypatch.setitem(registry.REGISTRY, "toy", {1: TOY_V1, 2: TOY_V2})
    match_id, tokens = started(matches)
    monkeypatch.setitem(registry.REGISTRY, "toy", {1: TOY_V1})
    message = rf"match {match_id} was created under toy v2, which is not installed here"
    for use in (
        lambda: matches.summary(match_id),
        lambda: matches.state(match_id),
        lambda: matches.display(match_id),
        lambda: matches.submit_order(match_id, tokens[0], "2"),
    ):
        with pytest.raises(RulesetVersionNotInstalledError, match=message + r" \(installed: v1\)"):
            use()


def test_a_preset_is_expanded_into_the_recorded_config(matches):
    """The Created event holds plain values: no preset name, nothing left to look up later."""
    new = matches.create_match("toy", {"close_early": False}, preset="strict")
    created = matches.event_log(new.match_id, new.referee_token)[0]
    assert created["type"] == "Created"
    expected = {**TOY_V1.info.defaults(), "silence": "strike", "max_strikes": 2}
    assert created["data"]["config"] == {**expected, "extension_seconds": 10, "close_early": False}
    assert "preset" not in created["data"]


def test_an_unknown_preset_is_refused_naming_the_known_ones(matches):
    with pytest.raises(
        InvalidConfigError, match=r"unknown preset 'slow' \(presets: quick, strict\)"
    ):
        matches.create_match("toy", preset="slow")
