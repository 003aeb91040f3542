"""Snapshots hold the Match's typed values, and older snapshots of untyped attributes still
load (docs/contributing.md, rule 5)."""

from __future__ import annotations

import gc
import json
from dataclasses import asdict
from typing import Any

from eventsourcing.domain import Snapshot
from eventsourcing.persistence import StoredEvent

from domain.match import Dispute, Match, MovementLog, PendingOrder, Seat
from service.store.transcodings import MovementLogRows, MovementLogRowsValue, snapshot_of
from tests.support.matches import started


def play_some(matches, clock) -> Match:
    """Returns a match in movement 3 with an order pending."""
    new, alice, bob = started(matches, {"rounds": 5})
    for _ in range(2):
        matches.submit_order(new.match_id, alice.token, "1")
        matches.submit_order(new.match_id, bob.token, "2")
    matches.submit_order(new.match_id, alice.token, "3")
    return matches.get_match(new.match_id)


def as_shape_1(match: Match) -> dict[str, Any]:
    """Returns the attributes of a match as a snapshot stored them before typed values."""
    state = {
        k: v for k, v in vars(match).items() if k not in ("_id", "_version", "_pending_events")
    }
    state["seats"] = [
        {"seat": s.number, "name": s.name, "token_hash": s.token_hash} for s in match.seats
    ]
    state["pending"] = [asdict(p) for p in match.pending]
    state["movements"] = {
        str(log.number): {
            "opened": log.opened,
            "steps": list(log.steps),
            **({"closed": log.closed} if log.closed is not None else {}),
            **({"resolved": log.resolved} if log.resolved is not None else {}),
        }
        for log in match.movements
    }
    state["replay_id"], state["replay_of"] = state.pop("rematch_id"), state.pop("rematch_of")
    del state["closed_at"]  # shape 3 (issue 13)
    del state["paused"], state["clock_floor"], state["disputes"]  # shape 4 (issue 18)
    del state["timeline"], state["voided"]  # shape 4 (issue 19)
    return state


def test_a_snapshot_stores_the_typed_values_and_loads_them_back_equal(matches, clock):
    match = play_some(matches, clock)
    matches.store.take_snapshot(match.id)
    (stored,) = matches.store.snapshots.recorder.select_events(match.id, desc=True, limit=1)
    assert stored.originator_version == match.version
    compressor = matches.store.mapper.compressor
    body = json.loads(compressor.decompress(stored.state) if compressor else stored.state)
    assert body["state"]["seats"][0]["_type_"] == "drts.seat"
    assert body["state"]["movements"]["_type_"] == "drts.movement_log_rows"
    assert len(body["state"]["movements"]["_data_"]) == len(match.movements)
    loaded = matches.get_match(match.id)
    assert loaded == match and matches.replay(match.id).agrees
    assert isinstance(loaded.seats[0], Seat) and isinstance(loaded.pending[0], PendingOrder)
    assert isinstance(loaded.movements[1], MovementLog)
    assert isinstance(loaded.movements[1].steps, tuple) and loaded.movements[1].steps


def test_movement_logs_are_stored_as_rows_with_their_steps_counted(matches, clock):
    """Issue 46: a log's StepApplied versions that follow its close are stored as their
    count; other steps as their list; a match's rows are one typed value; all load back
    as they were."""
    transcoder = matches.store.mapper.transcoder
    resolved = MovementLog(2, 10, 14, 18, (15, 16, 17))
    odd = MovementLog(3, 19, 20, 25, (22, 24))
    opened = MovementLog(4, 26)
    encoded = transcoder.encode(MovementLogRows([resolved, odd, opened]))
    assert json.loads(encoded) == {
        "_type_": "drts.movement_log_rows",
        "_data_": [[2, 10, 14, 18, 3], [3, 19, 20, 25, [22, 24]], [4, 26, None, None, []]],
    }
    assert transcoder.decode(encoded) == [resolved, odd, opened]


def test_a_movement_logs_row_is_made_once_and_a_changed_log_gets_its_own():
    """Issue 46: a log never changes, so its row is remembered by its identity; the log
    a later event makes (a new object) is encoded anew."""
    rows = MovementLogRowsValue()
    open_log = MovementLog(4, 26)
    first = rows.encode(MovementLogRows([open_log]))[0]
    assert rows.encode(MovementLogRows([open_log]))[0] is first
    closed_log = MovementLog(4, 26, 27)
    assert rows.encode(MovementLogRows([closed_log])) == [[4, 26, 27, None, 0]]
    assert rows.encode(MovementLogRows([MovementLog(4, 26)])) == [first]


def test_a_movement_logs_row_is_forgotten_when_the_log_is_freed():
    """Issue 46: the rows made hold no log longer than the matches that hold it."""
    rows = MovementLogRowsValue()
    logs = [MovementLog(number, 10 * number) for number in range(1, 4)]
    rows.encode(MovementLogRows(logs))
    assert len(rows.rows) == 3
    del logs[:2]
    gc.collect()
    assert len(rows.rows) == 1
    assert rows.encode(MovementLogRows(logs)) == [[3, 30, None, None, []]]


def test_a_snapshot_is_compressed_at_zlibs_fastest_level(matches, clock):
    """Issue 46: a snapshot is a cache of the checked log; the store loads any level."""
    match = play_some(matches, clock)
    matches.store.take_snapshot(match.id)
    (stored,) = matches.store.snapshots.recorder.select_events(match.id, desc=True, limit=1)
    assert bytes(stored.state)[:2] == b"\x78\x01"  # zlib's header for level 1
    assert matches.store.mapper.to_domain_event(stored).mutate(None) == match


def test_a_snapshot_with_a_row_for_each_movement_log_still_loads(matches, clock):
    """Issue 46: snapshots stored before the one value of rows keep a
    `drts.movement_log_row` value for each log."""
    match = play_some(matches, clock)
    stored, body = stored_snapshot(matches, match)
    body["state"]["movements"] = [
        {"_type_": "drts.movement_log_row", "_data_": row}
        for row in body["state"]["movements"]["_data_"]
    ]
    loaded = matches.store.mapper.to_domain_event(restored(matches, stored, body)).mutate(None)
    assert loaded.movements == match.movements and loaded == match


def test_a_snapshot_with_movement_logs_as_dicts_still_loads(matches, clock):
    """Issue 46: snapshots stored before the rows keep `drts.movement_log` dicts."""
    match = play_some(matches, clock)
    stored, body = stored_snapshot(matches, match)
    body["state"]["movements"] = [
        {"_type_": "drts.movement_log", "_data_": {**asdict(log), "steps": list(log.steps)}}
        for log in match.movements
    ]
    loaded = matches.store.mapper.to_domain_event(restored(matches, stored, body)).mutate(None)
    assert loaded.movements == match.movements and loaded == match


def stored_snapshot(matches, match: Match) -> tuple[StoredEvent, dict[str, Any]]:
    """Returns the stored row of a snapshot of the match, as the store makes it, and its
    decoded JSON body."""
    stored = matches.store.mapper.to_stored_event(snapshot_of(match))
    compressor = matches.store.mapper.compressor
    return stored, json.loads(compressor.decompress(stored.state) if compressor else stored.state)


def restored(matches, stored: StoredEvent, body: dict[str, Any]) -> StoredEvent:
    """Returns the stored snapshot with its body replaced by `body`."""
    compressor = matches.store.mapper.compressor
    raw = json.dumps(body).encode()
    return StoredEvent(
        originator_id=stored.originator_id,
        originator_version=stored.originator_version,
        topic=stored.topic,
        state=compressor.compress(raw) if compressor else raw,
    )


def test_a_snapshot_of_the_untyped_shape_is_brought_up_to_date_as_it_loads(matches, clock):
    match = play_some(matches, clock)
    old = Snapshot(
        originator_id=match.id,
        originator_version=match.version,
        timestamp=Snapshot.create_timestamp(),
        topic="domain.match:Match",
        state=as_shape_1(match),
    )
    matches.store.snapshots.put([old])
    loaded = matches.get_match(match.id)
    # an old snapshot knows no intended close (None: its closes were stored without one)
    assert loaded.closed_at is None
    match.closed_at = None
    assert loaded == match
    assert loaded.seats == match.seats and loaded.movements == match.movements


def test_a_snapshot_stores_disputes_and_loads_them_back_equal(matches, clock):
    new, alice, _ = started(matches, {"rounds": 5})
    matches.file_dispute(new.match_id, alice.token, [2, 1], "a dispute")
    matches.file_dispute(new.match_id, new.referee_token, [3], "another")
    matches.rule_dispute(new.match_id, new.referee_token, 1, "upheld", "a note")
    match = matches.get_match(new.match_id)
    matches.store.take_snapshot(match.id)
    (stored,) = matches.store.snapshots.recorder.select_events(match.id, desc=True, limit=1)
    compressor = matches.store.mapper.compressor
    body = json.loads(compressor.decompress(stored.state) if compressor else stored.state)
    assert body["state"]["disputes"][0]["_type_"] == "drts.dispute"
    loaded = matches.get_match(match.id)
    assert loaded == match and isinstance(loaded.disputes[0], Dispute)
    assert loaded.disputes[0].cites == (1, 2) and loaded.disputes[0].ruling == "upheld"
    assert loaded.disputes[1].is_open


def test_a_snapshot_of_shape_3_loads_with_no_disputes(matches, clock):
    match = play_some(matches, clock)
    state = {
        k: v
        for k, v in vars(match).items()
        if k not in ("_id", "_version", "_pending_events", "disputes")
    }
    old = Snapshot(
        originator_id=match.id,
        originator_version=match.version,
        timestamp=Snapshot.create_timestamp(),
        topic="domain.match:Match",
        state={**state, "class_version": 3},
    )
    matches.store.snapshots.put([old])
    loaded = matches.get_match(match.id)
    assert loaded.disputes == [] and loaded == match
    assert matches.verify_chain(match.id).problems == ()  # the snapshot agrees with the log
