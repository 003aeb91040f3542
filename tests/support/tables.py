"""The event store's two tables (events, snapshots) on each backend."""

from __future__ import annotations

EVENT_STORE = {
    "postgresql": ("matches_events", "matches_snapshots"),
    "sqlite": ("stored_events", "stored_snapshots"),
}
