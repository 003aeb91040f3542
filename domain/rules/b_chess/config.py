"""The match config of B-Chess: the torus (BC-1), the Turn of the Field's period (BC-2),
the refund of a purchase that places nothing (BC-6) and the macks a seat starts with
(BC-7), and two presets: `live` (a Turn a minute) and `board` (no torus)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.rules.contract import MAX_SECONDS, Config, ConfigField, Preset

SIZE = 20  # BC-1: the Field is 20 x 20
DAY = 86_400
STARTING_MACKS = 50  # BC-7
MOST_MACKS = 10**9  # a bound against absurd input, not a rule

CONFIG_FIELDS = (
    ConfigField.boolean(
        "torus",
        True,
        "true: the Field is a torus, its edges adjacent to the opposite edges (BC-1, the "
        "Field rule of B Nomic); false: a plain board whose edges stop every move",
    ),
    ConfigField.integer(
        "turn_seconds",
        DAY,
        "the period of the Turn of the Field (BC-2): the timer fires every period from the "
        "start and resolves a Turn when an order is pending",
        minimum=1,
        maximum=MAX_SECONDS,
    ),
    ConfigField.boolean(
        "refund",
        False,
        "true: a purchase that finds no empty square beside the King gives its macks back "
        "and does not count toward the next purchase's cost; false: the macks are spent "
        "(BC-6)",
    ),
    ConfigField.integer(
        "starting_macks",
        STARTING_MACKS,
        "the macks each seat starts with, a seat joining later too (BC-7)",
        minimum=0,
        maximum=MOST_MACKS,
    ),
)

PRESETS = (
    Preset(
        "live",
        "a Turn of the Field every minute (BC-2), for a match played live rather than on a forum",
        {"turn_seconds": 60},
    ),
    Preset(
        "board",
        "the Field as a plain board: its edges do not wrap (BC-1's option)",
        {"torus": False},
    ),
)


@dataclass(frozen=True)
class GameSettings:
    """A validated config as a value."""

    torus: bool = True
    turn_seconds: int = DAY
    refund: bool = False
    starting_macks: int = STARTING_MACKS

    @classmethod
    def of(cls, config: Config) -> GameSettings:
        """Returns the settings of a validated config."""
        return cls(
            torus=config["torus"],
            turn_seconds=config["turn_seconds"],
            refund=config["refund"],
            starting_macks=config["starting_macks"],
        )

    def to_json(self) -> Config:
        """Returns the config object these settings stand for."""
        return {
            "torus": self.torus,
            "turn_seconds": self.turn_seconds,
            "refund": self.refund,
            "starting_macks": self.starting_macks,
        }
