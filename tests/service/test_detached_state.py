"""A state served is a copy (service/queries/views.py `detached`, issue 46): through orjson,
the same copy as the standard library's JSON round trip, for any state the store holds
or a match keeps (floats decoded from the store, big integers, tuples, any text)."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.queries.views import detached
from service.store.transcodings import StoredFloat

# no event records NaN or infinity (the chain's canonical JSON refuses them); decoded, any
FINITE = st.floats(allow_nan=False, allow_infinity=False)
STATES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text()
    | FINITE
    | st.floats(allow_nan=False).map(StoredFloat),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(STATES)
def test_a_copy_is_the_standard_librarys_round_trip(state):
    copy = detached(state)
    expected = json.loads(json.dumps(state))
    assert json.dumps(copy) == json.dumps(expected)  # 1 and 1.0 told apart
    assert copy == expected


def test_a_copy_shares_nothing_with_the_state():
    state = {"board": [[1, 2], [3, {"item": "key"}]], "score": StoredFloat(2.5)}
    copy = detached(state)
    copy["board"][1][1]["item"] = "moved"
    copy["board"][0].append(9)
    assert state == {"board": [[1, 2], [3, {"item": "key"}]], "score": 2.5}


def test_what_json_refuses_is_still_refused():
    with pytest.raises(TypeError):
        detached({"at": datetime(2026, 12, 7, tzinfo=UTC)})
    assert math.isinf(detached([StoredFloat("inf")])[0])  # as json.loads(json.dumps(...))
