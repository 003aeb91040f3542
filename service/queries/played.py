"""The matches a player has played (issue 45): every seat that named the player, read
from the store's log of `SeatJoined` and `SeatAdded` events (each records the player id
its seat named, or None), in the log's order.

This is read on demand from the log, not kept in a read model: a page asks for one
player at a time (the ratings, which fold every rated match, have one:
service/readmodels/ratings.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.utils import get_topic

from domain.match import Match

SEAT_TOPICS = (get_topic(Match.SeatJoined), get_topic(Match.SeatAdded))
PAGE = 500  # notifications read at a time


@dataclass(frozen=True)
class PlayedSeat:
    """A seat of a match that named the player: the match and the seat's number."""

    match_id: UUID
    seat: int


class SeatLog(Protocol):
    """What the query needs of the store: its log and the mapper that decodes it."""

    @property
    def recorder(self) -> Any: ...
    @property
    def mapper(self) -> Any: ...


def seats_of(store: SeatLog, player_id: UUID | str) -> list[PlayedSeat]:
    """Returns every seat that named the player, in the order the seats joined."""
    wanted = str(player_id)
    return [
        PlayedSeat(UUID(str(event.originator_id)), int(event.seat))
        for event in _seat_events(store)
        if getattr(event, "player_id", None) == wanted
    ]


def _seat_events(store: SeatLog) -> Iterator[Any]:
    start = 1
    while True:
        notes = store.recorder.select_notifications(start=start, limit=PAGE, topics=SEAT_TOPICS)
        yield from (store.mapper.to_domain_event(note) for note in notes)
        if len(notes) < PAGE:
            return
        start = notes[-1].id + 1
