"""A log cut short or rewritten behind the service's back (issue 42; docs/integrity.md):
rows deleted or rewritten with SQL on SQLite and PostgreSQL, then

- a write to a match whose log ends before the head the match list recorded is refused
  (409 tampered_log), stores nothing, quarantines the match, and verify names it; a
  process that kept the match in memory refuses it too;
- the match list moves its head only along the chain: a log rewritten (links
  recomputed) while it lagged, an event removed before it took it, or a version arriving
  again after its head quarantine the match with the reason, the recorded head kept for
  verify, and writes refused.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import psycopg
import pytest
from eventsourcing.persistence import StoredEvent

from domain.integrity import BODY_KEYS, next_chain
from service.errors import TamperedLogError, TruncatedLogError
from service.eventjson import public_item
from service.matches import Matches
from service.settings import Settings, sqlite_path
from service.store.logguard import LogGuard


class Rows:
    """One match's stored event rows, edited with SQL behind the service's back."""

    def __init__(self, url: str, match_id: UUID) -> None:
        self.sqlite = url.startswith("sqlite")
        if self.sqlite:
            self.conn: Any = sqlite3.connect(sqlite_path(url))
            self.table, self.mark, self.key = "stored_events", "?", match_id.hex
        else:
            env = Settings(url).event_store_env()
            self.conn = psycopg.connect(
                dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], user=env["POSTGRES_USER"]
            )
            self.table, self.mark, self.key = "matches_events", "%s", match_id

    def sql(self, text: str, *params: Any) -> list[Any]:
        cursor = self.conn.execute(text.replace("?", self.mark), params)
        rows = list(cursor.fetchall()) if cursor.description else []
        self.conn.commit()
        return rows

    def last(self) -> int:
        return int(
            self.sql(
                f"SELECT MAX(originator_version) FROM {self.table} WHERE originator_id = ?",
                self.key,
            )[0][0]
        )

    def delete(self, *versions: int) -> None:
        for version in versions:
            self.sql(
                f"DELETE FROM {self.table} WHERE originator_id = ? AND originator_version = ?",
                self.key,
                version,
            )

    def row(self, version: int) -> tuple[str, bytes]:
        topic, state = self.sql(
            f"SELECT topic, state FROM {self.table} WHERE originator_id = ? "
            "AND originator_version = ?",
            self.key,
            version,
        )[0]
        return topic, bytes(state)

    def insert(self, version: int, topic: str, state: bytes) -> None:
        """Stores a row at a new log position, past every one used (SQLite would give a
        deleted last row's rowid again; PostgreSQL's sequence never does)."""
        columns, values = "originator_id, originator_version, topic, state", "?, ?, ?, ?"
        if self.sqlite:
            columns, values = f"rowid, {columns}", f"(SELECT MAX(rowid) + 2 FROM {self.table}), "
            values += "?, ?, ?, ?"
        self.sql(
            f"INSERT INTO {self.table} ({columns}) VALUES ({values})",
            self.key,
            version,
            topic,
            state,
        )

    def rechain_from(self, version: int, app: Matches, match_id: UUID) -> None:
        """Edits the event at `version` (its timestamp, by a microsecond) and recomputes
        its link and every later one: a careful rewrite."""
        events = list(app.events.get(match_id))
        previous = events[version - 2].chain if version > 1 else str(match_id)
        for event in events[version - 1 :]:
            topic, raw = self.row(event.originator_version)
            state = json.loads(zlib.decompress(raw))
            if event.originator_version == version:
                stamp = datetime.fromisoformat(state["timestamp"]["_data_"])
                state["timestamp"]["_data_"] = (stamp + timedelta(microseconds=1)).isoformat()
            rebuilt = app.store.mapper.to_domain_event(
                StoredEvent(
                    originator_id=match_id,
                    originator_version=event.originator_version,
                    topic=topic,
                    state=zlib.compress(json.dumps(state).encode()),
                )
            )
            item = public_item(rebuilt, with_sealed=False)
            state["chain"] = previous = next_chain(previous, {k: item[k] for k in BODY_KEYS})
            self.sql(
                f"UPDATE {self.table} SET state = ? WHERE originator_id = ? "
                "AND originator_version = ?",
                zlib.compress(json.dumps(state).encode()),
                self.key,
                event.originator_version,
            )


@pytest.fixture
def fresh(database_url: str, clock: Any, toy_rulesets: None) -> Iterator[Any]:
    """Returns a function opening another Matches process on the same store (none of the
    kept matches of the first), all closed afterwards."""
    opened: list[Matches] = []

    def open_one() -> Matches:
        app = Matches(env=Settings(database_url).event_store_env(), clock=clock)
        opened.append(app)
        return app

    yield open_one
    for app in opened:
        app.close()


def played_to_the_end(matches: Matches, clock: Any) -> tuple[UUID, list[str]]:
    """A toy match of two seats and one round, played to its finish: tokens by seat."""
    new = matches.create_match("toy", {"rounds": 1, "close_early": True}, seed="cut")
    tokens = [matches.join(new.match_id, name).token for name in ("ann", "bo")]
    matches.start(new.match_id, str(new.referee_token))
    matches.submit_order(new.match_id, tokens[0], "1")
    matches.submit_order(new.match_id, tokens[1], "2")
    assert matches.summary(new.match_id).status == "finished"
    return new.match_id, tokens


def test_a_write_to_a_log_cut_short_before_the_recorded_head_is_refused_and_quarantined(
    matches, clock, database_url, fresh
):
    """The issue's case with the read model holding the head: the last events of a
    finished match deleted, then a different last order. Refused, nothing stored, the
    match quarantined, verify naming the truncation; in another process and in the one
    that kept the match in memory alike."""
    match_id, tokens = played_to_the_end(matches, clock)
    matches.read_models.catch_up()
    rows = Rows(database_url, match_id)
    end = rows.last()
    last_order = next(
        e["version"] for e in reversed(matches.event_log(match_id)) if e["type"] == "OrderSubmitted"
    )
    rows.delete(*range(last_order, end + 1))  # bo's order and everything after it

    other = fresh()
    with pytest.raises(TruncatedLogError) as refused:
        other.submit_order(match_id, tokens[1], "1")
    assert isinstance(refused.value, TamperedLogError)  # 409 tampered_log over the API
    assert f"the log ends at version {last_order - 1}, before the head at version {end}" in str(
        refused.value
    )
    with pytest.raises(TruncatedLogError):  # the process that kept it, ahead of the store
        matches.submit_order(match_id, tokens[1], "1")
    assert rows.last() == last_order - 1  # nothing stored

    quarantined = {q.match_id: q for q in other.quarantined_matches()}
    assert quarantined[match_id].error == "TamperedLogError"
    assert "truncated" in quarantined[match_id].message
    assert match_id not in {d.match_id for d in other.due_movements()}
    report = other.verify_chain(match_id)  # no head held: the read model's names it
    kinds = {(p.source, p.kind) for p in report.problems}
    assert ("the match list read model", "truncated") in kinds


def test_the_match_list_refuses_an_event_that_does_not_continue_its_recorded_chain(
    matches, clock, database_url, fresh
):
    """A log rewritten, every later link recomputed, while the match list lagged behind
    it: before, its head moved onto the rewritten log at the next catch-up and verify said
    ok. Now the match is quarantined at that event, its head kept at the last sound one."""
    new = matches.create_match("toy", {"rounds": 2, "close_early": True}, seed="rewrite")
    tokens = [matches.join(new.match_id, name).token for name in ("ann", "bo")]
    matches.start(new.match_id, str(new.referee_token))
    matches.read_models.catch_up()
    recorded = matches.head(new.match_id)
    matches.submit_order(new.match_id, tokens[0], "1")  # not taken by the read model yet
    Rows(database_url, new.match_id).rechain_from(recorded.version, matches, new.match_id)

    other = fresh()
    assert other.read_models.catch_up(["match_list"])["match_list"] >= 1
    left_out = [q for q in other.read_models.quarantined() if q.match_id == new.match_id]
    assert len(left_out) == 1 and left_out[0].projection == "match_list"
    assert left_out[0].error.startswith("rewritten: event ")
    assert f"at version {recorded.version}" in left_out[0].error
    report = other.verify_chain(new.match_id)
    problems = {(p.kind, p.version) for p in report.problems if p.source.startswith("the match")}
    assert ("rewritten", recorded.version) in problems  # the kept head names the rewrite
    assert any("quarantined" in p.message for p in report.problems)
    with pytest.raises(TruncatedLogError, match="rewritten"):
        other.submit_order(new.match_id, tokens[1], "2")
    assert other.summary(new.match_id).movement == 1  # the row stayed as recorded


def test_an_event_removed_before_the_match_list_took_it_quarantines_the_match(
    matches, clock, database_url, fresh
):
    new = matches.create_match("toy", {"rounds": 2, "close_early": False}, seed="gap")
    tokens = [matches.join(new.match_id, name).token for name in ("ann", "bo")]
    matches.start(new.match_id, str(new.referee_token))
    matches.read_models.catch_up()
    head = matches.head(new.match_id).version
    matches.submit_order(new.match_id, tokens[0], "1")
    matches.submit_order(new.match_id, tokens[1], "2")
    Rows(database_url, new.match_id).delete(head + 1)  # ann's order, never projected

    other = fresh()
    other.read_models.catch_up(["match_list"])
    (left_out,) = [q for q in other.read_models.quarantined() if q.match_id == new.match_id]
    assert left_out.error.startswith("truncated: event ")
    assert f"versions {head + 1} to {head + 1} were removed" in left_out.error


def test_a_break_after_sound_events_of_the_same_batch_keeps_the_head_at_the_last_sound_one(
    matches, clock, database_url, fresh
):
    """Issue 46: in a batch the head is written once a match, with its last event; when a
    later event of the batch breaks the chain, the head recorded is still the last sound
    event's, as when every event wrote it."""
    new = matches.create_match("toy", {"rounds": 2, "close_early": False}, seed="gap2")
    tokens = [matches.join(new.match_id, name).token for name in ("ann", "bo")]
    matches.start(new.match_id, str(new.referee_token))
    sound = list(matches.events.get(new.match_id))[-1]  # none of it projected yet
    matches.submit_order(new.match_id, tokens[0], "1")
    matches.submit_order(new.match_id, tokens[1], "2")
    Rows(database_url, new.match_id).delete(sound.originator_version + 1)

    other = fresh()
    other.read_models.catch_up(["match_list"])
    (left_out,) = [q for q in other.read_models.quarantined() if q.match_id == new.match_id]
    assert left_out.error.startswith("truncated: event ")
    rows = other.read_models.view("match_list").query(
        "SELECT head_version, head_chain FROM {match_list} WHERE match_id = :m",
        {"m": new.match_id},
    )
    assert rows == [{"head_version": sound.originator_version, "head_chain": sound.chain}]


def test_a_version_arriving_again_after_the_recorded_head_quarantines_the_match(
    matches, clock, database_url, fresh
):
    """Rows cut short after the match list took them, then written again behind the
    service's back (here the same row put back under a new log position): a version at
    or before the recorded head arrives again."""
    match_id, _ = played_to_the_end(matches, clock)
    matches.read_models.catch_up()
    rows = Rows(database_url, match_id)
    end = rows.last()
    topic, state = rows.row(end)
    rows.delete(end)
    rows.insert(end, topic, state)

    other = fresh()
    other.read_models.catch_up(["match_list"])
    (left_out,) = [q for q in other.read_models.quarantined() if q.match_id == match_id]
    assert left_out.error.startswith(f"truncated: event {end} ")
    assert f"after the head at version {end}" in left_out.error
    assert match_id in {q.match_id for q in other.quarantined_matches()}


def test_an_honest_burst_is_taken_whole_with_no_quarantine(matches, clock):
    """The check costs no false alarm: matches played through, caught up in batches and
    rebuilt, quarantine nothing and keep every head on the log."""
    played = [played_to_the_end(matches, clock)[0] for _ in range(5)]
    matches.read_models.catch_up()
    matches.read_models.rebuild("match_list")
    assert matches.read_models.quarantined() == [] and matches.quarantined_matches() == []
    for match_id in played:
        assert matches.verify_chain(match_id).ok


def statements_of(run: Any) -> int:
    """Returns how many SQL statements psycopg sent while `run()` ran."""
    sent = 0
    execute = psycopg.Cursor.execute

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal sent
        sent += 1
        return execute(self, *args, **kwargs)

    psycopg.Cursor.execute = counted  # type: ignore[method-assign]
    try:
        run()
    finally:
        psycopg.Cursor.execute = execute  # type: ignore[method-assign]
    return sent


def test_the_check_adds_no_statement_to_an_order(pg_database, clock, toy_rulesets, monkeypatch):
    """The guard reads with the read the order already makes (issue 46 counts an order's
    statements): an order on PostgreSQL sends as many statements with it as with the
    plain read of the rows in its place, and the guard did read the recorded head."""
    app = Matches(env=Settings(pg_database).event_store_env(), clock=clock)
    seen: list[Any] = []
    check = LogGuard.check

    def checking(guard: LogGuard, match: Any) -> None:
        seen.append(guard.recorded)
        check(guard, match)

    try:
        new = app.create_match("toy", {"rounds": 3, "close_early": False}, seed="count")
        tokens = [app.join(new.match_id, name).token for name in ("ann", "bo")]
        app.start(new.match_id, str(new.referee_token))
        app.read_models.catch_up()
        app.submit_order(new.match_id, tokens[0], "1")  # the match is now kept
        monkeypatch.setattr(LogGuard, "check", checking)
        guarded = statements_of(lambda: app.submit_order(new.match_id, tokens[0], "2"))
        assert app.store.kept.holds(new.match_id)
        assert seen and seen[-1].head is not None and seen[-1].log_end is not None
        monkeypatch.setattr(
            LogGuard,
            "select",
            lambda g, match_id, **kw: app.store.recorder.select_events(match_id, **kw),
        )
        plain = statements_of(lambda: app.submit_order(new.match_id, tokens[0], "3"))
        assert guarded == plain, (guarded, plain)
    finally:
        app.close()
