"""The posts drts asks a forum integration to make after each movement: the Public
Display after the movement resolved, which holds the log's head (so every reader of the
forum holds a head: docs/integrity.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol
from uuid import UUID

from domain.match import Match
from service.channels.forum.replies import movement_text
from service.results import Result


class Displays(Protocol):
    """What the outgoing posts read of the Matches facade (passed in: issue 44)."""

    def get_match(self, match_id: UUID | str, version: int | None = None) -> Match: ...

    def display(
        self, match_id: UUID | str, movement: int | None = None, timeline: int | None = None
    ) -> str: ...


@dataclass(frozen=True)
class OutgoingPost(Result):
    """A post to make: the movement it reports on, and its text."""

    movement: int
    text: str


def outgoing(matches: Displays, match_id: UUID | str, after: int = 0) -> list[OutgoingPost]:
    """Returns the post to make for every movement after `after` that has resolved, in
    order (an integration remembers the last movement it posted and passes it as
    `after`)."""
    match = matches.get_match(match_id)
    return [
        OutgoingPost(number, movement_text(number, matches.display(match.id, number)))
        for number in resolved_movements(match)
        if number > after
    ]


def resolved_movements(match: Match) -> list[int]:
    """Returns the numbers of the match's movements that have resolved, in order."""
    return [log.number for log in match.movements if log.resolved is not None]
