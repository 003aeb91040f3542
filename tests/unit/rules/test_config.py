"""The one config validator of the contract (domain/rules/config.py): typed fields, strict
JSON types, bounds, presets, the cross-field check, and config inside a state JSON."""

from __future__ import annotations

import re

import pytest

from domain.errors import InvalidConfigError, InvalidStateError
from domain.rules.config import with_preset
from domain.rules.contract import (
    ConfigField,
    ConfigKind,
    Preset,
    load_config,
    validate_config,
)
from tests.support.toy_ruleset import RULESET as TOY


def _board(value: object) -> object:
    if not isinstance(value, str) or not value.isalpha():
        raise InvalidConfigError(f"board must be letters, got {value!r}")
    return value.upper()


FIELDS = (
    ConfigField.integer("turns", 10, "turns", minimum=1, maximum=99),
    ConfigField.boolean("fast", False, "fast"),
    ConfigField.text("motto", "", "motto", maximum=5),
    ConfigField.choice("colour", "red", "colour", ["red", "blue"]),
    ConfigField.data("board", "abc", "a board of letters", parse=_board),
)


def test_defaults_fill_every_missing_option_and_content_is_normalized():
    assert validate_config(FIELDS, {"turns": 5}) == {
        "turns": 5,
        "fast": False,
        "motto": "",
        "colour": "red",
        "board": "ABC",
    }


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("turns", "1", "'turns' must be an integer from 1 to 99, got '1'"),
        ("turns", 1.5, "'turns' must be an integer from 1 to 99, got 1.5"),
        ("turns", 1.0, "'turns' must be an integer from 1 to 99, got 1.0"),
        ("turns", True, "'turns' must be an integer from 1 to 99, got True"),
        ("turns", 0, "'turns' must be an integer from 1 to 99, got 0"),
        ("turns", 100, "'turns' must be an integer from 1 to 99, got 100"),
        ("turns", 10**12, "'turns' must be an integer from 1 to 99, got 1000000000000"),
        ("fast", 1, "'fast' must be true or false, got 1"),
        ("fast", "true", "'fast' must be true or false, got 'true'"),
        ("motto", "toolong", "'motto' must be a string of 0 to 5 characters, got 'toolong'"),
        ("motto", 5, "'motto' must be a string of 0 to 5 characters, got 5"),
        ("colour", "green", "'colour' must be one of 'red', 'blue', got 'green'"),
        ("board", "a1", "'board': board must be letters, got 'a1'"),
    ],
)
def test_a_value_of_the_wrong_type_or_out_of_range_is_refused_naming_what_is_allowed(
    option, value, message
):
    with pytest.raises(InvalidConfigError, match=f"^config option {re.escape(message)}$"):
        validate_config(FIELDS, {option: value})


def test_unknown_options_are_refused_by_name_with_the_known_ones():
    with pytest.raises(
        InvalidConfigError,
        match=r"unknown config option\(s\) 'speed', 'turn' "
        r"\(options: turns, fast, motto, colour, board\)",
    ):
        validate_config(FIELDS, {"turn": 3, "speed": 1})


def test_a_config_that_is_not_an_object_is_refused():
    with pytest.raises(InvalidConfigError, match="a config is a JSON object"):
        validate_config(FIELDS, ["turns", 3])  # type: ignore[arg-type]


def test_the_api_and_cli_describe_each_kind_in_words():
    assert [f.allowed() for f in FIELDS[:4]] == [
        "an integer from 1 to 99",
        "true or false",
        "a string of 0 to 5 characters",
        "one of 'red', 'blue'",
    ]
    assert [f.kind for f in FIELDS] == list(ConfigKind)


def test_a_preset_gives_its_values_under_the_options_given():
    presets = (Preset("long", "a long game", {"turns": 90, "fast": True}),)
    assert with_preset(presets, "long", {"fast": False}) == {"turns": 90, "fast": False}
    assert with_preset(presets, None, {"fast": False}) == {"fast": False}
    with pytest.raises(InvalidConfigError, match=r"unknown preset 'short' \(presets: long\)"):
        with_preset(presets, "short", {})


def test_a_ruleset_expands_a_preset_into_plain_values():
    """The toy's `quick` preset: one round; a match's config records the values, not the name."""
    config = TOY.configure({"close_early": False}, "quick")
    assert config == {**TOY.info.defaults(), "rounds": 1, "close_early": False}
    assert "preset" not in config


def test_the_cross_field_check_runs_after_the_typed_one():
    """The toy's check: an extension is never longer than the movement it extends."""
    with pytest.raises(
        InvalidConfigError,
        match=r"'extension_seconds' must be an integer from 1 to deadline_seconds \(20\), got 30",
    ):
        TOY.validate_config({"deadline_seconds": 20})
    with pytest.raises(InvalidConfigError, match="'deadline_seconds' must be an integer"):
        TOY.validate_config({"deadline_seconds": "20"})  # typed first: no TypeError in the check


def test_a_state_config_that_the_fields_refuse_is_an_invalid_state():
    with pytest.raises(InvalidStateError, match=r"^state config: config option 'turns' must be"):
        load_config(FIELDS, {"turns": 0})
    with pytest.raises(InvalidStateError, match=r"^state config: a config is a JSON object"):
        load_config(FIELDS, None)
