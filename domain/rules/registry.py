"""The explicit registry of rulesets: every installed version of each, looked up by name.

A ruleset keeps its old versions registered when a new one ships (DESIGN.md):
a match plays, replays and audits under the version it was created with
(`Match.rules`), while new matches get the latest unless they name one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from domain.errors import UnknownRulesetError, UnknownRulesetVersionError
from domain.rules import b_chess, district_war, dris_et_tessa, drts_team23, shades
from domain.rules.contract import AnyRuleset

_RULESETS: tuple[AnyRuleset, ...] = (
    b_chess.RULESET,
    district_war.RULESET,
    drts_team23.RULESET_V1,
    drts_team23.RULESET_V2,
    dris_et_tessa.RULESET,
    shades.RULESET_V1,
    shades.RULESET_V2,
)


def by_name_and_version(rulesets: Iterable[AnyRuleset]) -> dict[str, dict[int, AnyRuleset]]:
    """Returns the rulesets keyed by name, then by version."""
    registry: dict[str, dict[int, AnyRuleset]] = {}
    for ruleset in rulesets:
        registry.setdefault(ruleset.info.name, {})[ruleset.info.version] = ruleset
    return registry


REGISTRY: dict[str, dict[int, AnyRuleset]] = by_name_and_version(_RULESETS)


def get_ruleset(name: str, version: int | None = None) -> AnyRuleset:
    """Returns version `version` of the ruleset `name` (the latest for None).

    Raises UnknownRulesetError for an unknown name, UnknownRulesetVersionError
    for a version that is not installed.
    """
    versions = REGISTRY.get(name)
    if not versions:
        known = ", ".join(ruleset_names()) or "none"
        raise UnknownRulesetError(f"unknown ruleset {name!r} (known: {known})")
    if version is None:
        return versions[max(versions)]
    try:
        return versions[version]
    except (KeyError, TypeError):
        installed = ", ".join(map(str, ruleset_versions(name)))
        raise UnknownRulesetVersionError(
            f"ruleset {name} has no version {version!r} (installed: {installed})"
        ) from None


def ruleset_names() -> tuple[str, ...]:
    """Returns the registered names in alphabetical order."""
    return tuple(sorted(name for name, versions in REGISTRY.items() if versions))


def ruleset_versions(name: str) -> tuple[int, ...]:
    """Returns the installed versions of a ruleset, oldest first (none for an unknown name)."""
    return tuple(sorted(REGISTRY.get(name, {})))


def all_rulesets() -> Iterator[AnyRuleset]:
    """Yields every installed version of every ruleset, by name, then version."""
    for name in ruleset_names():
        yield from (REGISTRY[name][version] for version in ruleset_versions(name))
