"""`normalized` and `jsonable` (domain/integrity.py) take a fast path by exact type; these
tests hold them to their general definitions, which the chain of every stored match
depends on (docs/integrity.md): the same values, of the same types, byte for byte. And
`canonical`, which hashes a value without building its JSON form first, to the bytes of
that form."""

from __future__ import annotations

import enum
from datetime import UTC, datetime
from types import MappingProxyType
from uuid import UUID

import pytest

from domain.integrity import (
    canonical,
    chain_link,
    event_body,
    iso,
    jsonable,
    next_chain,
    normalized,
)
from domain.rules.contract import canonical_json


class Colour(enum.StrEnum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


WHEN = datetime(2030, 1, 1, 12, 30, tzinfo=UTC)
ID = UUID("12345678-1234-5678-1234-567812345678")
VALUES = [
    None,
    True,
    0,
    -7,
    2.5,
    "text",
    Colour.RED,
    Level.HIGH,
    (1, (2, [3, {"a": (4,)}])),
    {"a": {"b": [True, None, 1.0, Colour.RED]}, "c": ()},
    MappingProxyType({"k": (Level.HIGH, "v")}),
    {"when": WHEN, "id": ID, "nested": [{"when": WHEN}]},
]


def general_normalized(value: object) -> object:
    """`normalized` as first defined: isinstance checks only."""
    if isinstance(value, dict | MappingProxyType):
        return {k: general_normalized(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [general_normalized(v) for v in value]
    return value


def general_jsonable(value: object) -> object:
    """`jsonable` as first defined: isinstance checks only."""
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, dict | MappingProxyType):
        return {k: general_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [general_jsonable(v) for v in value]
    return value


def typed(value: object) -> object:
    """The value with every type spelled out, so that 1 and True, or a StrEnum and its
    str, compare different."""
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [typed(v) for v in value]
    return (type(value), value)


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_normalized_gives_what_its_general_definition_gives(value):
    assert typed(normalized(value)) == typed(general_normalized(value))


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_jsonable_gives_what_its_general_definition_gives_byte_for_byte(value):
    assert typed(jsonable(value)) == typed(general_jsonable(value))
    assert canonical_json({"v": jsonable(value)}) == canonical_json({"v": general_jsonable(value)})


def test_a_key_that_is_not_a_string_is_refused():
    with pytest.raises(TypeError, match="keys must be strings"):
        jsonable({1: "one"})
    with pytest.raises(TypeError, match="keys must be strings"):
        normalized({("a",): "tuple key"})


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_canonical_gives_the_canonical_json_of_the_json_form_byte_for_byte(value):
    assert canonical({"v": value}) == canonical_json({"v": general_jsonable(value)})


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_a_json_value_is_hashed_as_canonical_json_hashes_it(value):
    native = jsonable(value)
    assert canonical(native) == canonical_json(native)


def test_canonical_refuses_what_has_no_json_form():
    with pytest.raises(TypeError, match="not JSON-native"):
        canonical({"v": object()})
    with pytest.raises(ValueError, match="aware UTC"):
        canonical({"when": datetime(2030, 1, 1)})  # naive: as jsonable refuses it
    with pytest.raises(ValueError):
        canonical({"v": float("nan")})


def test_a_new_events_chain_link_is_the_link_of_its_json_body():
    data = {"when": WHEN, "id": ID, "steps": (1, (2, 3)), "view": MappingProxyType({"a": 1})}
    link = chain_link("previous", "StepApplied", 7, WHEN, data)
    assert link == next_chain("previous", event_body("StepApplied", 7, WHEN, data))
