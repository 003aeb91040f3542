"""The read-model tables, as SQLAlchemy metadata: what Alembic's autogenerate compares.

These tables are projections of the Matches event log (service/readmodels/
projections.py), never the source of truth: every row can be rebuilt from
the events (`drts projections rebuild`). The event store's own tables and
the projections' tracking tables are eventsourcing's, created by frozen SQL in
the migrations, and are kept away from autogenerate (`is_managed_elsewhere`).

Times are UTC instants (`timestamp with time zone` on PostgreSQL; on SQLite
the fixed-width text `YYYY-MM-DD HH:MM:SS.ffffff` in UTC, which sorts as time).
Match ids are `uuid` on PostgreSQL and 32 hexadecimal digits on SQLite, as
eventsourcing stores them.

The standings count an entrant per ruleset (issue 45): a player identity where the
seat named one (`player:<player id>`, shown with the player's name), else the name the
seat joined with (`name:<seat name>`), so two players seated under one name are two rows
and one player seated under several names is one.

`rated_matches` is what the ratings fold (service/readmodels/ratings.py): one row per
finished rated match whose seats all name players; `rating_matches` and `rating_seats`
are the same projection's record of the matches created rated, on the way there.

`projection_quarantine` belongs to no one projection: it lists, per
projection, the matches it leaves out because applying one of their events
failed (service/readmodels/recorders.py).

`match_failures` is not a projection either: it is the service's count of the
failed resolutions of a match, which record no event, and marks the matches
whose Quarantined event it recorded (service/usecases/quarantine.py). Nothing rebuilds
it from the events; a rebuild leaves it alone.

`sweep_status` is no projection either: the sweep task records there when it
last succeeded and how many times in a row it failed (service/health.py).

`due_offers` is no projection either: the due movements a worker draining its held
countdown tasks leaves for any worker to take (service/usecases/dueoffers.py, issue 46); a row
lives from its offer to its taking, seconds in a burst.

`imported_matches` is no projection either: it lists the matches loaded from an
archive (service/store/imported.py, docs/archive.md), which are read-only. The events
cannot say it (they are stored exactly as they were exported); a rebuild leaves it.

The `mail_*` tables are no projections either: they are the mail desk's (service/channels/mail/,
docs/mail.md): the seats' order addresses known by the SHA-256 of their secret, the
result addresses with their confirmation codes (hashed too), the messages received
with the first answer to each, the dead letters, and the outbox of notices
(`mail_notices`: results, reminders, dispute notices and tournament seat letters, each
sent once; a seat letter holds its token and order secret in `secret` until sent). The projection
`mail_outbox` writes the notices, but a rebuild leaves them, like the other mail tables:
a notice is recorded once per key (ON CONFLICT DO NOTHING), so replaying the log never
records, nor sends, one again.

The `forum_*` tables are the forum desk's (service/channels/forum/, docs/forum.md): the seats'
one-time codes known by their SHA-256, each with the post that used it, and the posts
received, each with its first reply (those refused before any seat was known too). A
rebuild leaves them.

`page_sessions` is no projection either: the web pages' signed-in sessions
(service/sessions.py, docs/pages.md), each known by the SHA-256 of its cookie's key. A
rebuild leaves it.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    UniqueConstraint,
    Uuid,
    false,
    text,
)

EVENT_STORE_TABLES = frozenset(
    {
        "matches_events",
        "matches_snapshots",  # PostgreSQL: named after the application
        "stored_events",
        "stored_snapshots",
        "tracking",  # SQLite: eventsourcing's fixed names
    }
)
PROJECTION_NAMES = (
    "match_list",
    "deadlines",
    "scoreboards",
    "standings",
    "mail_outbox",
    "rated_matches",
)
TRACKING_TABLES = frozenset(f"{name}_tracking" for name in PROJECTION_NAMES)

metadata = MetaData()


def utc() -> DateTime:
    """Returns the column type of a UTC instant."""
    return DateTime(timezone=True)


match_list = sa.Table(
    "match_list",
    metadata,
    Column("match_id", Uuid, primary_key=True),
    Column(
        "position",
        BigInteger,
        nullable=False,
        unique=True,
        comment="log position of the Created event: the list's order and cursor",
    ),
    Column("ruleset", String(64), nullable=False),
    Column("ruleset_version", Integer, nullable=False),
    Column("status", String(16), nullable=False, comment="open, started or finished"),
    Column("min_seats", Integer, nullable=False),
    Column("max_seats", Integer, nullable=False),
    Column("seat_count", Integer, nullable=False, server_default=text("0")),
    Column(
        "movement",
        Integer,
        nullable=False,
        server_default=text("0"),
        comment="the open movement (0 before the start; the last one plus 1 when finished)",
    ),
    Column("deadline", utc(), nullable=True, comment="the open movement's deadline"),
    Column("created_at", utc(), nullable=False),
    Column("started_at", utc(), nullable=True),
    Column("finished_at", utc(), nullable=True),
    Column("result", String(16), nullable=True, comment="win, draw or no_winner once finished"),
    Column(
        "rematch_due",
        Boolean,
        nullable=False,
        server_default=false(),
        comment="finished asking for a rematch (DW-5) that does not exist yet",
    ),
    Column(
        "head_version",
        BigInteger,
        nullable=True,
        comment="the version of the last event applied: the match's head",
    ),
    Column(
        "head_chain",
        String(64),
        nullable=True,
        comment="the chain value of the event at head_version",
    ),
    Column(
        "finished_version",
        BigInteger,
        nullable=True,
        comment="the version of the match's Finished event",
    ),
    Column(
        "finished_chain", String(64), nullable=True, comment="the chain value of the Finished event"
    ),
    Column(
        "open_disputes",
        Integer,
        nullable=False,
        server_default=text("0"),
        comment="disputes filed and not ruled on yet",
    ),
    Column(
        "ruled_disputes",
        Integer,
        nullable=False,
        server_default=text("0"),
        comment="disputes the referee ruled on",
    ),
    Index("ix_match_list_status_position", "status", "position"),
    Index("ix_match_list_ruleset_position", "ruleset", "position"),
)

match_seats = sa.Table(
    "match_seats",
    metadata,
    Column("match_id", Uuid, primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("name", String(200), nullable=False),
)

deadlines = sa.Table(
    "deadlines",
    metadata,
    Column("match_id", Uuid, primary_key=True),
    Column("movement", Integer, primary_key=True, autoincrement=False),
    Column("due_at", utc(), nullable=False),
    Column("extensions", Integer, nullable=False, server_default=text("0")),
    Column("closed", Boolean, nullable=False, server_default=false()),
    Column("closed_at", utc(), nullable=True),
    Column(
        "ready",
        Boolean,
        nullable=False,
        server_default=false(),
        comment="may close early: every owing seat has ordered (due now)",
    ),
    Index("ix_deadlines_closed_due_at", "closed", "due_at"),
)

scoreboard_seats = sa.Table(
    "scoreboard_seats",
    metadata,
    Column("match_id", Uuid, primary_key=True),
    Column("movement", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("score", Integer, nullable=False),
    Column("rank", Integer, nullable=False, comment="place in the outcome's ranking, from 1"),
)

scoreboard_teams = sa.Table(
    "scoreboard_teams",
    metadata,
    Column("match_id", Uuid, primary_key=True),
    Column("movement", Integer, primary_key=True, autoincrement=False),
    Column("team", String(64), primary_key=True),
    Column("score", Integer, nullable=False),
)

standings = sa.Table(
    "standings",
    metadata,
    Column("ruleset", String(64), primary_key=True),
    Column(
        "entrant",
        String(240),
        primary_key=True,
        comment="player:<player id> for seats naming a player, name:<seat name> for the others",
    ),
    Column("player", String(200), nullable=False, comment="the player's name, or the seat name"),
    Column("player_id", String(36), nullable=True, comment="the player identity; NULL: a name"),
    Column("played", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("draws", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
    Column("points", Integer, nullable=False),
    Index("ix_standings_ruleset_points", "ruleset", "points"),
)

standings_matches = sa.Table(
    "standings_matches",
    metadata,
    Column("match_id", Uuid, primary_key=True),
    Column("ruleset", String(64), nullable=False),
)

standings_seats = sa.Table(
    "standings_seats",
    metadata,
    Column("match_id", Uuid, primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("player", String(200), nullable=False, comment="the name the seat joined with"),
    Column("player_id", String(36), nullable=True, comment="the player it named; NULL: none"),
    Column("entrant", String(240), nullable=False, comment="the standings row it counts for"),
    Column("result", String(8), nullable=True, comment="win, draw or loss once finished"),
)

standings_players = sa.Table(
    "standings_players",
    metadata,
    Column("player_id", String(36), primary_key=True),
    Column("name", String(200), nullable=False),
    comment="the players' names, for the standings rows of seats naming them",
)

rated_matches = sa.Table(
    "rated_matches",
    metadata,
    Column("match_id", Uuid, primary_key=True),
    Column("ruleset", String(64), nullable=False),
    Column("ruleset_version", Integer, nullable=False),
    Column(
        "position",
        BigInteger,
        nullable=False,
        unique=True,
        comment="log position of its last Finished event: the ratings' fold order",
    ),
    Column("teams", sa.Text(), nullable=False, comment="the sides' player ids, as JSON"),
    Column("ranks", sa.Text(), nullable=False, comment="each side's rank (1 best), as JSON"),
    comment="the finished rated matches whose seats all name players (issue 45)",
)

rating_matches = sa.Table(
    "rating_matches",
    metadata,
    Column("match_id", Uuid, primary_key=True),
    Column("ruleset", String(64), nullable=False),
    Column("ruleset_version", Integer, nullable=False),
    Column(
        "seat_teams",
        sa.Text(),
        nullable=False,
        comment="each seat's team in the latest state, as JSON (seats without one left out)",
    ),
    comment="the matches created rated, as the rated_matches projection follows them",
)

rating_seats = sa.Table(
    "rating_seats",
    metadata,
    Column("match_id", Uuid, primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("player_id", String(64), nullable=True, comment="the player it names; NULL: none"),
    comment="the seats of the matches created rated, with the player each names",
)

projection_quarantine = sa.Table(
    "projection_quarantine",
    metadata,
    Column("projection", String(32), primary_key=True),
    Column("match_id", Uuid, primary_key=True),
    Column(
        "position",
        BigInteger,
        nullable=False,
        comment="log position of the event the projection failed to apply",
    ),
    Column("event_type", String(200), nullable=False),
    Column("error", String(1000), nullable=False, comment="the exception, as text"),
    Column("quarantined_at", utc(), nullable=False),
    comment="matches a projection leaves out since one of their events failed to apply",
)

match_failures = sa.Table(
    "match_failures",
    metadata,
    Column("match_id", Uuid, primary_key=True),
    Column("movement", Integer, nullable=False, comment="the movement whose resolution failed"),
    Column("error", String(200), nullable=False, comment="the exception's name"),
    Column("message", String(1000), nullable=False, comment="the exception, as text"),
    Column(
        "failures",
        Integer,
        nullable=False,
        comment="failures in a row with this movement and error",
    ),
    Column("first_seen", utc(), nullable=False),
    Column("last_seen", utc(), nullable=False),
    Column(
        "quarantined_at",
        utc(),
        nullable=True,
        comment="when the match's Quarantined event was recorded; NULL before",
    ),
    comment="the matches whose resolution failed last time they were tried, and quarantined ones",
)

sweep_status = sa.Table(
    "sweep_status",
    metadata,
    Column("sweep", String(32), primary_key=True, comment="which sweep: 'due'"),
    Column("last_success_at", utc(), nullable=True),
    Column("last_failure_at", utc(), nullable=True),
    Column("failures_in_row", Integer, nullable=False, server_default=text("0")),
    Column("last_error", String(1000), nullable=True, comment="the last failure, as text"),
    comment="the sweep's bookkeeping, written by the worker, read by /health",
)

due_offers = sa.Table(
    "due_offers",
    metadata,
    Column("match_id", Uuid, primary_key=True),
    Column("movement", Integer, primary_key=True),
    Column("deadline", utc(), nullable=True, comment="the movement's deadline, if known"),
    Column("offered_at", utc(), nullable=False),
    Column("offered_by", String(100), nullable=False, comment="the offering worker: host/pid"),
    comment="due movements a draining worker offers to the others (issue 46)",
)

imported_matches = sa.Table(
    "imported_matches",
    metadata,
    Column("match_id", Uuid, primary_key=True),
    Column("imported_at", utc(), nullable=False),
    Column("form", String(8), nullable=False, comment="the archive's form: public or full"),
    Column("exported_at", utc(), nullable=False, comment="when the archive was exported"),
    Column("head_version", Integer, nullable=False, comment="the archive's head: its version"),
    Column("head_chain", String(64), nullable=False, comment="the archive's head: its chain"),
    comment="the matches imported from an archive: read-only (docs/archive.md)",
)

mail_order_addresses = sa.Table(
    "mail_order_addresses",
    metadata,
    Column("address_hash", String(64), primary_key=True, comment="SHA-256 of the secret, hex"),
    Column("match_id", Uuid, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("issued_at", utc(), nullable=False),
    UniqueConstraint("match_id", "seat", name="uq_mail_order_addresses_seat"),
    comment="each seat's secret order address, known by its hash (docs/mail.md)",
)

mail_result_addresses = sa.Table(
    "mail_result_addresses",
    metadata,
    Column("match_id", Uuid, primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("address", String(320), nullable=False, comment="where the seat's replies go"),
    Column("code_hash", String(64), nullable=False, unique=True, comment="SHA-256 of the code"),
    Column("registered_at", utc(), nullable=False),
    Column("confirmed_at", utc(), nullable=True, comment="NULL until the code came back"),
    comment="the address each seat's replies go to, once confirmed (docs/mail.md)",
)

mail_messages = sa.Table(
    "mail_messages",
    metadata,
    Column(
        "message_key",
        String(64),
        primary_key=True,
        comment="SHA-256 of match id, seat and Message-ID: a seat's message seen before",
    ),
    Column("message_id", String(1000), nullable=False),
    Column("match_id", Uuid, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("received_at", utc(), nullable=False),
    Column("outcome", String(16), nullable=False, comment="accepted or refused"),
    Column("answer", sa.Text(), nullable=False, comment="the first answer, as JSON"),
    comment="the messages taken as orders, with the first answer to each (docs/mail.md)",
)

mail_dead_letters = sa.Table(
    "mail_dead_letters",
    metadata,
    Column("letter_id", Integer, primary_key=True, autoincrement=True),
    Column("received_at", utc(), nullable=False),
    Column("mail_from", String(1000), nullable=False, comment="the envelope sender"),
    Column("rcpt_to", String(1000), nullable=False, comment="the envelope recipient"),
    Column("message_id", String(1000), nullable=True),
    Column("reason", String(1000), nullable=False, comment="why it could not be read"),
    Column("size", Integer, nullable=False, comment="bytes"),
    Column("content", LargeBinary(), nullable=False, comment="the message as received"),
    comment="mail that could not be read at all, kept for an operator (drts mail dead-letters)",
)

mail_notices = sa.Table(
    "mail_notices",
    metadata,
    Column(
        "notice_id",
        String(200),
        primary_key=True,
        comment="kind, match, event version or movement, recipient: one notice, one row",
    ),
    Column("kind", String(16), nullable=False, comment="result, reminder or dispute"),
    Column("match_id", Uuid, nullable=False),
    Column("movement", Integer, nullable=False),
    Column(
        "version",
        BigInteger,
        nullable=False,
        comment="the event told of (MovementResolved, DisputeFiled/Ruled); a reminder: 0",
    ),
    Column("seat", Integer, nullable=False, comment="the recipient: a seat, or 0 the referee"),
    Column("address", String(320), nullable=False, comment="its confirmed result address"),
    Column("recorded_at", utc(), nullable=False, comment="the event's time: the mail's Date"),
    Column("due_at", utc(), nullable=True, comment="a reminder: the deadline it reminds of"),
    Column("sent_at", utc(), nullable=True, comment="NULL until the relay took it"),
    Column("failed_at", utc(), nullable=True, comment="the relay refused it for good"),
    Column("attempts", Integer, nullable=False, server_default=text("0")),
    Column("next_attempt_at", utc(), nullable=True, comment="after a failure: not before"),
    Column("claimed_until", utc(), nullable=True, comment="a sender is sending it until then"),
    Column("last_error", String(1000), nullable=True),
    Column(
        "secret",
        sa.Text(),
        nullable=True,
        comment="a seat letter's token and order secret (JSON) until it is sent; else NULL",
    ),
    Index("ix_mail_notices_unsent", "sent_at", "failed_at", "recorded_at"),
    comment="the outbox of results, reminders and dispute notices (docs/mail.md)",
)

MAIL_TABLES = (
    mail_order_addresses,
    mail_result_addresses,
    mail_messages,
    mail_dead_letters,
    mail_notices,
)

forum_codes = sa.Table(
    "forum_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True, comment="SHA-256 of the code, hex"),
    Column("match_id", Uuid, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("issued_at", utc(), nullable=False),
    Column("post_key", String(64), nullable=True, comment="the post that used it; NULL: unused"),
    Column("used_at", utc(), nullable=True),
    comment="the seats' one-time codes for signing forum posts, known by hash (docs/forum.md)",
)

forum_posts = sa.Table(
    "forum_posts",
    metadata,
    Column("post_key", String(64), primary_key=True, comment="SHA-256 of match id and post id"),
    Column("match_id", Uuid, nullable=False),
    Column("post_id", String(1000), nullable=False, comment="the forum's id of the post"),
    Column("author", String(1000), nullable=False, comment="the forum user who posted it"),
    Column("seat", Integer, nullable=True, comment="whose order it was; NULL: no seat known"),
    Column("posted_at", utc(), nullable=True, comment="the post's time as the forum reported it"),
    Column("received_at", utc(), nullable=False, comment="the received time drts took"),
    Column("outcome", String(16), nullable=False, comment="accepted or refused"),
    Column("body", sa.Text(), nullable=False, comment="the post as received"),
    Column("reply", sa.Text(), nullable=False, comment="the first reply to post back"),
    comment="the forum posts received, each with its first reply (docs/forum.md)",
)

FORUM_TABLES = (forum_codes, forum_posts)

page_sessions = sa.Table(
    "page_sessions",
    metadata,
    Column(
        "key_hash",
        String(64),
        primary_key=True,
        comment="SHA-256 of the session key its cookie holds, hex",
    ),
    Column("match_id", Uuid, nullable=False),
    Column(
        "sealed_token",
        sa.Text(),
        nullable=False,
        comment="the token XOR a pad drawn from the session key, hex",
    ),
    Column("seat", Integer, nullable=True, comment="the token's seat; NULL: the referee"),
    Column("referee", Boolean, nullable=False),
    Column("name", String(200), nullable=False, comment="who, for the header"),
    Column("created_at", utc(), nullable=False),
    Column("expires_at", utc(), nullable=False),
    Index("ix_page_sessions_expires_at", "expires_at"),
    comment="the web pages' signed-in sessions, known by the hash of their key (docs/pages.md)",
)

PROJECTION_TABLES: dict[str, tuple[sa.Table, ...]] = {
    "match_list": (match_list, match_seats),
    "deadlines": (deadlines,),
    "scoreboards": (scoreboard_seats, scoreboard_teams),
    "standings": (standings, standings_matches, standings_seats, standings_players),
    "mail_outbox": (),  # its notices are shared: a rebuild must not send them again
    "rated_matches": (rated_matches, rating_matches, rating_seats),
}


def include_name(name: str | None, type_: str, parent_names: Any) -> bool:
    """Returns whether Alembic's autogenerate may look at a database object: never at the
    tables that eventsourcing's frozen DDL or Celery's broker own.
    """
    return not (type_ == "table" and name is not None and is_managed_elsewhere(name))


def is_managed_elsewhere(name: str) -> bool:
    """Returns whether a table belongs to eventsourcing's frozen DDL or to Celery's broker."""
    return (
        name in EVENT_STORE_TABLES
        or name in TRACKING_TABLES
        or name.startswith(("kombu_", "celery_"))
    )
