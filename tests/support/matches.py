"""Matches of the toy ruleset created, joined by alice and bob, and started, for the
service tests."""

from __future__ import annotations

from typing import Any

from service.matches import Matches
from service.results import NewMatch, NewSeat


def new_match(
    matches: Matches, config: dict[str, Any] | None = None, ruleset: str = "toy", **options: Any
) -> tuple[NewMatch, NewSeat, NewSeat]:
    new = matches.create_match(ruleset, config or {}, seed="test-seed", **options)
    alice, bob = matches.join(new.match_id, "alice"), matches.join(new.match_id, "bob")
    return new, alice, bob


def started(
    matches: Matches, config: dict[str, Any] | None = None, ruleset: str = "toy"
) -> tuple[NewMatch, NewSeat, NewSeat]:
    new, alice, bob = new_match(matches, config, ruleset)
    assert new.referee_token is not None
    matches.start(new.match_id, new.referee_token)
    return new, alice, bob
