"""Tampering: altering one stored event in the database makes chain verification name it."""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Callable
from typing import Any
from uuid import UUID

import psycopg
import pytest

from service.matches import Matches
from service.settings import Settings, sqlite_path

pytestmark = pytest.mark.usefixtures("toy_rulesets")

Change = Callable[[bytes], bytes]


def edit_json(change: Callable[[dict[str, Any]], None]) -> Change:
    """Returns a row change that decompresses, edits the JSON state and recompresses."""

    def apply(state: bytes) -> bytes:
        data = json.loads(zlib.decompress(state))
        change(data)
        return zlib.compress(json.dumps(data).encode())

    return apply


def tamper(database_url: str, match_id: UUID, version: int, change: Change) -> None:
    """Rewrites the `state` column of one stored event, behind the application's back."""
    settings = Settings(database_url)
    if settings.backend == "sqlite":
        with sqlite3.connect(sqlite_path(database_url)) as conn:
            key = (match_id.hex, version)
            where = "WHERE originator_id = ? AND originator_version = ?"
            (state,) = conn.execute(f"SELECT state FROM stored_events {where}", key).fetchone()
            conn.execute(f"UPDATE stored_events SET state = ? {where}", (change(state), *key))
        return
    env = settings.event_store_env()
    with psycopg.connect(
        dbname=env["POSTGRES_DBNAME"],
        host=env["POSTGRES_HOST"],
        port=env["POSTGRES_PORT"],
        user=env["POSTGRES_USER"],
    ) as conn:
        where = "WHERE originator_id = %s AND originator_version = %s"
        row = conn.execute(f"SELECT state FROM matches_events {where}", (match_id, version))
        (state,) = row.fetchone()
        conn.execute(
            f"UPDATE matches_events SET state = %s {where}",
            (change(bytes(state)), match_id, version),
        )


def played(matches: Matches) -> UUID:
    new = matches.create_match("toy", {"rounds": 2}, seed="tamper")
    alice, bob = matches.join(new.match_id, "alice"), matches.join(new.match_id, "bob")
    matches.start(new.match_id, str(new.referee_token))
    for _ in range(2):
        matches.submit_order(new.match_id, alice.token, "3")
        matches.submit_order(new.match_id, bob.token, "1")
    assert matches.verify_chain(new.match_id).ok
    return new.match_id


def version_of(matches: Matches, match_id: UUID, type_name: str, nth: int = 0) -> int:
    versions = [i["version"] for i in matches.event_log(match_id) if i["type"] == type_name]
    return int(versions[nth])


def test_an_altered_step_breaks_the_chain_at_that_event(matches, database_url):
    match_id = played(matches)
    version = version_of(matches, match_id, "StepApplied", 1)

    def rewrite(state: dict[str, Any]) -> None:
        state["text"] = "seat 2 picks 3"

    tamper(database_url, match_id, version, edit_json(rewrite))
    report = matches.verify_chain(match_id)
    assert report.broken is not None
    assert (report.broken.version, report.broken.type) == (version, "StepApplied")
    assert "chain mismatch" in report.broken.reason


def test_an_altered_sealed_order_breaks_its_receipt_digest(matches, database_url):
    match_id = played(matches)
    version = version_of(matches, match_id, "OrderSubmitted", 2)

    def rewrite(state: dict[str, Any]) -> None:
        state["sealed"]["order"] = {"pick": 2}

    tamper(database_url, match_id, version, edit_json(rewrite))
    report = matches.verify_chain(match_id)
    assert report.broken is not None
    assert (report.broken.version, report.broken.type) == (version, "OrderSubmitted")
    assert "receipt digest" in report.broken.reason


def test_an_unreadable_row_is_named(matches, database_url):
    match_id = played(matches)
    version = version_of(matches, match_id, "MovementResolved")
    tamper(database_url, match_id, version, lambda state: b"garbage" + state)
    report = matches.verify_chain(match_id)
    assert report.broken is not None
    assert (report.broken.version, report.broken.type) == (version, "MovementResolved")
    assert "cannot be read" in report.broken.reason
