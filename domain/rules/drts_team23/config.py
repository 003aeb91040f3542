"""The match config of DRTS Team 23: clock (DRTS-2, DRTS-20) and start (DRTS-3).

This version has no item options: Stars, DeathStars, Blackholes, Generators
and Meetings are not part of it (docs/games/drts_team23.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from domain.errors import InvalidConfigError
from domain.rules.contract import JSON, Config, ConfigField

_LONGEST_MATCH = 1000  # movements; a guard against absurd configs, not a rule
_LONGEST_MOVEMENT = 7 * 24 * 3600  # seconds


class Start(StrEnum):
    """Where the pieces are before movement 1 (DRTS-3 and its option)."""

    ON_BOARD = "on_board"
    OFF_BOARD = "off_board"


CONFIG_FIELDS = (
    ConfigField("movements", 20, "regular movements of a match (DRTS-2)"),
    ConfigField(
        "max_movements", 40, "last movement golden-point extra movements may reach (DRTS-20)"
    ),
    ConfigField("movement_seconds", 20, "length of every movement in seconds (DRTS-2)"),
    ConfigField(
        "start",
        Start.ON_BOARD.value,
        "on_board: pieces start on their DRTS-3 squares; off_board: every piece starts "
        "out and enters by a recovery operation from movement 1 (DRTS-3 option)",
    ),
    ConfigField(
        "close_early",
        False,
        "whether a movement closes as soon as every seat has ordered (DRTS-2: it does not)",
    ),
)


@dataclass(frozen=True)
class Settings:
    """A validated config as a value."""

    movements: int = 20
    max_movements: int = 40
    movement_seconds: int = 20
    start: Start = Start.ON_BOARD
    close_early: bool = False

    def to_json(self) -> Config:
        """Returns the config object these settings stand for."""
        return {
            "movements": self.movements,
            "max_movements": self.max_movements,
            "movement_seconds": self.movement_seconds,
            "start": self.start.value,
            "close_early": self.close_early,
        }


def validate_config(config: Mapping[str, JSON]) -> Config:
    """Returns the config with defaults filled in; raises InvalidConfigError naming the fault."""
    return settings_from(config).to_json()


def settings_from(config: Mapping[str, JSON]) -> Settings:
    """Returns the settings a (possibly partial) config gives; raises InvalidConfigError."""
    known = {f.name for f in CONFIG_FIELDS}
    unknown = sorted(set(config) - known)
    if unknown:
        raise InvalidConfigError(
            f"drts_team23 has no config option {', '.join(map(repr, unknown))} "
            f"(options: {', '.join(sorted(known))})"
        )
    full = {f.name: config.get(f.name, f.default) for f in CONFIG_FIELDS}
    movements = _integer(full, "movements", 1, _LONGEST_MATCH)
    return Settings(
        movements=movements,
        max_movements=_integer(full, "max_movements", movements, _LONGEST_MATCH),
        movement_seconds=_integer(full, "movement_seconds", 1, _LONGEST_MOVEMENT),
        start=_start(full["start"]),
        close_early=_boolean(full, "close_early"),
    )


def _integer(config: Mapping[str, JSON], name: str, low: int, high: int) -> int:
    value = config[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidConfigError(
            f"config {name!r} must be an integer in {low}..{high}, not {value!r}"
        )
    return value


def _boolean(config: Mapping[str, JSON], name: str) -> bool:
    value = config[name]
    if not isinstance(value, bool):
        raise InvalidConfigError(f"config {name!r} must be true or false, not {value!r}")
    return value


def _start(value: JSON) -> Start:
    try:
        return Start(value)
    except ValueError:
        choices = ", ".join(repr(s.value) for s in Start)
        raise InvalidConfigError(
            f"config 'start' must be one of {choices}, not {value!r}"
        ) from None
