"""A clock driven by hand, for scenarios and tests: the Matches application takes any
callable returning an aware UTC datetime as its clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2030, 1, 1, tzinfo=UTC)


class ManualClock:
    """A clock whose `now` stays put until `advance` or `reach` moves it."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        """Returns the current instant."""
        return self.now

    def advance(self, seconds: float) -> datetime:
        """Moves the clock by `seconds` (backwards when negative); returns the new instant."""
        self.now += timedelta(seconds=seconds)
        return self.now

    def reach(self, moment: datetime) -> datetime:
        """Moves the clock forward to `moment` (no-op if it is already later); returns now."""
        self.now = max(self.now, moment)
        return self.now
