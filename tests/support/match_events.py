"""A toy Match aggregate built event by event, without a store: its clock, tokens and seats."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

from domain.integrity import commitment
from domain.match import Match

T0 = datetime(2030, 1, 1, tzinfo=UTC)


REFEREE = commitment("referee-token")


ALICE, BOB = commitment("alice-token"), commitment("bob-token")


def new_match(config: dict[str, Any] | None = None, ruleset: str = "toy") -> Match:
    match = Match.create(uuid4(), ruleset, config or {}, "the-seed", REFEREE, T0)
    match.join("alice", ALICE, T0)
    match.join("bob", BOB, T0)
    return match


def started(config: dict[str, Any] | None = None, ruleset: str = "toy") -> Match:
    match = new_match(config, ruleset)
    match.start(REFEREE, T0)
    return match


def fold(events: list[Any]) -> Any:
    match = None
    for domain_event in events:
        match = domain_event.mutate(match)
    return match
