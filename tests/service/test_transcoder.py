"""The store's JSON transcoder (service/store/transcodings.py `MatchTranscoder`, issue 46):
eventsourcing's, with a decoding hook that looks before it takes a typed value, so it
reads every stored form exactly as the library's transcoder does."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import pytest
from eventsourcing.persistence import JSONTranscoder, TranscodingNotRegisteredError

from domain.match import MovementLog, Seat
from service.store.transcodings import MatchTranscoder
from tests.support.matches import started

WHEN = datetime(2026, 12, 7, 1, 2, 3, 456789, tzinfo=UTC)


def library_and_ours(matches) -> tuple[JSONTranscoder, JSONTranscoder]:
    """Returns the library's transcoder and ours, both with the store's transcodings."""
    library = JSONTranscoder()
    matches.store.register_transcodings(library)
    return library, matches.store.mapper.transcoder


def test_the_store_decodes_with_the_match_transcoder(matches):
    assert type(matches.store.mapper.transcoder) is MatchTranscoder


@pytest.mark.parametrize(
    "value",
    [
        {"at": WHEN, "id": UUID(int=7)},
        {"seat": 1, "order": "hold"},  # two keys, not a typed value
        {"_type_": "note", "text": "x"},  # the type's key beside another: a plain object
        {"_data_": 1, "_type_x": 2},
        {"a": [Seat(1, "ada", "h" * 64)], "b": {"c": MovementLog(3, 10, 11, 14, (12, 13))}},
        [{"_type_": 1}, {"_type_": "x", "_data_": 2, "more": 3}],
    ],
)
def test_it_reads_back_what_the_library_reads(matches, value):
    library, ours = library_and_ours(matches)
    encoded = library.encode(value)
    assert ours.encode(value) == encoded
    assert ours.decode(encoded) == library.decode(encoded) == value


def test_every_stored_event_and_snapshot_of_a_match_decodes_as_the_library_decodes(matches):
    new, alice, bob = started(matches, {"rounds": 9})
    for order in "123123123":
        matches.submit_order(new.match_id, alice.token, order)
        matches.submit_order(new.match_id, bob.token, order)
    library, ours = library_and_ours(matches)
    compressor = matches.store.mapper.compressor
    rows = [
        *matches.store.recorder.select_events(new.match_id),
        *matches.store.snapshots.recorder.select_events(new.match_id),
    ]
    assert len(rows) > 25 and any(row.topic.endswith("Snapshot") for row in rows)
    for row in rows:
        body = compressor.decompress(row.state) if compressor else row.state
        assert ours.decode(body) == library.decode(body), row.topic


def test_an_unknown_typed_value_is_refused_as_the_library_refuses_it(matches):
    _, ours = library_and_ours(matches)
    with pytest.raises(TranscodingNotRegisteredError, match=r"drts\.unheard_of"):
        ours.decode(b'{"_type_": "drts.unheard_of", "_data_": 1}')
