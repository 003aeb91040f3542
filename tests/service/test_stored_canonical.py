"""The chain check's orjson encoder of stored events (service/store/canonical.py, issue 46)
writes `integrity.canonical`'s bytes, and a stored float keeps the standard library's.

The property test gives both encoders what the store decodes (objects, arrays, strings
of any code point, integers of any size, booleans, null, datetimes, UUIDs, floats as
StoredFloat); the end-to-end test stores a float whose two spellings differ (a pause of
0.00001 s: `1e-05`, orjson's `0.00001`) and checks that the match still loads, replays
and verifies. SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import orjson
import pytest
from eventsourcing.persistence import JSONTranscoder
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.integrity import canonical
from service.matches import Matches
from service.store.canonical import chain_encoder, stored_canonical
from service.store.transcodings import MatchTranscoder, StoredFloat
from tests.support.matches import started

INSTANTS = st.datetimes(
    min_value=datetime(1970, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()  # beyond 64 bits too: orjson refuses them, the fallback writes them
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.text()
    | st.floats().map(StoredFloat)  # NaN and infinities too: the fallback refuses them
    | INSTANTS
    | st.uuids()
)
DECODED = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)


def encoded(encode: Any, value: object) -> bytes | str:
    """Returns the bytes, or the kind of error the encoder raised."""
    try:
        result: bytes = encode(value)
    except (TypeError, ValueError) as error:
        return type(error).__name__ if not isinstance(error, orjson.JSONEncodeError) else "orjson"
    return result


@settings(max_examples=400, deadline=None)
@given(DECODED)
def test_what_the_store_decodes_is_written_as_canonical_writes_it(value):
    assert encoded(stored_canonical, value) == encoded(canonical, value)


def test_every_code_point_is_escaped_or_written_as_canonical_does():
    text = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)
    assert stored_canonical({"text": text, text[:64]: 1}) == canonical({"text": text, text[:64]: 1})


def test_keys_sort_by_code_point_beyond_the_basic_plane():
    value = {chr(0xFFFF): 1, chr(0x10000): 2, "é": 3, "a": 4, "": 5, "A": 6}
    assert stored_canonical(value) == canonical(value)


def test_a_plain_float_is_why_the_store_decodes_stored_floats():
    # orjson spells these unlike the standard library: a plain float must never reach it
    for number in (1e-05, 2.5e-7):
        assert orjson.dumps(number) != canonical(number)
        assert stored_canonical(StoredFloat(number)) == canonical(number)
    assert orjson.dumps(float("nan")) == b"null"  # where canonical refuses NaN
    with pytest.raises(ValueError):
        stored_canonical(StoredFloat("nan"))


def test_the_transcoder_decodes_floats_and_constants_as_stored_floats_and_writes_them_back():
    transcoder = MatchTranscoder()
    text = b'{"a":[1e-05,2.5,1e+16,NaN,-Infinity,3],"b":"1.5"}'
    decoded = transcoder.decode(text)
    assert [type(v) for v in decoded["a"]] == [StoredFloat] * 5 + [int]
    assert decoded["b"] == "1.5"
    assert decoded["a"][:3] == [1e-05, 2.5, 1e16]
    assert transcoder.encode(decoded) == text  # the stored bytes, as a float would give


def test_the_orjson_encoder_is_used_only_with_the_store_transcoder(matches):
    assert chain_encoder(matches.store.mapper) is stored_canonical
    other = type(matches.store.mapper)(transcoder=JSONTranscoder())
    assert chain_encoder(other) is canonical


def test_a_stored_float_spelled_two_ways_loads_replays_and_verifies(matches, clock):
    new, alice, bob = started(matches, {"rounds": 3})
    matches.act(new.match_id, new.referee_token, "pause", {}, "a short one")
    clock.advance(0.00001)
    matches.act(new.match_id, new.referee_token, "resume", {}, "over")
    resumed = next(e for e in matches.events.get(new.match_id) if type(e).__name__ == "Resumed")
    assert resumed.paused_seconds == 1e-05  # json writes 1e-05, orjson would write 0.00001
    assert json.dumps(resumed.paused_seconds) != orjson.dumps(1e-05).decode()
    matches.submit_order(new.match_id, alice.token, "1")
    matches.submit_order(new.match_id, bob.token, "2")
    fresh = Matches(env=matches.env, clock=clock)  # loads and checks every row again
    try:
        assert fresh.get_match(new.match_id).movement == 2
        assert fresh.replay(new.match_id).agrees
        assert fresh.verify_chain(new.match_id).ok
    finally:
        fresh.close()


@pytest.mark.parametrize("moment", [datetime(2026, 12, 7, 4, 42, 53, 123456, tzinfo=UTC)])
def test_an_instant_and_an_id_are_written_in_their_json_form(moment):
    value = {"at": moment, "id": UUID(int=7), "later": moment + timedelta(seconds=1)}
    assert stored_canonical(value) == canonical(value)
