"""The match config of Shades: the map (SH-2), the clock (SH-1, SH-10), razing (SH-5) and
scoring (SH-6), and the `contest` preset (the original contest server's settings).

The default map is the project's `small` map, kept here as rows so that the
domain's default config is complete without reading a file (the service's
copy, service/data/maps/shades/small.ppm, is checked to be the same).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.rules.contract import MAX_SECONDS, Config, ConfigField, Preset
from domain.rules.shades.board import Board, board_of, parse_map

DEFAULT_MAP = (
    "T........T",
    "..........",
    "..~....~..",
    "....T..T..",
    "..........",
    "..........",
    "..T..T....",
    "..~....~..",
    "..........",
    "T........T",
)
TURNS = 300  # SH-1
LONGEST_MATCH = 10_000  # turns: a guard against absurd configs, not a rule
TURN_SECONDS = 5  # SH-10


class Razing(StrEnum):
    """How many enemy tombs may be razed in one turn (SH-5 and its option)."""

    EVERY = "every"  # SH-5: every enemy tomb with a surviving enemy shade on it
    ONE = "one"  # SH-5 option, as the original server: the first such tomb (lowest id)


class Scoring(StrEnum):
    """The scoring mode (SH-6 and its option)."""

    POINTS = "points"  # SH-6: tombs owned at the start, raze -1/+2, +1 per elimination
    NORMALISED = "normalised"  # SH-6 option: the original's scoring, a seat's tombs worth 100


CONFIG_FIELDS = (
    ConfigField.data(
        "map",
        list(DEFAULT_MAP),
        "the map (SH-2): PPM content (white ground, blue water, red tombs) or its rows of "
        "'.', '~' and 'T'; on create, the name of one of the service's maps (GET "
        "/rulesets/shades, `drts maps`), recorded as its content",
        parse_map,
    ),
    ConfigField.integer(
        "turns",
        TURNS,
        "the turn limit: the match ends after this many turns (SH-1, SH-9)",
        minimum=1,
        maximum=LONGEST_MATCH,
    ),
    ConfigField.integer(
        "turn_seconds",
        TURN_SECONDS,
        "length of every turn in seconds; a turn closes early once every seat still alive "
        "has ordered, and a seat silent at the deadline is eliminated (SH-4, SH-10)",
        minimum=1,
        maximum=MAX_SECONDS,
    ),
    ConfigField.choice(
        "razing",
        Razing.EVERY.value,
        "every: every enemy tomb with a surviving enemy shade on it is razed (SH-5); one: "
        "at most one a turn, the lowest tomb id, as the original server (SH-5 option)",
        [razing.value for razing in Razing],
    ),
    ConfigField.choice(
        "scoring",
        Scoring.POINTS.value,
        "points: tombs at the start, raze -1 to the owner and +2 to the razer, +1 to each "
        "survivor of a turn per seat eliminated in it (SH-6); normalised: the original's, "
        "each tomb worth 100/(tombs a seat), 100 split among the survivors (SH-6 option)",
        [scoring.value for scoring in Scoring],
    ),
)

PRESETS = (
    Preset(
        "contest",
        "the original contest server's settings: 300 turns of 5 s, one tomb razed a turn "
        "(SH-5 option) and its normalised scoring (SH-6 option); the match still names its map",
        {
            "turns": TURNS,
            "turn_seconds": TURN_SECONDS,
            "razing": Razing.ONE.value,
            "scoring": Scoring.NORMALISED.value,
        },
    ),
)


@dataclass(frozen=True)
class GameSettings:
    """A validated config as a value."""

    rows: tuple[str, ...] = DEFAULT_MAP
    turns: int = TURNS
    turn_seconds: int = TURN_SECONDS
    razing: Razing = Razing.EVERY
    scoring: Scoring = Scoring.POINTS

    @classmethod
    def of(cls, config: Config) -> GameSettings:
        """Returns the settings of a validated config."""
        return cls(
            rows=tuple(config["map"]),
            turns=config["turns"],
            turn_seconds=config["turn_seconds"],
            razing=Razing(config["razing"]),
            scoring=Scoring(config["scoring"]),
        )

    @property
    def board(self) -> Board:
        """Returns the map's Board."""
        return board_of(self.rows)

    def to_json(self) -> Config:
        """Returns the config object these settings stand for."""
        return {
            "map": list(self.rows),
            "turns": self.turns,
            "turn_seconds": self.turn_seconds,
            "razing": self.razing.value,
            "scoring": self.scoring.value,
        }
