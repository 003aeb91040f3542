"""A scenario driver that plays through the Matches application (docs/scenarios.md).

Each scenario becomes a real match on an embedded SQLite store in a
temporary directory: created, joined, started (from the scenario's state and
movement if given), ordered with seat tokens, and closed by resolving the
movement at its deadline on a clock driven by hand. Orders arrive at their
`at` instants (received time) and deadlines are processed when the scenario says
(`late_by`, `process_at`), so the scenario files check the whole path: commands,
events with their intended instants, replay from the store.
"""

from __future__ import annotations

import atexit
import tempfile
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from domain.rules.contract import JSON, RefusedPart, Step
from service.clock import ManualClock
from service.matches import Matches
from service.scenarios.expectations import Observation
from service.scenarios.runner import Arrival, Closing, EventLog, standing_orders
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
            version=scenario.get("ruleset_version"),
        )
        self.match_id, self.referee_token = new.match_id, str(new.referee_token)
        self.tokens = {
            seat: matches.join(new.match_id, f"seat {seat}").token for seat in range(1, seats + 1)
        }
        strikes = {int(seat): n for seat, n in scenario.get("strikes", {}).items()}
        self.started_at = clock.now
        matches.start(
            new.match_id,
            self.referee_token,
            scenario.get("state"),
            scenario.get("movement", 1),
            strikes,
        )
        self.opening = clock.now

    def begin(self) -> None:
        """Notes when the open movement opened (its intended instant): entry times count
        from it."""
        movement = self.matches.get_match(self.match_id).movement
        openings = [
            item
            for item in self.matches.event_log(self.match_id)
            if item["type"] in ("Started", "MovementResolved", "DeadlineSet")
            and (item["data"] or {}).get("movement") == movement
        ]
        first = openings[0] if openings else None
        if first is None:
            self.opening = self.clock.now
        else:
            data = first["data"] or {}
            self.opening = datetime.fromisoformat(
                str(data.get("intended_at") or first["timestamp"])
            )

    def submit(self, arrival: Arrival) -> tuple[RefusedPart, ...]:
        """Submits the order received at `at` and processed at `processed_at` (now if None)."""
        received = None if arrival.at is None else self._instant(arrival.at)
        processed = arrival.processed_at if arrival.processed_at is not None else arrival.at
        if processed is not None:
            self.clock.reach(self._instant(processed))
        order: Any = arrival.order
        receipt = self.matches.submit_order(
            self.match_id,
            self.tokens[arrival.seat],
            order,
            source="scenario",
            resolve_when_ready=False,
            received_at=received,
        )
        return receipt.refused

    def act(
        self, action: str, args: Mapping[str, JSON], reason: str, at: float | None = None
    ) -> tuple[Step, ...]:
        """Takes a referee action at `at` (seconds from the opening; now if None): the
        game's, forfeit, pause, resume, or `extend` ({"seconds": s} or {"until": t}, t
        seconds from the opening) and `reissue` ({"seat": n}: the seat's orders go on
        with its new token)."""
        if at is not None:
            self.clock.reach(self._instant(at))
        if action == "extend":
            until = args.get("until")
            self.matches.extend_deadline(
                self.match_id,
                self.referee_token,
                seconds=args.get("seconds"),
                until=None if until is None else self._instant(float(until)),
                reason=reason,
            )
            return ()
        if action == "reissue":
            seat = int(args["seat"])
            self.tokens[seat] = self.matches.reissue_seat_token(
                self.match_id, self.referee_token, seat, reason
            ).token
            return ()
        taken = self.matches.act(self.match_id, self.referee_token, action, args, reason)
        return taken.steps

    def close(self, closing: Closing) -> tuple[Step, ...]:
        """Closes the open movement: a ready one at its last order (issue 13), else at its
        deadline, `late_by` seconds after it, or at `process_at` from the opening."""
        match = self.matches.get_match(self.match_id)
        now = self.clock.now
        if closing.process_at is not None:
            now = self.clock.reach(self._instant(closing.process_at))
        elif match.deadline and not match.is_ready():
            now = self.clock.reach(match.deadline + timedelta(seconds=closing.late_by))
        closed = self.matches.resolve(self.match_id, match.movement, now)
        return closed.steps if closed else ()

    def events(self) -> EventLog:
        """Returns the match's events (as the referee sees them) and its start."""
        return EventLog(self.matches.event_log(self.match_id, self.referee_token), self.started_at)

    def _instant(self, seconds: float) -> datetime:
        return self.opening + timedelta(seconds=seconds)

    def observe(self) -> Observation:
        match = self.matches.get_match(self.match_id)
        summary = self.matches.summary(self.match_id)
        return Observation(
            state=match.state,
            outcome=match.outcome,
            strikes={int(seat): n for seat, n in match.strikes.items()},
            to_move=tuple(summary.to_move),
            movement=match.movement,
            standing=standing_orders(match.table()) if match.is_open() else {},
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
