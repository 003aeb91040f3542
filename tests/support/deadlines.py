"""A match's events of one movement, and waiting on its real deadline, for the worker tests."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from service.matches import Matches


def of_movement(service: Matches, match_id: Any, kind: str, movement: int = 1) -> list[Any]:
    """Returns the match's events of `kind` about one movement.

    A test counts only the movement it is about: resolving movement 1 opens
    movement 2, and the worker's own countdown task may close that one too
    if the workers are still running when its (1 s) deadline comes.
    """
    return [
        item for item in events(service, match_id, kind) if item["data"]["movement"] == movement
    ]


def resolutions(service: Matches, match_id: Any, movement: int = 1) -> int:
    return len(of_movement(service, match_id, "MovementResolved", movement))


def wait_until_due(service: Matches, match_id: Any) -> datetime:
    deadline = service.get_match(match_id).deadline
    assert deadline is not None
    time.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds()) + 0.05)
    return deadline


def events(service: Matches, match_id: Any, kind: str) -> list[dict[str, Any]]:
    return [item for item in service.event_log(match_id) if item["type"] == kind]
