"""The match config of Shades: the map (SH-2), the clock (SH-1, SH-10), razing (SH-5) and
scoring (SH-6), and the `contest` preset (the original contest server's settings).

Version 1 has those options (`CONFIG_FIELDS`, `PRESETS`); version 2 adds the
elimination bonus (SH-6's sequential option) and the contested human (SH-12
and its option), `CONFIG_FIELDS_V2` and `PRESETS_V2`, whose `contest` preset
takes both options. A version 1 setting has neither (None in GameSettings),
and its config and state JSON never hold them.

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


class EliminationBonus(StrEnum):
    """When the bonus of a turn's eliminations is paid (SH-6 and its option; version 2)."""

    END_OF_TURN = "end_of_turn"  # SH-6: to the seats alive after the turn
    SEQUENTIAL = "sequential"  # SH-6 option: removal by removal, in seat order, as the original


class ContestedHuman(StrEnum):
    """What becomes of a human marked by shades of several seats (SH-12; version 2)."""

    ESCAPES = "escapes"  # SH-12: its soul escapes, no seat gets it
    FIRST_FOUND = "first_found"  # SH-12 option: the seat of the first shade found gets it


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

CONFIG_FIELDS_V2 = (
    *CONFIG_FIELDS,
    ConfigField.choice(
        "elimination_bonus",
        EliminationBonus.END_OF_TURN.value,
        "end_of_turn: each seat eliminated in a turn pays the seats alive after it, and seats "
        "eliminated together get nothing from each other (SH-6); sequential: the turn's "
        "eliminated seats are removed one by one in seat order, each paying every seat still "
        "in at that moment, as the original server (SH-6 option)",
        [bonus.value for bonus in EliminationBonus],
    ),
    ConfigField.choice(
        "contested_human",
        ContestedHuman.ESCAPES.value,
        "escapes: a human marked by shades of several seats is lost to all (SH-12); "
        "first_found: the seat of the first shade found on (x-1, y), (x, y-1), (x, y), "
        "(x, y+1), (x+1, y) stores it, as the original server (SH-12 option)",
        [contested.value for contested in ContestedHuman],
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

PRESETS_V2 = (
    Preset(
        "contest",
        "the original contest server's settings: 300 turns of 5 s, one tomb razed a turn "
        "(SH-5 option), its normalised scoring and sequential elimination bonus (SH-6 "
        "options) and its contested human (SH-12 option); the match still names its map",
        {
            **PRESETS[0].values,
            "elimination_bonus": EliminationBonus.SEQUENTIAL.value,
            "contested_human": ContestedHuman.FIRST_FOUND.value,
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
    elimination_bonus: EliminationBonus | None = None  # version 2 only; None in version 1
    contested_human: ContestedHuman | None = None  # version 2 only; None in version 1

    @classmethod
    def of(cls, config: Config) -> GameSettings:
        """Returns the settings of a validated config."""
        return cls(
            rows=tuple(config["map"]),
            turns=config["turns"],
            turn_seconds=config["turn_seconds"],
            razing=Razing(config["razing"]),
            scoring=Scoring(config["scoring"]),
            elimination_bonus=(
                EliminationBonus(config["elimination_bonus"])
                if "elimination_bonus" in config
                else None
            ),
            contested_human=(
                ContestedHuman(config["contested_human"]) if "contested_human" in config else None
            ),
        )

    @property
    def sequential_bonus(self) -> bool:
        """Returns whether eliminations pay removal by removal (SH-6's sequential option)."""
        return self.elimination_bonus is EliminationBonus.SEQUENTIAL

    @property
    def contested_rule(self) -> str:
        """Returns the ruling a contested human's step cites: SH-12 (version 2), or SH-3 as
        version 1 always did, so that its stored steps stay as they are."""
        return "SH-3" if self.contested_human is None else "SH-12"

    @property
    def board(self) -> Board:
        """Returns the map's Board."""
        return board_of(self.rows)

    def to_json(self) -> Config:
        """Returns the config object these settings stand for."""
        config: Config = {
            "map": list(self.rows),
            "turns": self.turns,
            "turn_seconds": self.turn_seconds,
            "razing": self.razing.value,
            "scoring": self.scoring.value,
        }
        if self.elimination_bonus is not None:
            config["elimination_bonus"] = self.elimination_bonus.value
        if self.contested_human is not None:
            config["contested_human"] = self.contested_human.value
        return config
