"""A process checks the stored snapshots it has not checked yet from the nearest one it
trusts, so that reading each past state once folds each event about once (issue 30), and
a tampered snapshot or event is still refused (service/store/loading.py, docs/integrity.md)."""

from __future__ import annotations

import logging
from uuid import UUID

import pytest

from service.errors import TamperedLogError
from service.matches import SNAPSHOT_INTERVAL, Matches
from tests.support.matches import started
from tests.support.mutations import Rows, rechain_from
from tests.support.snapshots import counting_event_rows, fresh_process

pytestmark = pytest.mark.usefixtures("toy_rulesets")
SNAPSHOTS = 4
FORGED_TIME = {"_type_": "datetime_iso", "_data_": "2031-01-01T00:00:00+00:00"}


def long_match(matches: Matches) -> tuple[UUID, int]:
    """Returns a match with SNAPSHOTS snapshots and a few events past the last, and its
    version (one seat changing its order in movement 1)."""
    new, alice, _ = started(matches, {"close_early": False})
    head = matches.get_match(new.match_id).version
    for i in range(SNAPSHOTS * SNAPSHOT_INTERVAL + 5 - head):
        matches.submit_order(new.match_id, alice.token, str(1 + i % 3))
    snapshots = (
        matches.store.snapshots.recorder.select_events(new.match_id)
        if matches.store.snapshots
        else []
    )
    assert [s.originator_version for s in snapshots] == [
        SNAPSHOT_INTERVAL * n for n in range(1, SNAPSHOTS + 1)
    ]
    return new.match_id, matches.get_match(new.match_id).version


def trusted_versions(app: Matches, match_id: UUID) -> list[int]:
    """Returns the versions of the match's stored snapshots the application trusts."""
    assert app.store.snapshots is not None
    rows = app.store.snapshots.recorder.select_events(match_id)
    return [row.originator_version for row in rows if app.store.snapshot_trust.trusted(row)]


def edit_snapshot(url: str, match_id: UUID, version: int) -> None:
    """Gives seat 1 of the stored snapshot at `version` another token hash."""
    rows = Rows(url, match_id)
    topic, data = rows.row(version, rows.snapshots)
    data["state"]["seats"][0]["_data_"]["token_hash"] = "0" * 64
    rows.write(version, topic, data, rows.snapshots)
    rows.close()


def edit_event_time(url: str, match_id: UUID, version: int) -> Rows:
    """Changes the stored event's timestamp at `version`; returns the rows, still open."""
    rows = Rows(url, match_id)
    topic, data = rows.row(version)
    data["timestamp"] = FORGED_TIME
    rows.write(version, topic, data)
    return rows


def test_reading_each_snapshot_in_a_fresh_process_folds_each_event_about_once(matches, monkeypatch):
    match_id, head = long_match(matches)
    versions = [SNAPSHOT_INTERVAL * n for n in range(1, SNAPSHOTS + 1)] + [head]
    expected = {version: matches.get_match(match_id, version) for version in versions}
    fresh = fresh_process(matches)
    try:
        rows_read = counting_event_rows(fresh, monkeypatch)
        for version in versions:  # as the past-states bench's first pass: oldest first
            assert fresh.get_match(match_id, version) == expected[version]
        # each event once, and one anchor row per trusted start; folding from the first
        # event for each snapshot (before issue 30) read 25 + 50 + 75 + 100 + ...
        assert rows_read() <= head + 2 * len(versions)
        assert trusted_versions(fresh, match_id) == versions[:-1]
    finally:
        fresh.close()


def test_snapshots_read_out_of_order_are_each_checked_once(matches, monkeypatch):
    match_id, head = long_match(matches)
    versions = [2 * SNAPSHOT_INTERVAL, SNAPSHOT_INTERVAL, head, 3 * SNAPSHOT_INTERVAL + 7]
    expected = {version: matches.get_match(match_id, version) for version in versions}
    fresh = fresh_process(matches)
    try:
        rows_read = counting_event_rows(fresh, monkeypatch)
        for version in versions:
            assert fresh.get_match(match_id, version) == expected[version]
        # 50 from the first event, 25 from itself, the head from 50, 82 from 75
        assert rows_read() <= head + 7 + 2 * len(versions)
    finally:
        fresh.close()


def test_a_tampered_snapshot_in_the_middle_is_refused_logged_and_the_reads_stay_right(
    matches, database_url, caplog
):
    match_id, head = long_match(matches)
    versions = [SNAPSHOT_INTERVAL, head, 2 * SNAPSHOT_INTERVAL + 10]
    expected = {version: matches.get_match(match_id, version) for version in versions}
    edit_snapshot(database_url, match_id, 2 * SNAPSHOT_INTERVAL)
    fresh = fresh_process(matches)
    try:
        with caplog.at_level(logging.ERROR, logger="service.store.loading"):
            for version in versions:  # the second and third fold over the edited one
                assert fresh.get_match(match_id, version) == expected[version]
        refused = f"snapshot {2 * SNAPSHOT_INTERVAL} of match {match_id} differs from its events"
        assert [r.getMessage() for r in caplog.records] == [f"{refused} (seats); not used"] * 2
        assert trusted_versions(fresh, match_id) == [25, 75, 100]
    finally:
        fresh.close()


def test_a_tampered_event_below_a_trusted_snapshot_is_found_by_a_fresh_process(
    matches, database_url
):
    match_id, head = long_match(matches)
    checker = fresh_process(matches)
    fresh = fresh_process(matches)
    try:
        checker.get_match(match_id)  # trusts every snapshot
        edit_event_time(database_url, match_id, SNAPSHOT_INTERVAL + 5).close()
        assert fresh.get_match(match_id, SNAPSHOT_INTERVAL).version == SNAPSHOT_INTERVAL
        for version in (2 * SNAPSHOT_INTERVAL, head):  # folded from the trusted 25 on
            with pytest.raises(TamperedLogError, match=rf"version {SNAPSHOT_INTERVAL + 5} "):
                fresh.get_match(match_id, version)
        assert trusted_versions(fresh, match_id) == [SNAPSHOT_INTERVAL]
    finally:
        checker.close()
        fresh.close()


def test_a_trusted_snapshot_whose_chain_is_no_longer_the_logs_is_not_a_start(
    matches, database_url, caplog
):
    match_id, head = long_match(matches)
    fresh = fresh_process(matches)
    try:
        fresh.get_match(match_id, 2 * SNAPSHOT_INTERVAL)  # trusts 25 and 50
        rows = edit_event_time(database_url, match_id, 10)
        rechain_from(rows, matches, 10)  # the tamperer's rewrite: every link looks sound
        rows.close()
        with caplog.at_level(logging.ERROR, logger="service.store.loading"):
            match = fresh.get_match(match_id, head)
        assert f"snapshot 50 of match {match_id}: its chain is not the log's" in caplog.text
        assert f"snapshot 75 of match {match_id} differs from its events" in caplog.text
        (last,) = matches.store.recorder.select_events(match_id, gt=head - 1)
        assert match.chain == matches.store.mapper.to_domain_event(last).chain  # the log's, folded
        assert trusted_versions(fresh, match_id) == [25, 50]
    finally:
        fresh.close()
