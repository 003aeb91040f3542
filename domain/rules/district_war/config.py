"""District War's match config: its fields, their validation and the settings a state keeps."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from domain.errors import InvalidConfigError
from domain.rules.contract import JSON, Config, ConfigField
from domain.rules.district_war.board import CELLS, DEFAULT_BOARD, Board, parse_board

CONFIG_FIELDS: tuple[ConfigField, ...] = (
    ConfigField(
        "board",
        list(DEFAULT_BOARD),
        "DW-1: 7 strings of 7 district labels, top row first; 11 districts, each 4-connected",
    ),
    ConfigField("dmo", 2, "DW-2: the seat of the Death Match opponent, who picks who places first"),
    ConfigField("troops", 11, "troops per seat (1-24); a seat's last one goes anywhere (DW-3)"),
    ConfigField("placement_seconds", 90, "DW-6: seconds per placement, and for the DMO's choice"),
    ConfigField("extension_seconds", 45, "DW-6: seconds added after each strike"),
    ConfigField("max_strikes", 3, "DW-6: the strike that loses the match"),
)

# Each field's inclusive range; None is unbounded.
_BOUNDS: dict[str, tuple[int, int | None]] = {
    "dmo": (1, 2),
    "troops": (1, len(CELLS) // 2),
    "placement_seconds": (1, None),
    "extension_seconds": (1, None),
    "max_strikes": (1, None),
}


@dataclass(frozen=True)
class Settings:
    """A match's validated config, as the state keeps it."""

    board: Board
    dmo: int = 2
    troops: int = 11
    placement_seconds: int = 90
    extension_seconds: int = 45
    max_strikes: int = 3


def validate_config(config: Mapping[str, JSON]) -> Config:
    """Returns the config with defaults filled in; raises InvalidConfigError naming the fault."""
    known = [f.name for f in CONFIG_FIELDS]
    unknown = sorted(set(config) - set(known))
    if unknown:
        raise InvalidConfigError(
            f"unknown config field(s) {', '.join(unknown)} (known: {', '.join(known)})"
        )
    full: Config = {f.name: f.default for f in CONFIG_FIELDS} | dict(config)
    full["board"] = list(parse_board(full["board"]).rows)
    for name, (low, high) in _BOUNDS.items():
        _check_int(name, full[name], low, high)
    return full


def settings_of(config: Config) -> Settings:
    """Returns the settings of a validated config."""
    numbers = {name: config[name] for name in _BOUNDS}
    return Settings(board=Board(tuple(config["board"])), **numbers)


def config_of(settings: Settings) -> Config:
    """Returns the config that `settings_of` turns into these settings."""
    numbers = {name: getattr(settings, name) for name in _BOUNDS}
    return {"board": list(settings.board.rows), **numbers}


def _check_int(name: str, value: JSON, low: int, high: int | None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidConfigError(f"config field {name} must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        allowed = f"{low}-{high}" if high is not None else f"{low} or more"
        raise InvalidConfigError(f"config field {name} is {value}; it must be {allowed}")
