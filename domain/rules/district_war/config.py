"""District War's match config: its typed fields, its presets and the settings a state keeps."""

from __future__ import annotations

from dataclasses import dataclass

from domain.rules.contract import JSON, MAX_SECONDS, Config, ConfigField, Preset
from domain.rules.district_war.board import CELLS, DEFAULT_BOARD, Board, parse_board

MAX_STRIKES = 100  # a guard against absurd configs, not a rule


def _board_rows(value: JSON) -> JSON:
    """Returns a board value as the list of its rows; raises InvalidConfigError (DW-1)."""
    return list(parse_board(value).rows)


CONFIG_FIELDS: tuple[ConfigField, ...] = (
    ConfigField.data(
        "board",
        list(DEFAULT_BOARD),
        "DW-1: 7 strings of 7 district labels, top row first; 11 districts, each 4-connected",
        parse=_board_rows,
    ),
    ConfigField.integer(
        "dmo",
        2,
        "DW-2: the seat of the Death Match opponent, who picks who places first",
        minimum=1,
        maximum=2,
    ),
    ConfigField.integer(
        "troops",
        11,
        "troops per seat; a seat's last one goes anywhere (DW-3)",
        minimum=1,
        maximum=len(CELLS) // 2,
    ),
    ConfigField.integer(
        "placement_seconds",
        90,
        "DW-6: seconds per placement, and for the DMO's choice",
        minimum=1,
        maximum=MAX_SECONDS,
    ),
    ConfigField.integer(
        "extension_seconds",
        45,
        "DW-6: seconds added after each strike",
        minimum=1,
        maximum=MAX_SECONDS,
    ),
    ConfigField.integer(
        "max_strikes",
        3,
        "DW-6: the strike that loses the match",
        minimum=1,
        maximum=MAX_STRIKES,
    ),
)

PRESETS: tuple[Preset, ...] = (
    Preset(
        "postal",
        "play by mail or forum post: a day per placement and half a day more after a strike "
        "(DW-6 figures are per match); the third strike still loses",
        {"placement_seconds": 24 * 3600, "extension_seconds": 12 * 3600},
    ),
)

_NUMBERS = ("dmo", "troops", "placement_seconds", "extension_seconds", "max_strikes")


@dataclass(frozen=True)
class GameSettings:
    """A match's validated config, as the state keeps it."""

    board: Board
    dmo: int = 2
    troops: int = 11
    placement_seconds: int = 90
    extension_seconds: int = 45
    max_strikes: int = 3


def settings_of(config: Config) -> GameSettings:
    """Returns the settings of a validated config."""
    numbers = {name: config[name] for name in _NUMBERS}
    return GameSettings(board=Board(tuple(config["board"])), **numbers)


def config_of(settings: GameSettings) -> Config:
    """Returns the config that `settings_of` turns into these settings."""
    numbers = {name: getattr(settings, name) for name in _NUMBERS}
    return {"board": list(settings.board.rows), **numbers}
