"""A match's events rebuilt from their public JSON form (docs/integrity.md), as an
import stores them (docs/archive.md).

An event is stored as its fields (eventsourcing keeps an event's attributes, less
its id and version, as the row's state). The public form holds every one of them:
`data` the event's fields, `chain` its link, `sealed` its secret values, `timestamp`
its time; the fields that hold instants (`received_at`, `deadline`, `intended_at`)
are ISO 8601 strings there and instants in the store. So an event is rebuilt by
taking its class from `type` and its attributes from the rest, exactly as the
event store's mapper rebuilds one from a row: an older event, stored without a
field added later, is rebuilt without it too.

`rebuilt_events` refuses (InvalidArchiveError, naming the event) what would not
rebuild the events exactly: an unknown type, a field the class does not have or a
value of the wrong kind, an instant not in `datetime.isoformat()`'s UTC form, a
sealed value missing (an archive must carry them all to be imported), a log that
does not fold into a match.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, fields
from datetime import UTC, datetime
from functools import cache
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate
from eventsourcing.utils import get_topic

from domain.match import Match
from domain.rules.contract import JSON
from service.errors import InvalidArchiveError
from service.eventjson import public_item

# the attributes of an event that are not in its `data`
OUTSIDE_DATA = frozenset(
    {"originator_id", "originator_version", "timestamp", "originator_topic", "chain", "sealed"}
)
EVENT_CLASSES: dict[str, type[Aggregate.Event]] = {
    name: cls
    for name, cls in vars(Match).items()
    if isinstance(cls, type) and issubclass(cls, Aggregate.Event) and name != "Event"
}


def rebuilt_events(match_id: UUID, items: Sequence[Mapping[str, JSON]]) -> list[Aggregate.Event]:
    """Returns the match's events rebuilt from their public form (the chain and seals
    verified first); raises InvalidArchiveError naming the first that cannot be."""
    events = [_rebuilt(match_id, item) for item in items]
    folded: Any = None
    for event, item in zip(events, items, strict=True):
        try:
            folded = event.mutate(folded)
        except Exception as error:  # a forged but well-chained log may hold anything
            reason = f"does not apply to the match: {type(error).__name__}: {error}"
            raise _refused(item, reason) from None
    return events


def _rebuilt(match_id: UUID, item: Mapping[str, JSON]) -> Aggregate.Event:
    cls = EVENT_CLASSES.get(str(item["type"]))
    if cls is None or (cls is Match.Created) != (item["version"] == 1):
        raise _refused(item, "is not an event drts stores at this place of a match")
    data = item["data"]
    assert isinstance(data, dict)  # service/usecases/archive.py read the shape
    state: dict[str, Any] = {
        "originator_id": match_id,
        "originator_version": item["version"],
        "timestamp": _instant(item, "timestamp", item["timestamp"]),
        **{name: _field(cls, item, name, value) for name, value in data.items()},
        "chain": item["chain"],
    }
    missing = sorted(_required(cls) - set(data))
    if missing:
        raise _refused(item, f"lacks the field(s) {', '.join(missing)}")
    if cls is Match.Created:
        state["originator_topic"] = get_topic(Match)
    if item.get("sealed"):
        state["sealed"] = item["sealed"]
    elif cls is Match.Created or data.get("digest"):
        raise _refused(item, "lacks its sealed values (an archive to import carries them all)")
    event = object.__new__(cls)
    object.__setattr__(event, "__dict__", state)  # as the event store's mapper does
    if public_item(event, with_sealed=True) != dict(item):
        raise _refused(item, "would not be stored exactly as the archive shows it")
    return event


def _field(cls: type[Aggregate.Event], item: Mapping[str, JSON], name: str, value: JSON) -> Any:
    """Returns a data field as the event holds it (an instant as a datetime)."""
    hint = _hints(cls).get(name)
    if hint is None or name in OUTSIDE_DATA:
        raise _refused(item, f"has a field {name!r} that {cls.__name__} does not have")
    if not _fits(value, hint):
        raise _refused(item, f"has {name} = {value!r}, not a {_describe(hint)}")
    if isinstance(value, str) and datetime in _kinds(hint):
        return _instant(item, name, value)
    return value


def _instant(item: Mapping[str, JSON], name: str, text: JSON) -> datetime:
    """Returns an instant written as `datetime.isoformat()` of an aware UTC instant."""
    try:
        moment = datetime.fromisoformat(str(text))
    except ValueError:
        moment = None
    if moment is None or moment.utcoffset() != UTC.utcoffset(None) or moment.isoformat() != text:
        raise _refused(item, f"has {name} = {text!r}, not an instant in UTC as isoformat()")
    return moment


def _fits(value: JSON, hint: Any) -> bool:
    """Returns whether a JSON value fits a field's annotation (instants are strings)."""
    if hint is Any:
        return True
    return any(_fits_kind(value, kind) for kind in _kinds(hint))


def _fits_kind(value: JSON, kind: Any) -> bool:
    if kind is type(None):
        return value is None
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is datetime:
        return isinstance(value, str)
    return isinstance(value, kind)


def _kinds(hint: Any) -> tuple[Any, ...]:
    """Returns the plain types an annotation allows (`dict[str, Any] | None`: dict, None)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return tuple(kind for arg in typing.get_args(hint) for kind in _kinds(arg))
    return (typing.get_origin(hint) or hint,)


def _describe(hint: Any) -> str:
    return " or ".join(getattr(kind, "__name__", str(kind)) for kind in _kinds(hint))


@cache
def _hints(cls: type[Aggregate.Event]) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def _required(cls: type[Aggregate.Event]) -> frozenset[str]:
    """Returns the data fields an event of the class must have (those without a default)."""
    return frozenset(
        f.name
        for f in fields(cls)
        if f.default is MISSING and f.default_factory is MISSING and f.name not in OUTSIDE_DATA
    )


def _refused(item: Mapping[str, JSON], reason: str) -> InvalidArchiveError:
    return InvalidArchiveError(f"event {item.get('version')} ({item.get('type')}) {reason}")
