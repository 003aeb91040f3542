"""The explicit registry of rulesets."""

import pytest

from domain.errors import UnknownRulesetError
from domain.rules.registry import get_ruleset, ruleset_names


def test_registers_the_games_built_so_far():
    assert {"district_war", "drts_team23"} <= set(ruleset_names())


def test_looks_a_ruleset_up_by_its_name():
    assert get_ruleset("district_war").info.name == "district_war"


def test_an_unknown_name_raises_and_lists_the_known_ones():
    with pytest.raises(UnknownRulesetError, match=r"'go'.*district_war"):
        get_ruleset("go")
