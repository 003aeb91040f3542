"""Dris et-Tessa's match config: its typed fields, its presets and the settings a state keeps.

The clock is the service's, not the rule text's: each turn is one movement
of `turn_seconds` for the seat to move; `timeout` says what a silent seat
suffers: `loss` (the match, at once) or `strike` (a strike and
`extension_seconds` more; the `max_strikes`-th strike loses). DT-6 draws a
match after `draw_turns` turns in a row without a removal.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.rules.contract import MAX_SECONDS, Config, ConfigField, Preset

TIMEOUTS = ("loss", "strike")
MAX_STRIKES = 100  # a guard against absurd configs, not a rule
MAX_DRAW_TURNS = 10_000  # a guard too: beyond it the draw rule is as good as off

CONFIG_FIELDS: tuple[ConfigField, ...] = (
    ConfigField.integer(
        "turn_seconds",
        24 * 3600,
        "seconds the seat to move has for its turn (a day: correspondence play)",
        minimum=1,
        maximum=MAX_SECONDS,
    ),
    ConfigField.choice(
        "timeout",
        "loss",
        "what a turn's deadline passing in silence means: 'loss' loses the match, "
        "'strike' gives a strike and extension_seconds more (max_strikes loses)",
        TIMEOUTS,
    ),
    ConfigField.integer(
        "extension_seconds",
        12 * 3600,
        "with timeout 'strike': seconds added after each strike",
        minimum=1,
        maximum=MAX_SECONDS,
    ),
    ConfigField.integer(
        "max_strikes",
        3,
        "with timeout 'strike': the strike that loses the match (strikes count over the match)",
        minimum=1,
        maximum=MAX_STRIKES,
    ),
    ConfigField.integer(
        "draw_turns",
        100,
        "DT-6: turns in a row (both seats' together, placements included) without a removal "
        "that draw the match",
        minimum=1,
        maximum=MAX_DRAW_TURNS,
    ),
)

PRESETS: tuple[Preset, ...] = (
    Preset(
        "live",
        "play at the board: two minutes a turn; a silent seat gets a strike and a minute more, "
        "the third strike loses",
        {"turn_seconds": 120, "timeout": "strike", "extension_seconds": 60, "max_strikes": 3},
    ),
)

_FIELDS = ("turn_seconds", "timeout", "extension_seconds", "max_strikes", "draw_turns")


@dataclass(frozen=True)
class GameSettings:
    """A match's validated config, as the state keeps it."""

    turn_seconds: int = 24 * 3600
    timeout: str = "loss"
    extension_seconds: int = 12 * 3600
    max_strikes: int = 3
    draw_turns: int = 100


def settings_of(config: Config) -> GameSettings:
    """Returns the settings of a validated config."""
    return GameSettings(**{name: config[name] for name in _FIELDS})


def config_of(settings: GameSettings) -> Config:
    """Returns the config that `settings_of` turns into these settings."""
    return {name: getattr(settings, name) for name in _FIELDS}
