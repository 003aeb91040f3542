"""The fragile toy ruleset (its broken and fixed versions) and a long toy match, for the
quarantine tests."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.rules.contract import Ruleset
from service.matches import Matches
from tests.support.toy_ruleset import FIXED_FRAGILE, FRAGILE

BROKEN: Ruleset[Any, Any] = FRAGILE


FIXED: Ruleset[Any, Any] = FIXED_FRAGILE


def started(matches: Matches, ruleset: str = "toy") -> tuple[UUID, str]:
    new = matches.create_match(ruleset, {"close_early": False, "rounds": 100})
    for name in ("alice", "bob"):
        matches.join(new.match_id, name)
    matches.start(new.match_id, new.referee_token)
    return new.match_id, str(new.referee_token)
