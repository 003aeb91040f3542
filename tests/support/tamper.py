"""One stored event rewritten behind the application's back, and the toy match it is done to."""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Callable
from typing import Any
from uuid import UUID

import psycopg

from service.matches import Matches
from service.settings import Settings, sqlite_path

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
