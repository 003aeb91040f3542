"""Typed match config, part of the ruleset contract: fields, presets and the one validator.

A ruleset declares each config option once, as a `ConfigField` with its type
(`ConfigKind`) and its bounds or choices; `validate_config` is the only
validator: it fills defaults and refuses unknown options, wrong types and
out-of-range values with an InvalidConfigError naming the option and what it
allows. Types are strict JSON: "1" is no integer, nor 1.5, nor true; 1 is no
boolean. A `Preset` is a named set of values a match can start from; it is
expanded when the match is created, so a match's recorded config holds plain
values only.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from domain.errors import InvalidConfigError, InvalidStateError

JSON = Any  # a JSON-native value: None, bool, int, float, str, list, dict with str keys
Config = dict[str, JSON]
ConfigCheck = Callable[[Config], None]

MAX_SECONDS = 366 * 24 * 3600  # a year and a day: the longest any clock figure may be
MAX_TEXT = 200  # characters of a str option unless its field says fewer


class ConfigKind(StrEnum):
    """The type of a config option, as the API shows it."""

    INT = "int"  # an integer within [minimum, maximum]
    BOOL = "bool"  # true or false
    STR = "str"  # a string of minimum..maximum characters
    CHOICE = "choice"  # one of `choices`
    DATA = "data"  # content (a board, a map) that the field's `parse` checks and normalizes


@dataclass(frozen=True)
class ConfigField:
    """One config option of a ruleset: its name, default, meaning, type and bounds or choices.

    Build it with `integer`, `boolean`, `text`, `choice` or `data`, which
    require what each kind needs (an integer's bounds, a choice's choices).
    """

    name: str
    default: JSON
    description: str
    kind: ConfigKind = ConfigKind.DATA
    minimum: int | None = None  # INT: the least value; STR: the fewest characters
    maximum: int | None = None  # INT: the greatest value; STR: the most characters
    choices: tuple[str, ...] = ()  # CHOICE: the allowed values
    parse: Callable[[JSON], JSON] | None = field(default=None, compare=False)  # DATA

    @classmethod
    def integer(
        cls, name: str, default: int, description: str, *, minimum: int, maximum: int
    ) -> ConfigField:
        """Returns an integer option within [minimum, maximum]."""
        return cls(name, default, description, ConfigKind.INT, minimum, maximum)

    @classmethod
    def boolean(cls, name: str, default: bool, description: str) -> ConfigField:
        """Returns a true-or-false option."""
        return cls(name, default, description, ConfigKind.BOOL)

    @classmethod
    def text(
        cls, name: str, default: str, description: str, *, minimum: int = 0, maximum: int = MAX_TEXT
    ) -> ConfigField:
        """Returns a string option of minimum..maximum characters."""
        return cls(name, default, description, ConfigKind.STR, minimum, maximum)

    @classmethod
    def choice(
        cls, name: str, default: str, description: str, choices: Sequence[str]
    ) -> ConfigField:
        """Returns an option taking one of `choices`."""
        return cls(name, default, description, ConfigKind.CHOICE, choices=tuple(choices))

    @classmethod
    def data(
        cls, name: str, default: JSON, description: str, parse: Callable[[JSON], JSON]
    ) -> ConfigField:
        """Returns a content option: `parse` returns its normalized value or raises
        InvalidConfigError saying what is wrong."""
        return cls(name, default, description, ConfigKind.DATA, parse=parse)

    def allowed(self) -> str:
        """Returns what the option accepts, in words ("an integer from 1 to 24")."""
        if self.kind is ConfigKind.INT:
            return f"an integer from {self.minimum} to {self.maximum}"
        if self.kind is ConfigKind.BOOL:
            return "true or false"
        if self.kind is ConfigKind.STR:
            return f"a string of {self.minimum} to {self.maximum} characters"
        if self.kind is ConfigKind.CHOICE:
            return "one of " + ", ".join(map(repr, self.choices))
        return self.description

    def checked(self, value: JSON) -> JSON:
        """Returns the value (normalized, for content); raises InvalidConfigError naming the
        option and what it allows."""
        if self.kind is ConfigKind.DATA:
            return self._parsed(value)
        if not self._accepts(value):
            raise InvalidConfigError(
                f"config option {self.name!r} must be {self.allowed()}, got {value!r}"
            )
        return value

    def _accepts(self, value: JSON) -> bool:
        if self.kind is ConfigKind.BOOL:
            return isinstance(value, bool)
        if self.kind is ConfigKind.CHOICE:
            return isinstance(value, str) and value in self.choices
        if self.kind is ConfigKind.STR:
            size = len(value) if isinstance(value, str) else -1
            return self._within(size)
        return isinstance(value, int) and not isinstance(value, bool) and self._within(value)

    def _within(self, number: int) -> bool:
        low = self.minimum if self.minimum is not None else 0
        return low <= number and (self.maximum is None or number <= self.maximum)

    def _parsed(self, value: JSON) -> JSON:
        if self.parse is None:
            return copy.deepcopy(value)
        try:
            return self.parse(value)
        except InvalidConfigError as error:
            raise InvalidConfigError(f"config option {self.name!r}: {error}") from None


@dataclass(frozen=True)
class Preset:
    """A named set of config values a match may start from (others keep their defaults)."""

    name: str
    description: str
    values: Mapping[str, JSON]


def validate_config(
    fields: Sequence[ConfigField], config: Mapping[str, JSON], check: ConfigCheck | None = None
) -> Config:
    """Returns the full config: every option of `fields`, given or default, checked.

    Raises InvalidConfigError for a config that is not an object, an unknown
    option, a value its field refuses, or one the game's cross-field `check`
    refuses.
    """
    if not isinstance(config, Mapping):
        raise InvalidConfigError(f"a config is a JSON object of options, got {config!r}")
    names = [f.name for f in fields]
    unknown = sorted(set(config) - set(names))
    if unknown:
        raise InvalidConfigError(
            f"unknown config option(s) {', '.join(map(repr, unknown))} "
            f"(options: {', '.join(names) or 'none'})"
        )
    full = {f.name: f.checked(config.get(f.name, f.default)) for f in fields}
    if check is not None:
        check(full)
    return full


def with_preset(
    presets: Sequence[Preset], name: str | None, config: Mapping[str, JSON]
) -> dict[str, JSON]:
    """Returns the preset's values with `config`'s on top (`config` alone for no preset).

    Raises InvalidConfigError for a preset the ruleset does not declare.
    """
    if name is None:
        return dict(config)
    for preset in presets:
        if preset.name == name:
            return {**copy.deepcopy(dict(preset.values)), **config}
    known = ", ".join(p.name for p in presets) or "none"
    raise InvalidConfigError(f"unknown preset {name!r} (presets: {known})")


def load_config(
    fields: Sequence[ConfigField], value: JSON, check: ConfigCheck | None = None
) -> Config:
    """Returns the config held by a state JSON; raises InvalidStateError naming the fault."""
    try:
        return validate_config(fields, value, check)
    except InvalidConfigError as error:
        raise InvalidStateError(f"state config: {error}") from None
