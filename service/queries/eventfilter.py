"""Which events of a match's log a reader asks for: by type, movement and seat.

A filter looks at an event's public form only (its type and its `data`, never its
sealed values), so filtering shows nothing the whole log would not show the same
reader. `movement` keeps the events whose data names that movement, `seat` those whose
data names that seat; the conditions are combined with AND, and several types with OR.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from eventsourcing.domain import DomainEvent

from domain.match import Match
from domain.rules.contract import JSON
from service.errors import UnknownEventTypeError

# The kinds of event a match log holds (snapshots are not in the log).
EVENT_TYPES = tuple(
    sorted(
        name
        for name in dir(Match)
        if isinstance(kind := getattr(Match, name), type)
        and issubclass(kind, DomainEvent)
        and name not in ("Event", "Snapshot")
    )
)


@dataclass(frozen=True)
class EventFilter:
    """The events asked for: any of `types` (None: every type), of `movement`, of `seat`."""

    types: frozenset[str] | None = None
    movement: int | None = None
    seat: int | None = None

    @classmethod
    def of(
        cls,
        types: Iterable[str] | None = None,
        movement: int | None = None,
        seat: int | None = None,
    ) -> EventFilter:
        """Returns the filter for type names (each may list several, comma-separated),
        a movement and a seat; raises UnknownEventTypeError naming the unknown types."""
        names = [part.strip() for text in types or () for part in text.split(",")]
        names = [name for name in names if name]
        unknown = sorted(set(names) - set(EVENT_TYPES))
        if unknown:
            raise UnknownEventTypeError(
                f"unknown event type{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(map(repr, unknown))}: the event types are {', '.join(EVENT_TYPES)}",
                unknown,
                list(EVENT_TYPES),
            )
        return cls(frozenset(names) or None, movement, seat)

    @property
    def everything(self) -> bool:
        """True when the filter keeps every event."""
        return self.types is None and self.movement is None and self.seat is None

    def keeps(self, item: dict[str, JSON]) -> bool:
        """True when an event in its public form passes the filter."""
        data = item["data"] if isinstance(item["data"], dict) else {}
        return (
            (self.types is None or item["type"] in self.types)
            and (self.movement is None or _equal(data.get("movement"), self.movement))
            and (self.seat is None or _equal(data.get("seat"), self.seat))
        )


def _equal(value: JSON, wanted: int) -> bool:
    """True when a data value is the integer asked for (True is not 1)."""
    return isinstance(value, int) and not isinstance(value, bool) and value == wanted


EVERY_EVENT = EventFilter()
