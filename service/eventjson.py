"""An event in its public JSON form (docs/integrity.md): what the event log, the
archive, the chain check and the read models' recorded heads all show of an event.

It sits below the store and the read models, which both use it (no import circle:
issue 44).
"""

from __future__ import annotations

from typing import Any

from domain.integrity import iso, jsonable
from domain.match import event_data
from domain.rules.contract import JSON


def public_item(domain_event: Any, with_sealed: bool) -> dict[str, JSON]:
    """Returns an event in its public JSON form (docs/integrity.md)."""
    item = checked_item(domain_event, with_sealed)
    item["data"] = jsonable(item["data"])
    if "sealed" in item:
        item["sealed"] = jsonable(item["sealed"])
    return item


def checked_item(domain_event: Any, with_sealed: bool) -> dict[str, Any]:
    """Returns what `first_broken_link` checks of an event: its public form, except that
    its data and sealed part are as decoded (datetimes and UUIDs not yet strings). The
    chain check hashes them as their JSON form without building it (integrity.canonical),
    and a long log's replay need not walk every event's data once more (issue 46)."""
    item: dict[str, Any] = {
        "type": type(domain_event).__name__,
        "version": domain_event.originator_version,
        "timestamp": iso(domain_event.timestamp),
        "data": event_data(domain_event),
        "chain": getattr(domain_event, "chain", None),
    }
    sealed = getattr(domain_event, "sealed", None)
    if with_sealed and sealed:
        item["sealed"] = sealed
    return item
