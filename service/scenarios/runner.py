"""The scenario runner: plays scenario files (docs/scenarios.md) and checks their expectations.

The runner talks to a `Driver`, so the same files run on the pure rules
(`TableDriver`) or through the Matches application. Every mismatch is
reported as a readable line; nothing stops at the first one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from domain.errors import DrtsError
from domain.rules.contract import JSON, RefusedPart, Step, Steps
from domain.rules.registry import get_ruleset
from domain.table import Table
from service.maps import expand_map
from service.scenarios.events import EventsError, check_expected_events, compare_events
from service.scenarios.expectations import Observation, compare

TOP_KEYS = {
    "description",
    "ruleset",
    "ruleset_version",
    "config",
    "seed",
    "seats",
    "state",
    "movement",
    "movements",
    "strikes",
    "expect",
    "expect_events",
}
MOVEMENT_KEYS = {"actions", "orders", "close", "late_by", "process_at", "expect", "expect_events"}
ACTION_KEYS = {"action", "args", "reason", "at"}
# the referee's acts on the clock and tokens: the Matches driver takes them; the pure rules
# (TableDriver) have neither, so they change nothing there
SERVICE_ACTIONS = ("extend", "reissue", "pause", "resume")
TIMED_ORDER_KEYS = {"seat", "order", "at", "processed_at"}
EXPECT_KEYS = {
    "state",
    "scores",
    "team_scores",
    "steps",
    "no_steps",
    "rejected",
    "refused",
    "standing",
    "strikes",
    "to_move",
    "result",
    "winners",
    "winning_teams",
    "finished",
    "movement",
}


class ScenarioError(Exception):
    """Raised when a scenario file is malformed (not a mismatch: the file itself is wrong)."""


@dataclass(frozen=True)
class Arrival:
    """One order of a movement entry: who, what, and when in seconds from the movement's
    opening (`at`: its received time; `processed_at`: when it is processed, `at` if None)."""

    seat: int
    order: JSON
    at: float | None = None
    processed_at: float | None = None


@dataclass(frozen=True)
class Closing:
    """How a movement entry closes: `late_by` seconds after its deadline passed, or at
    `process_at` seconds from the movement's opening (neither: at the deadline)."""

    late_by: float = 0
    process_at: float | None = None


@dataclass(frozen=True)
class EventLog:
    """A driver's events in their public form and the instant its match started."""

    items: list[dict[str, JSON]]
    started_at: datetime


class Driver(Protocol):
    """Plays one scenario's match; `submit` raises a DrtsError when an order is rejected, and
    returns the refused parts of an order that stands in part (`screen_order`)."""

    def begin(self) -> None: ...

    def submit(self, arrival: Arrival) -> tuple[RefusedPart, ...]: ...

    def act(
        self, action: str, args: Mapping[str, JSON], reason: str, at: float | None = None
    ) -> tuple[Step, ...]: ...

    def close(self, closing: Closing) -> tuple[Step, ...]: ...

    def observe(self) -> Observation: ...

    def events(self) -> EventLog | None: ...


DriverFactory = Callable[[Mapping[str, Any]], Driver]


class TableDriver:
    """Plays a scenario directly on the pure rules through `domain.table.Table`."""

    def __init__(self, scenario: Mapping[str, Any]) -> None:
        ruleset = get_ruleset(scenario["ruleset"], scenario.get("ruleset_version"))
        seed = scenario.get("seed", "scenario")
        config = expand_map(ruleset.name, scenario.get("config"))  # as create_match does
        self.table = Table.start(ruleset, config, scenario["seats"], seed)
        if scenario.get("state") is not None:
            self.table.state = ruleset.load_state(scenario["state"])
        self.table.movement = scenario.get("movement", 1)
        self.table.strikes = {int(seat): n for seat, n in scenario.get("strikes", {}).items()}

    def begin(self) -> None:
        """Does nothing: the pure rules have no clock."""

    def submit(self, arrival: Arrival) -> tuple[RefusedPart, ...]:
        """Submits the order; its times only ordered it (the pure rules have no clock)."""
        return self.table.submit_screened(arrival.seat, arrival.order).refused

    def act(
        self, action: str, args: Mapping[str, JSON], reason: str, at: float | None = None
    ) -> tuple[Step, ...]:
        """Takes a game's action or a forfeit; the clock's and tokens' acts do nothing."""
        return () if action in SERVICE_ACTIONS else self.table.act(action, args)

    def close(self, closing: Closing) -> tuple[Step, ...]:
        """Closes at the deadline; lateness means nothing without a clock."""
        return self.table.close(deadline_passed=True).steps

    def events(self) -> EventLog | None:
        """Returns None: the pure rules record no events (`expect_events` is not checked)."""
        return None

    def observe(self) -> Observation:
        table = self.table
        return Observation(
            state=table.ruleset.dump_state(table.state),
            outcome=table.outcome().to_json(),
            strikes=dict(table.strikes),
            to_move=table.to_move().seats,
            movement=table.movement,
            standing=standing_orders(table),
        )


def standing_orders(table: Table) -> dict[str, JSON]:
    """Returns each seat's standing order in the open movement (seats with orders only)."""
    seats = sorted({seat for seat, _ in table.pending})
    return {str(seat): table.standing_order(seat) for seat in seats}


@dataclass
class Report:
    """The result of one scenario file: its mismatches (empty means it passed)."""

    path: str
    description: str = ""
    mismatches: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Returns whether every expectation held."""
        return not self.mismatches


def load_scenario(path: Path) -> dict[str, Any]:
    """Returns the parsed scenario file; raises ScenarioError naming what is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ScenarioError(f"{path}: cannot read scenario: {error}") from None
    _check_keys(data, TOP_KEYS, {"description", "ruleset", "seats", "movements"}, str(path))
    for i, movement in enumerate(data["movements"], 1):
        _check_keys(movement, MOVEMENT_KEYS, set(), f"{path} movement {i}")
        for action in movement.get("actions", []):
            _check_keys(action, ACTION_KEYS, {"action"}, f"{path} movement {i} action")
        _check_keys(movement.get("expect", {}), EXPECT_KEYS, set(), f"{path} movement {i} expect")
        _check_events(movement.get("expect_events", []), f"{path} movement {i} expect_events")
        if not isinstance(movement.get("orders", {}), Mapping):
            for entry in movement["orders"]:
                if isinstance(entry, Mapping) and "action" in entry:
                    _check_keys(entry, ACTION_KEYS, {"action"}, f"{path} movement {i} action")
                elif isinstance(entry, Mapping):
                    _check_keys(entry, TIMED_ORDER_KEYS, {"seat", "order"}, f"{path} movement {i}")
    _check_keys(data.get("expect", {}), EXPECT_KEYS, set(), f"{path} expect")
    _check_events(data.get("expect_events", []), f"{path} expect_events")
    return dict(data)


def run_scenario(path: Path, driver_factory: DriverFactory) -> Report:
    """Plays one scenario file through the driver the factory makes (the Matches
    application's: service/scenarios/driver.py `matches_driver()`; the bare table's:
    `TableDriver`); returns its report. The factory is passed in: the Matches driver
    builds on this module, which therefore never imports it (issue 44)."""
    scenario = load_scenario(path)
    report = Report(str(path), scenario["description"])
    try:
        driver = driver_factory(scenario)
    except DrtsError as error:
        report.mismatches.append(f"cannot set up the match: {error}")
        return report
    for number, movement in enumerate(scenario["movements"], 1):
        where = f"movement entry {number}"
        before = driver.events()
        driver.begin()
        acted, rejected = _act_all(driver, movement.get("actions", []))
        refused: list[dict[str, JSON]] = []
        interleaved, more = _submit_all(driver, movement.get("orders", {}), refused)
        acted, rejected = acted + interleaved, rejected + more
        closing = Closing(movement.get("late_by", 0), movement.get("process_at"))
        steps = acted + (driver.close(closing) if movement.get("close", True) else ())
        expect = movement.get("expect", {})
        report.mismatches += compare(where, expect, driver.observe(), steps, rejected, refused)
        seen = driver.events()
        if seen is not None and before is not None:
            fresh = seen.items[len(before.items) :]
            wanted = movement.get("expect_events", [])
            report.mismatches += compare_events(where, wanted, fresh, seen.started_at)
    final = scenario.get("expect", {})
    report.mismatches += compare("end", final, driver.observe(), None, None)
    seen = driver.events()
    if seen is not None:
        wanted = scenario.get("expect_events", [])
        report.mismatches += compare_events("end", wanted, seen.items, seen.started_at)
    return report


def _act_all(driver: Driver, actions: JSON) -> tuple[tuple[Step, ...], list[dict[str, JSON]]]:
    """Takes the referee actions in order; returns their steps and their rejections."""
    steps: tuple[Step, ...] = ()
    rejected: list[dict[str, JSON]] = []
    for entry in actions:
        steps += _act(driver, entry, rejected)
    return steps, rejected


def _act(driver: Driver, entry: Mapping[str, Any], rejected: list[dict[str, JSON]]) -> Steps:
    """Takes one referee action; returns its steps, or records its rejection."""
    name = entry["action"]
    args, reason = entry.get("args", {}), entry.get("reason", "scenario")
    try:
        return driver.act(name, args, reason, entry.get("at"))
    except DrtsError as error:
        rejected.append({"action": name, "error": error.code, "reason": str(error)})
        return ()


def _submit_all(
    driver: Driver, orders: JSON, refused: list[dict[str, JSON]]
) -> tuple[Steps, list[dict[str, JSON]]]:
    """Submits the orders, and takes the referee actions listed among them, in order;
    returns the actions' steps and the rejections."""
    rejected: list[dict[str, JSON]] = []
    steps: Steps = ()
    for arrival in _arrivals(orders):
        if isinstance(arrival, Mapping):  # a referee action between the orders
            steps += _act(driver, arrival, rejected)
            continue
        try:
            parts = driver.submit(arrival)
            refused += [{"seat": arrival.seat, "part": p.part, "reason": p.reason} for p in parts]
        except DrtsError as error:
            rejected.append(
                {
                    "seat": arrival.seat,
                    "order": arrival.order,
                    "error": error.code,
                    "reason": str(error),
                }
            )
    return steps, rejected


def _arrivals(orders: JSON) -> Iterator[Arrival | Mapping[str, Any]]:
    """Yields the orders of a movement entry as Arrivals, in order, and the referee
    actions listed among them (list form) as they are written."""
    if isinstance(orders, Mapping):
        for seat, texts in orders.items():
            for text in texts if isinstance(texts, list) else [texts]:
                yield Arrival(int(seat), text)
    else:
        for entry in orders:
            if isinstance(entry, Mapping) and "action" in entry:
                yield entry
            elif isinstance(entry, Mapping):
                yield Arrival(
                    int(entry["seat"]), entry["order"], entry.get("at"), entry.get("processed_at")
                )
            else:
                yield Arrival(int(entry[0]), entry[1])


def _check_events(wanted: JSON, where: str) -> None:
    try:
        check_expected_events(wanted, where)
    except EventsError as error:
        raise ScenarioError(str(error)) from None


def _check_keys(data: JSON, allowed: set[str], required: set[str], where: str) -> None:
    if not isinstance(data, Mapping):
        raise ScenarioError(f"{where}: expected a JSON object")
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {', '.join(unknown)}")
    absent = sorted(required - set(data))
    if absent:
        raise ScenarioError(f"{where}: missing key(s) {', '.join(absent)}")
