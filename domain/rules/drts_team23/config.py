"""The match config of DRTS Team 23: clock (DRTS-2, DRTS-20) and start (DRTS-3).

Version 1 has no item options; version 2 adds `deathstar_area` (DRTS-11 and
its option), `CONFIG_FIELDS_V2` (docs/games/drts_team23.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.errors import InvalidConfigError
from domain.rules.contract import Config, ConfigField, Preset

LONGEST_MATCH = 1000  # movements; a guard against absurd configs, not a rule
LONGEST_MOVEMENT = 7 * 24 * 3600  # seconds


class Start(StrEnum):
    """Where the pieces are before movement 1 (DRTS-3 and its option)."""

    ON_BOARD = "on_board"
    OFF_BOARD = "off_board"


class Area(StrEnum):
    """The area of a DeathStar (v2, DRTS-11): the three neighbours towards its corner, or
    the option, the three squares along the diagonal ray towards it."""

    NEIGHBOURS = "neighbours"
    RAY = "ray"


CONFIG_FIELDS = (
    ConfigField.integer(
        "movements",
        20,
        "regular movements of a match (DRTS-2)",
        minimum=1,
        maximum=LONGEST_MATCH,
    ),
    ConfigField.integer(
        "max_movements",
        40,
        "last movement golden-point extra movements may reach, at least `movements` (DRTS-20)",
        minimum=1,
        maximum=LONGEST_MATCH,
    ),
    ConfigField.integer(
        "movement_seconds",
        20,
        "length of every movement in seconds (DRTS-2)",
        minimum=1,
        maximum=LONGEST_MOVEMENT,
    ),
    ConfigField.choice(
        "start",
        Start.ON_BOARD.value,
        "on_board: pieces start on their DRTS-3 squares; off_board: every piece starts "
        "out and enters by a recovery operation from movement 1 (DRTS-3 option)",
        [start.value for start in Start],
    ),
    ConfigField.boolean(
        "close_early",
        False,
        "whether a movement closes as soon as every seat has ordered (DRTS-2: it does not)",
    ),
)

CONFIG_FIELDS_V2 = (
    *CONFIG_FIELDS,
    ConfigField.choice(
        "deathstar_area",
        Area.NEIGHBOURS.value,
        "neighbours: a DeathStar's area is the three neighbours of its square towards its "
        "corner (DRTS-11); ray: the three squares along the diagonal towards it (its option)",
        [area.value for area in Area],
    ),
)

PRESETS = (
    Preset(
        "postal",
        "play by mail or forum post: a day per movement, and a movement closes as soon as "
        "every seat has ordered (the rulings' 20 s movements are for live play)",
        {"movement_seconds": 24 * 3600, "close_early": True},
    ),
)


def check_config(config: Config) -> None:
    """Raises InvalidConfigError when the golden point could not last (DRTS-20: the last
    movement comes no earlier than the regular ones end)."""
    if config["max_movements"] < config["movements"]:
        raise InvalidConfigError(
            f"config option 'max_movements' must be an integer from movements "
            f"({config['movements']}) to {LONGEST_MATCH}, got {config['max_movements']!r}"
        )


@dataclass(frozen=True)
class GameSettings:
    """A validated config as a value."""

    movements: int = 20
    max_movements: int = 40
    movement_seconds: int = 20
    start: Start = Start.ON_BOARD
    close_early: bool = False
    deathstar_area: Area | None = None  # v2 only (DRTS-11); None in v1, which has no items

    @classmethod
    def of(cls, config: Config) -> GameSettings:
        """Returns the settings of a validated config."""
        return cls(
            movements=config["movements"],
            max_movements=config["max_movements"],
            movement_seconds=config["movement_seconds"],
            start=Start(config["start"]),
            close_early=config["close_early"],
            deathstar_area=Area(config["deathstar_area"]) if "deathstar_area" in config else None,
        )

    def to_json(self) -> Config:
        """Returns the config object these settings stand for."""
        config: Config = {
            "movements": self.movements,
            "max_movements": self.max_movements,
            "movement_seconds": self.movement_seconds,
            "start": self.start.value,
            "close_early": self.close_early,
        }
        if self.deathstar_area is not None:
            config["deathstar_area"] = self.deathstar_area.value
        return config
