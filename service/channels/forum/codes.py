"""The seats' one-time codes: a seat asks for one with its token (privately), then signs
one public post with it (a line `code: <code>`). drts keeps only the code's SHA-256
(`forum_codes`), and the key of the post that used it: a code signs that post only, so a
second post with it is refused (the post is public, so the code is known to all once
used). A replay of the same post (same post id) finds its own claim and goes through.
"""

from __future__ import annotations

import re
from datetime import datetime
from uuid import UUID

from service.channels.mail.addresses import VIEW, hashed, new_secret
from service.errors import UnknownForumCodeError, UsedForumCodeError
from service.readmodels.runner import ReadModels

# a line of a post holding a code: "code: <32 base32 characters>" (any case, colon optional)
CODE_LINE = re.compile(r"^\s*code:?\s+([A-Za-z2-7]{32})\s*$", re.IGNORECASE)


def issue(models: ReadModels, match_id: UUID, seat: int, now: datetime) -> str:
    """Issues a new one-time code for the seat (its earlier unused codes stay good) and
    returns it; only its hash is kept."""
    code = new_secret()
    models.view(VIEW).execute(
        "INSERT INTO {forum_codes} (code_hash, match_id, seat, issued_at, post_key, used_at) "
        "VALUES (:code_hash, :match_id, :seat, :now, NULL, NULL)",
        {"code_hash": hashed(code), "match_id": match_id, "seat": seat, "now": now},
    )
    return code


def signed(body: str) -> tuple[str, str | None]:
    """Returns a post's body without its code line, and the code (None: not signed)."""
    lines, code = [], None
    for line in body.splitlines():
        found = CODE_LINE.match(line)
        if found and code is None:
            code = found.group(1).lower()
        elif not found:
            lines.append(line)
    return "\n".join(lines), code


def claim(models: ReadModels, match_id: UUID, code: str, post_key: str, now: datetime) -> int:
    """Marks the code used by the post (a replay of that post claims it again) and
    returns its seat; raises UnknownForumCodeError (no such code for this match) or
    UsedForumCodeError (another post used it)."""
    params = {"code_hash": hashed(code), "match_id": match_id, "key": post_key, "now": now}
    rows = models.view(VIEW).execute(
        "UPDATE {forum_codes} SET post_key = :key, used_at = COALESCE(used_at, :now) "
        "WHERE code_hash = :code_hash AND match_id = :match_id "
        "AND (post_key IS NULL OR post_key = :key) RETURNING seat",
        params,
    )
    if rows:
        return int(rows[0]["seat"])
    used = models.view(VIEW).query(
        "SELECT used_at FROM {forum_codes} WHERE code_hash = :code_hash AND match_id = :match_id",
        params,
    )
    if used:
        raise UsedForumCodeError(
            f"this one-time code was used by another post at {used[0]['used_at']}: "
            "a code signs one post; ask for a new one with the seat token"
        )
    raise UnknownForumCodeError(f"no seat of match {match_id} was given this one-time code")
