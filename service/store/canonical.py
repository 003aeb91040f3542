"""The chain check's canonical JSON of stored events by orjson (issue 46).

`integrity.canonical` (docs/integrity.md) is the standard library's C encoder, sorted keys,
no spaces, UTF-8. orjson writes the same bytes for every JSON value without a float,
about ten times faster: its keys sort by code point as Python's do, its strings escape
the same characters the same way, its integers and UUIDs are written alike. It writes
floats differently (1e-05 as 0.00001, 2.5e-07 as 2.5e-7, NaN as null), so
`stored_canonical` takes only values the store decoded, whose floats are StoredFloat
(service/store/transcodings.py): orjson refuses those, and the value is then encoded by
`integrity.canonical` itself. orjson also refuses what it cannot write as the standard
library does (an integer beyond 64 bits, a key that is not a string, a lone surrogate,
a deep nesting, a dataclass): the same fallback. tests/service/test_stored_canonical.py
holds the two to the same bytes.
"""

from __future__ import annotations

from typing import Any

import orjson
from eventsourcing.persistence import Mapper

from domain.integrity import Encode, canonical, native_form
from service.store.transcodings import MatchTranscoder

OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def stored_canonical(value: object) -> bytes:
    """Returns `integrity.canonical(value)` for a value decoded from the store (its floats
    StoredFloat); never for a value that may hold a plain float (module docstring)."""
    try:
        return orjson.dumps(value, default=native_form, option=OPTIONS)
    except orjson.JSONEncodeError:  # a StoredFloat, or what orjson writes otherwise
        return canonical(value)


def chain_encoder(mapper: Mapper[Any]) -> Encode:
    """Returns the encoder the chain check of the mapper's decoded events may use:
    `stored_canonical` where its transcoder decodes floats as StoredFloat, else
    `integrity.canonical` (a transcoder named in the environment)."""
    return stored_canonical if isinstance(mapper.transcoder, MatchTranscoder) else canonical
