"""The explicit registry of rulesets: every installed version of each, by name."""

import pytest

from domain.errors import UnknownRulesetError, UnknownRulesetVersionError
from domain.rules import registry
from domain.rules.registry import (
    all_rulesets,
    by_name_and_version,
    get_ruleset,
    ruleset_names,
    ruleset_versions,
)
from tests.support import toy_ruleset as toy


def test_registers_the_games_built_so_far():
    assert {"district_war", "drts_team23"} <= set(ruleset_names())


def test_looks_a_ruleset_up_by_its_name():
    assert get_ruleset("district_war").info.name == "district_war"


def test_an_unknown_name_raises_and_lists_the_known_ones():
    with pytest.raises(UnknownRulesetError, match=r"'go'.*district_war"):
        get_ruleset("go")


def test_an_unknown_version_raises_and_lists_the_installed_ones():
    with pytest.raises(
        UnknownRulesetVersionError, match=r"district_war has no version 9 \(installed: 1\)"
    ):
        get_ruleset("district_war", 9)


def test_several_versions_are_held_and_the_latest_serves_by_default(monkeypatch):
    """DESIGN.md: a ruleset keeps its old versions registered when a new one ships."""
    monkeypatch.setitem(registry.REGISTRY, "toy", {1: toy.RULESET, 2: toy.RULESET_V2})
    assert get_ruleset("toy") is toy.RULESET_V2
    assert get_ruleset("toy", 1) is toy.RULESET
    assert ruleset_versions("toy") == (1, 2)
    assert [r.info.version for r in all_rulesets() if r.name == "toy"] == [1, 2]


def test_the_registry_is_built_by_name_then_version():
    built = by_name_and_version([toy.RULESET_V2, toy.RULESET, get_ruleset("district_war")])
    assert built == {
        "toy": {1: toy.RULESET, 2: toy.RULESET_V2},
        "district_war": {1: get_ruleset("district_war")},
    }
