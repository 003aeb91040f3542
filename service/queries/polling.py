"""Long polling: waiting, without holding a database connection, until a match has an
event after a given version."""

from __future__ import annotations

import time
from uuid import UUID

from eventsourcing.persistence import AggregateRecorder

POLL_SECONDS = 0.1  # how often a long-polling reader asks the store for a newer event


def wait_for_events(
    recorder: AggregateRecorder, match_id: UUID, after: int, seconds: float
) -> bool:
    """Waits until the match has an event after version `after`, or `seconds` pass.

    One indexed query every POLL_SECONDS; returns whether a newer event came.
    """
    give_up = time.monotonic() + seconds
    while not recorder.select_events(match_id, gt=after, limit=1):
        left = give_up - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(POLL_SECONDS, left))
    return True
