"""A scenario driver that plays through the Matches application (docs/scenarios.md).

Each scenario becomes a real match on an embedded SQLite store in a
temporary directory: created, joined, started (from the scenario's state and
movement if given), ordered with seat tokens, and closed by resolving the
movement at its deadline on a clock driven by hand. So the scenario files
check the whole path: commands, events, replay from the store.
"""

from __future__ import annotations

import atexit
import tempfile
from collections.abc import Mapping
from typing import Any

from domain.rules.contract import JSON, Step
from service.clock import ManualClock
from service.matches import Matches
from service.scenarios import Observation
from service.settings import Settings


class MatchesDriver:
    """Plays one scenario's match through the Matches application."""

    def __init__(self, matches: Matches, clock: ManualClock, scenario: Mapping[str, Any]) -> None:
        self.matches, self.clock = matches, clock
        seats = int(scenario["seats"])
        new = matches.create_match(
            scenario["ruleset"],
            scenario.get("config", {}),
            seats=seats,
            seed=scenario.get("seed", "scenario"),
        )
        self.match_id, self.referee_token = new.match_id, str(new.referee_token)
        self.tokens = {
            seat: matches.join(new.match_id, f"seat {seat}").token for seat in range(1, seats + 1)
        }
        matches.start(
            new.match_id, self.referee_token, scenario.get("state"), scenario.get("movement", 1)
        )

    def submit(self, seat: int, order: str | Mapping[str, JSON]) -> None:
        self.matches.submit_order(
            self.match_id, self.tokens[seat], order, source="scenario", resolve_when_ready=False
        )

    def act(self, action: str, args: Mapping[str, JSON], reason: str) -> tuple[Step, ...]:
        taken = self.matches.act(self.match_id, self.referee_token, action, args, reason)
        return taken.steps

    def close(self) -> tuple[Step, ...]:
        match = self.matches.get_match(self.match_id)
        now = self.clock.now  # a ready movement closes at its last order (issue 13)
        if match.deadline and not match.is_ready():
            now = self.clock.reach(match.deadline)
        closing = self.matches.resolve(self.match_id, match.movement, now)
        return closing.steps if closing else ()

    def observe(self) -> Observation:
        match = self.matches.get_match(self.match_id)
        summary = self.matches.summary(self.match_id)
        return Observation(
            state=match.state,
            outcome=match.outcome,
            strikes={int(seat): n for seat, n in match.strikes.items()},
            to_move=tuple(summary.to_move),
            movement=match.movement,
        )


class MatchesDriverFactory:
    """Makes MatchesDrivers sharing one Matches application on a temporary SQLite file."""

    def __init__(self) -> None:
        self.directory = tempfile.TemporaryDirectory(prefix="drts-scenarios-")
        self.clock = ManualClock()
        url = f"sqlite:///{self.directory.name}/scenarios.sqlite"
        self.matches = Matches(env=Settings(url).event_store_env(), clock=self.clock)

    def __call__(self, scenario: Mapping[str, Any]) -> MatchesDriver:
        return MatchesDriver(self.matches, self.clock, scenario)

    def close(self) -> None:
        """Closes the application and removes the temporary store."""
        self.matches.close()
        self.directory.cleanup()


_factory: MatchesDriverFactory | None = None


def matches_driver() -> MatchesDriverFactory:
    """Returns this process's MatchesDriverFactory (made on first use, closed at exit)."""
    global _factory
    if _factory is None:
        _factory = MatchesDriverFactory()
        atexit.register(_factory.close)
    return _factory
