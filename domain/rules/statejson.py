"""Readers of a state JSON shared by the rulesets' `load_state`: an object with exactly its
keys, an integer within bounds. Each raises InvalidStateError naming where the fault is."""

from __future__ import annotations

from collections.abc import Mapping

from domain.errors import InvalidStateError
from domain.rules.contract import JSON


def json_object(value: JSON, where: str, keys: tuple[str, ...]) -> Mapping[str, JSON]:
    """Returns `value` if it is a JSON object with exactly `keys`; raises InvalidStateError
    naming the missing and unknown keys otherwise."""
    if not isinstance(value, dict):
        raise InvalidStateError(f"{where} must be a JSON object, not {value!r}")
    if set(value) != set(keys):
        missing, extra = sorted(set(keys) - set(value)), sorted(set(value) - set(keys))
        raise InvalidStateError(f"{where}: missing keys {missing}, unknown keys {extra}")
    return value


def json_integer(value: JSON, where: str, low: int, high: int) -> int:
    """Returns `value` if it is an integer (not a boolean) in low..high; raises
    InvalidStateError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidStateError(f"{where} must be an integer in {low}..{high}, not {value!r}")
    return value
