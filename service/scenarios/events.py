"""The `expect_events` check of scenario files (docs/scenarios.md): expected events, in
order, among the events a driver recorded, with instants relative to the match start."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from domain.rules.contract import JSON

RELATIVE = re.compile(r"^\+(\d+(?:\.\d+)?)$")


class EventsError(Exception):
    """Raised when an `expect_events` list is malformed."""


def check_expected_events(wanted: JSON, where: str) -> None:
    """Raises EventsError unless `wanted` is a list of objects each naming a `type`."""
    if not isinstance(wanted, list) or not all(
        isinstance(item, Mapping) and isinstance(item.get("type"), str) for item in wanted
    ):
        raise EventsError(f'{where}: expected a list of objects each with a "type"')


def compare_events(
    where: str,
    wanted: Sequence[Mapping[str, JSON]],
    items: Sequence[Mapping[str, Any]],
    started_at: datetime,
) -> list[str]:
    """Returns one readable line per expected event not found, in order, among `items`
    (other events may come between); "+N" values are N seconds after `started_at`."""
    problems, position = [], 0
    for expected in wanted:
        found = next(
            (i for i in range(position, len(items)) if _matches(expected, items[i], started_at)),
            None,
        )
        if found is None:
            same = [_brief(item, started_at) for item in items if item["type"] == expected["type"]]
            listing = "; ".join(same) or f"no {expected['type']} event"
            problems.append(f"{where}: no event matches {dict(expected)} in order ({listing})")
        else:
            position = found + 1
    return problems


def _matches(expected: Mapping[str, JSON], item: Mapping[str, Any], started_at: datetime) -> bool:
    data = item.get("data") or {}
    if item["type"] != expected["type"]:
        return False
    return all(
        key in data and _same(value, data[key], started_at)
        for key, value in expected.items()
        if key != "type"
    )


def _same(wanted: JSON, got: Any, started_at: datetime) -> bool:
    relative = RELATIVE.match(wanted) if isinstance(wanted, str) else None
    if relative is None or not isinstance(got, str):
        return bool(wanted == got)
    return datetime.fromisoformat(got) == started_at + timedelta(seconds=float(relative[1]))


def _brief(item: Mapping[str, Any], started_at: datetime) -> str:
    """Returns an event's data with its instants shown relative to the match start."""
    shown = {}
    for key, value in (item.get("data") or {}).items():
        try:
            offset = (datetime.fromisoformat(value) - started_at).total_seconds()
            shown[key] = f"+{offset:g}"
        except (TypeError, ValueError):
            shown[key] = value
    return f"{item['type']} {shown}"
