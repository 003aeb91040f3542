"""Forum identity (issue 42): the referee maps a forum user by the identity the forum
guarantees (its user id, or an mbox sender's address), a post whose identity is not the
mapping's is refused with its reason, and a mapping stored before identities existed
(no `identity` in its event) still maps by name, loading and verifying as recorded.
SQLite and PostgreSQL (service/channels/forum/, docs/forum.md)."""

from __future__ import annotations

import json
import sqlite3
import zlib
from datetime import datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg
import pytest

from domain.integrity import event_body, next_chain
from service.channels.forum.desk import posts_of
from service.channels.forum.posts import Post
from service.channels.forum.reading import read_posts
from service.limits import LimitError
from service.matches import Matches
from service.settings import Settings, sqlite_path

MBOX = """\
From forum@forum.example.org Tue Jan  1 00:00:00 2030
From: "alice" <evil@attacker.example>
Subject: Re: movement 1
Message-ID: <spoof-1@attacker.example>
Date: Tue, 01 Jan 2030 00:00:00 +0000

2

From forum@forum.example.org Tue Jan  1 00:00:01 2030
From: "Alice Liddell" <Alice@Players.Example>
Subject: Re: movement 1
Message-ID: <post-2@forum.example.org>
Date: Tue, 01 Jan 2030 00:00:01 +0000

1

From forum@forum.example.org Tue Jan  1 00:00:02 2030
From: "bob" <notify@forum.example.org>
Subject: Re: movement 1
Message-ID: <post-3@forum.example.org>
Date: Tue, 01 Jan 2030 00:00:02 +0000

1
"""


def started(matches: Matches) -> tuple[UUID, str]:
    new = matches.create_match("toy", seed="identity")
    for name in ("alice", "bob", "carol"):
        matches.join(new.match_id, name)
    matches.start(new.match_id, str(new.referee_token))
    return new.match_id, str(new.referee_token)


def orders_of(matches: Matches, match_id: UUID) -> list[tuple[int, str]]:
    return [
        (e["data"]["seat"], e["data"]["message_id"])
        for e in matches.event_log(match_id)
        if e["type"] == "OrderSubmitted"
    ]


def test_a_display_name_is_not_an_identity_the_mapped_address_is(matches, tmp_path):
    """The attack of issue 42: `"alice" <evil@attacker.example>` is not alice's post once
    alice is mapped by her address; her own post is hers whatever name it shows, and a
    user mapped by name alone (bob, behind the forum's one notification address) still is."""
    match_id, referee = started(matches)
    matches.map_forum_user(match_id, referee, "alice", 1, "alice@players.example")
    matches.map_forum_user(match_id, referee, "bob", 2)
    mbox = tmp_path / "posts.mbox"
    mbox.write_text(MBOX)
    posts = read_posts(mbox)
    assert [p.identity for p in posts] == [
        "evil@attacker.example",
        "Alice@Players.Example",
        "notify@forum.example.org",
    ]

    replies = [matches.forum.receive(match_id, p, matches.clock()) for p in posts]

    assert [(r.outcome, r.seat, r.code) for r in replies] == [
        ("refused", None, "forum_identity_mismatch"),
        ("accepted", 1, None),
        ("accepted", 2, None),
    ]
    assert "mapped to seat 1" in replies[0].reply and "evil@attacker.example" in replies[0].reply
    assert orders_of(matches, match_id) == [
        (1, "<post-2@forum.example.org>"),
        (2, "<post-3@forum.example.org>"),
    ]
    kept = {p["post_id"]: p["outcome"] for p in posts_of(matches.store, match_id)}
    assert kept["<spoof-1@attacker.example>"] == "refused"  # kept, as every post is
    assert matches.verify_chain(match_id).ok


def test_a_post_without_the_identity_of_its_authors_mapping_is_refused(matches):
    match_id, referee = started(matches)
    matches.map_forum_user(match_id, referee, "carol", 3, "forum-user-4711")
    bare = matches.forum.receive(match_id, Post("carol", "p-1", None, "1"), matches.clock())
    other = Post("carol", "p-2", None, "1", identity="forum-user-666")
    wrong = matches.forum.receive(match_id, other, matches.clock())
    right = Post("carol_renamed", "p-3", None, "1", identity="forum-user-4711")
    taken = matches.forum.receive(match_id, right, matches.clock())
    assert (bare.code, wrong.code) == ("forum_identity_mismatch", "forum_identity_mismatch")
    assert "carries no identity" in bare.reply and "forum-user-666" in wrong.reply
    assert (taken.outcome, taken.seat) == ("accepted", 3)
    assert matches.forum_users(match_id)["carol"].identity == "forum-user-4711"
    with pytest.raises(LimitError, match="identity"):
        matches.map_forum_user(match_id, referee, "dave", 1, "bad\x00identity")


class Rows:
    """The match's stored event rows, edited behind the service's back."""

    def __init__(self, url: str, match_id: UUID) -> None:
        if url.startswith("sqlite"):
            self.conn: Any = sqlite3.connect(sqlite_path(url))
            self.table, self.mark, self.key = "stored_events", "?", match_id.hex
        else:
            env = Settings(url).event_store_env()
            self.conn = psycopg.connect(
                dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], user=env["POSTGRES_USER"]
            )
            self.table, self.mark, self.key = "matches_events", "%s", match_id

    def state(self, version: int) -> dict[str, Any]:
        row = self.conn.execute(
            f"SELECT state FROM {self.table} WHERE originator_id = {self.mark} "
            f"AND originator_version = {self.mark}",
            (self.key, version),
        ).fetchone()
        data: dict[str, Any] = json.loads(zlib.decompress(bytes(row[0])))
        return data

    def write(self, version: int, state: dict[str, Any]) -> None:
        self.conn.execute(
            f"UPDATE {self.table} SET state = {self.mark} WHERE originator_id = {self.mark} "
            f"AND originator_version = {self.mark}",
            (zlib.compress(json.dumps(state).encode()), self.key, version),
        )
        self.conn.commit()
        self.conn.close()


def as_stored_before_identities(url: str, match_id: UUID, version: int, previous: str) -> None:
    """Rewrites the ForumUserMapped at `version` (the match's last event) as drts stored it
    before the field existed: no `identity` in its data, its chain over that body."""
    rows = Rows(url, match_id)
    state = rows.state(version)
    del state["identity"]
    data = {k: state[k] for k in ("user", "seat", "by")}
    at = datetime.fromisoformat(state["timestamp"]["_data_"])
    body = event_body("ForumUserMapped", version, at, data)
    state["chain"] = next_chain(previous, body)
    rows.write(version, state)


def test_a_mapping_stored_before_identities_maps_by_name_and_verifies_as_recorded(
    matches, database_url, clock, toy_rulesets
):
    match_id, referee = started(matches)
    previous = matches.head(match_id).chain
    matches.map_forum_user(match_id, referee, "carol", 3)
    version = matches.head(match_id).version
    as_stored_before_identities(database_url, match_id, version, previous)
    fresh = Matches(env=Settings(database_url).event_store_env(), clock=clock)
    try:
        mapped = [e for e in fresh.event_log(match_id) if e["type"] == "ForumUserMapped"]
        assert mapped[0]["data"] == {"user": "carol", "seat": 3, "by": "referee"}
        assert fresh.verify_chain(match_id).ok
        assert fresh.forum_users(match_id)["carol"].identity is None
        post = Post("carol", "p-1", None, "1", identity="whoever@example.org")
        taken = fresh.forum.receive(match_id, post, clock())
        assert (taken.outcome, taken.seat) == ("accepted", 3)  # by name, as recorded
        fresh.map_forum_user(match_id, referee, "carol", 3, "carol@example.org")
        spoof = fresh.forum.receive(match_id, Post("carol", "p-2", None, "1"), clock())
        assert spoof.code == "forum_identity_mismatch"
        assert fresh.verify_chain(match_id).ok
        new = [e for e in fresh.event_log(match_id) if e["type"] == "ForumUserMapped"][-1]
        assert new["data"]["identity"] == "carol@example.org"  # chained with the rest
    finally:
        fresh.close()


def test_the_json_posts_format_takes_an_identity(tmp_path: Path):
    file = tmp_path / "posts.json"
    file.write_text(
        json.dumps(
            [
                {"author": "alice", "post_id": "1", "body": "1", "identity": "4711"},
                {"author": "bob", "post_id": "2", "body": "1"},
            ]
        )
    )
    assert [p.identity for p in read_posts(file)] == ["4711", None]
