"""The explicit registry of rulesets, looked up by name."""

from __future__ import annotations

from typing import Any

from domain.errors import UnknownRulesetError
from domain.rules import district_war, drts_team23
from domain.rules.contract import Ruleset

_RULESETS: tuple[Ruleset[Any, Any], ...] = (district_war.RULESET, drts_team23.RULESET)

REGISTRY: dict[str, Ruleset[Any, Any]] = {ruleset.info.name: ruleset for ruleset in _RULESETS}


def get_ruleset(name: str) -> Ruleset[Any, Any]:
    """Returns the ruleset registered under `name`; raises UnknownRulesetError otherwise."""
    try:
        return REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(REGISTRY)) or "none"
        raise UnknownRulesetError(f"unknown ruleset {name!r} (known: {known})") from None


def ruleset_names() -> tuple[str, ...]:
    """Returns the registered names in alphabetical order."""
    return tuple(sorted(REGISTRY))
