"""The web pages' signed-in sessions, kept on the server (docs/pages.md, Signing in).

A session is a row of `page_sessions` (migration 0012): the match, who holds the token
(a seat, or the referee), when it ends, and the token itself, sealed. Its browser holds
only the session's key: 32 random bytes (256 bits), which the pages' cookie carries.
The row is known by the key's SHA-256 and the token is stored XOR a pad drawn from the
key (SHAKE-256 of a label and the key, as long as the token): each key seals one token
once, so the pad is a one-time pad, and whoever reads the table learns neither a
session's key nor its token. Whoever holds the cookie holds the session, as with any
session cookie, but never the token: signing out deletes the row, and the cookie then
signs nobody in, wherever a copy of it went.

Every API process shares the rows (the one database, PostgreSQL or the embedded SQLite
file): a session opened by one process is found by the next, and ended for all by a
sign-out. Expired rows are deleted as sessions open. Statements run through a read
model view, which knows both databases; the table belongs to no projection.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from service.readmodels.runner import ReadModels

VIEW = "match_list"  # every projection's view reaches the table
PAD_LABEL = b"drts page session token\x00"


@dataclass(frozen=True)
class PageSession:
    """A signed-in session: the match, the token and who holds it (`seat`, or `referee`),
    the name shown in the pages' header, and when it ends."""

    match_id: UUID
    token: str
    seat: int | None
    referee: bool
    name: str
    expires_at: datetime


class PageSessions:
    """Opens, finds and ends the pages' sessions."""

    def __init__(self, models: ReadModels, clock: Callable[[], datetime]) -> None:
        self.models, self.clock = models, clock

    def open(
        self,
        match_id: UUID,
        token: str,
        seat: int | None,
        referee: bool,
        name: str,
        lasting: timedelta,
    ) -> str:
        """Records a new session holding `token`, ending after `lasting`; returns its key
        (for the cookie: nothing else gives the session). Deletes the sessions that ended."""
        key, now = secrets.token_urlsafe(32), self.clock()
        view = self.models.view(VIEW)
        view.execute("DELETE FROM {page_sessions} WHERE expires_at <= :now", {"now": now})
        view.execute(
            "INSERT INTO {page_sessions} (key_hash, match_id, sealed_token, seat, referee, "
            "name, created_at, expires_at) VALUES (:key_hash, :match_id, :sealed, :seat, "
            ":referee, :name, :now, :expires_at)",
            {
                "key_hash": key_hash(key),
                "match_id": match_id,
                "sealed": seal(key, token),
                "seat": seat,
                "referee": referee,
                "name": name,
                "now": now,
                "expires_at": now + lasting,
            },
        )
        return key

    def find(self, key: str) -> PageSession | None:
        """Returns the session of a key, None when there is none or it has ended."""
        rows = self.models.view(VIEW).query(
            "SELECT match_id, sealed_token, seat, referee, name, expires_at "
            "FROM {page_sessions} WHERE key_hash = :key_hash AND expires_at > :now",
            {"key_hash": key_hash(key), "now": self.clock()},
        )
        if not rows:
            return None
        row = rows[0]
        return PageSession(
            row["match_id"],
            unseal(key, row["sealed_token"]),
            row["seat"],
            bool(row["referee"]),
            row["name"],
            row["expires_at"],
        )

    def end(self, key: str) -> None:
        """Ends the session of a key (nothing happens for an unknown one)."""
        self.models.view(VIEW).execute(
            "DELETE FROM {page_sessions} WHERE key_hash = :key_hash", {"key_hash": key_hash(key)}
        )


def key_hash(key: str) -> str:
    """Returns the SHA-256 (hex) of a session key: the row's name for it."""
    return hashlib.sha256(key.encode()).hexdigest()


def seal(key: str, token: str) -> str:
    """Returns the token XOR the key's pad, as hex."""
    data = token.encode()
    return bytes(a ^ b for a, b in zip(data, _pad(key, len(data)), strict=True)).hex()


def unseal(key: str, sealed: str) -> str:
    """Returns the token a session key sealed (`seal`)."""
    data = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(data, _pad(key, len(data)), strict=True)).decode()


def _pad(key: str, length: int) -> bytes:
    return hashlib.shake_256(PAD_LABEL + key.encode()).digest(length)
