"""Edits of a match's stored rows behind the application's back, and the tamperer's rechaining."""

from __future__ import annotations

import json
import sqlite3
import zlib
from typing import Any
from uuid import UUID

import psycopg

from domain.integrity import next_chain
from service.eventjson import public_item
from service.matches import Matches
from service.settings import Settings, sqlite_path


class Rows:
    """The stored rows of one match, edited behind the application's back."""

    def __init__(self, url: str, match_id: UUID) -> None:
        self.sqlite = url.startswith("sqlite")
        self.match_id = match_id
        if self.sqlite:
            self.conn: Any = sqlite3.connect(sqlite_path(url))
            self.events, self.snapshots, self.mark = "stored_events", "stored_snapshots", "?"
            self.key: Any = match_id.hex
        else:
            env = Settings(url).event_store_env()
            self.conn = psycopg.connect(
                dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], user=env["POSTGRES_USER"]
            )
            self.events, self.snapshots, self.mark = "matches_events", "matches_snapshots", "%s"
            self.key = match_id

    def sql(self, text: str, *params: Any) -> list[Any]:
        cursor = self.conn.execute(text.replace("?", self.mark), params)
        return list(cursor.fetchall()) if cursor.description else []

    def versions(self, table: str | None = None) -> list[int]:
        rows = self.sql(
            f"SELECT originator_version FROM {table or self.events} WHERE originator_id = ? "
            "ORDER BY originator_version",
            self.key,
        )
        return [int(r[0]) for r in rows]

    def row(self, version: int, table: str | None = None) -> tuple[str, dict[str, Any]]:
        (topic, state), *_ = self.sql(
            f"SELECT topic, state FROM {table or self.events} "
            "WHERE originator_id = ? AND originator_version = ?",
            self.key,
            version,
        )
        return topic, json.loads(zlib.decompress(bytes(state)))

    def write(self, version: int, topic: str, data: dict[str, Any], table: str | None = None):
        self.sql(
            f"UPDATE {table or self.events} SET topic = ?, state = ? "
            "WHERE originator_id = ? AND originator_version = ?",
            topic,
            zlib.compress(json.dumps(data).encode()),
            self.key,
            version,
        )

    def delete(self, *versions: int) -> None:
        for version in versions:
            self.sql(
                f"DELETE FROM {self.events} WHERE originator_id = ? AND originator_version = ?",
                self.key,
                version,
            )

    def append_copy(self) -> None:
        last = self.versions()[-1]
        topic, data = self.row(last)
        self.sql(
            f"INSERT INTO {self.events} (originator_id, originator_version, topic, state) "
            "VALUES (?, ?, ?, ?)",
            self.key,
            last + 1,
            topic,
            zlib.compress(json.dumps(data).encode()),
        )

    def first(self, type_name: str, nth: int = 0) -> int:
        found = [v for v in self.versions() if self.row(v)[0].endswith("." + type_name)]
        return found[nth]

    def close(self) -> None:
        self.conn.commit()
        self.conn.close()


def rechain_from(rows: Rows, matches: Matches, start: int) -> None:
    """Recomputes the chain of every event from version `start` on, so that the chain
    alone looks sound (the tamperer's rewrite)."""
    rows.conn.commit()
    stored = {r.originator_version: r for r in matches.store.recorder.select_events(rows.match_id)}
    previous = str(rows.match_id) if start == 1 else rows.row(start - 1)[1]["chain"]
    for version in rows.versions():
        if version < start:
            continue
        topic, data = rows.row(version)
        item = public_item(matches.store.mapper.to_domain_event(stored[version]), with_sealed=True)
        body = {key: item[key] for key in ("type", "version", "timestamp", "data")}
        previous = data["chain"] = next_chain(previous, body)
        rows.write(version, topic, data)


def flip_text(data: dict[str, Any]) -> None:
    text = data["text"]
    data["text"] = ("X" if text[0] != "X" else "Y") + text[1:]
