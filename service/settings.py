"""Settings: the one place that reads the environment.

`DRTS_OPERATOR_TOKEN`, if set, is a token that acts as referee on every
match (an operator's master key; keep it out of shell history).
`DRTS_MAX_BODY_BYTES` caps HTTP request bodies (default 65536).
`DRTS_DATABASE_URL` chooses the event store:

- unset or empty: an SQLite file `drts.sqlite` in the working directory;
- `sqlite:///relative/path.sqlite` or `sqlite:////absolute/path.sqlite`: that file;
- `postgresql://user[:password]@host[:port]/dbname[?schema=name]` (also
  `postgres://` and `postgresql+psycopg://`): PostgreSQL through psycopg 3;
- `memory://`: in memory, for quick experiments (lost at exit).

`DRTS_BROKER_URL` names the Celery broker that carries deadline tasks:
unset or empty, an SQLite file `drts-broker.sqlite` in the working
directory (`sqla+sqlite:///drts-broker.sqlite`, the embedded default of
`drts run`); in production `redis://host:6379/0` or
`amqp://user:password@host:5672//`. Commands send countdown tasks only when
it is set (`drts run` sets it for its parts); otherwise the sweep alone
resolves deadlines. `DRTS_SWEEP_SECONDS` (default 2) is how
often beat sweeps for due movements; `DRTS_COUNTDOWN_SECONDS` (default 600)
is the longest deadline that also gets a countdown task, kept below the
broker's visibility timeout (`DRTS_VISIBILITY_TIMEOUT`, default 3600).
The API's shared capacity, per process: `DRTS_LONG_POLL_MAX_SECONDS`
(default 30) is the longest a long poll waits, `DRTS_MAX_LONG_POLLS` (default
4) how many may wait at once, `DRTS_RATE_LIMIT_PER_ADDRESS` (default 1200)
and `DRTS_RATE_LIMIT_PER_TOKEN` (default 600) the requests a minute each
client address and each bearer token may send (0 turns a limit off), and
`DRTS_MAX_STREAMS` (default 1000) and `DRTS_MAX_STREAMS_PER_ADDRESS` (default
20, 0: no limit) how many public streams a process serves at once, in all and to one
address, `DRTS_STREAM_HEARTBEAT_SECONDS` (default 15) how often an idle stream sends a
comment, `DRTS_STREAM_MAX_SECONDS` (default 600) how long a stream lasts before the
viewer reconnects (`Last-Event-ID`), and
`DRTS_TRUSTED_PROXIES` (default 0) how many reverse proxies in front of the
API set X-Forwarded-For, so that the client's own address is the one limited.
`DRTS_QUARANTINE_AFTER` (default 3) is how many identical failures in a row of
a match's resolution quarantine it (service/usecases/quarantine.py).
`DRTS_HEALTH_SWEEP_SECONDS` (default 30), `DRTS_HEALTH_OVERDUE_SECONDS`
(default 60) and `DRTS_HEALTH_PROJECTION_LAG` (default 100 events) are the
thresholds of /health and `drts status` (service/health.py).
Mail (docs/mail.md): `DRTS_MAIL_DOMAIN` (default `drts.localhost`) is the domain of the
seats' order addresses, `DRTS_MAIL_PORT` (default 2525) the loopback port of `drts mail
serve`, `DRTS_MAIL_MAX_BYTES` (default 1048576) the largest message it takes,
`DRTS_SMTP_URL` the relay outgoing mail goes through (`smtp://[user:password@]host[:port]`,
`smtp+starttls://...` or `smtps://...`; unset: mail is written to the maildir
`DRTS_MAIL_OUTBOX`, default `drts-outbox` in the working directory), and
`DRTS_MAIL_REMINDER_SECONDS` (default 43200, 0: none) how long before a deadline the
seats that owe orders get a reminder.
`DRTS_FOLLOW_LOG` says which processes apply the log's events to the read models in the
background: `api` (each API process runs the follower), or `worker` (the Celery workers
run it; the API applies none in the background nor on an order's request path; a read of
a read model still catches it up first). Unset: `worker` on PostgreSQL, `api` on SQLite
and in memory (docs/operations.md, Who follows the log).
Forum (docs/forum.md): `DRTS_FORUM_MAX_DELAY_SECONDS` (default 120) is how much earlier
than its receipt a forum post's reported time may be taken as its received time.
docs/operations.md lists every setting.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

DATABASE_URL_VARIABLE = "DRTS_DATABASE_URL"
OPERATOR_TOKEN_VARIABLE = "DRTS_OPERATOR_TOKEN"
MAX_BODY_VARIABLE = "DRTS_MAX_BODY_BYTES"
DEFAULT_MAX_BODY_BYTES = 64 * 1024
DEFAULT_SQLITE_FILE = "drts.sqlite"
BROKER_URL_VARIABLE = "DRTS_BROKER_URL"
DEFAULT_BROKER_URL = "sqla+sqlite:///drts-broker.sqlite"
COMPRESSOR = "eventsourcing.compressor:ZlibCompressor"
DEFAULT_LONG_POLL_MAX_SECONDS = 30.0
DEFAULT_MAX_LONG_POLLS = 4
DEFAULT_MAX_STREAMS = 1000  # public streams a process serves at once (issue 47's target)
DEFAULT_MAX_STREAMS_PER_ADDRESS = 20
DEFAULT_STREAM_HEARTBEAT_SECONDS = 15.0
DEFAULT_STREAM_MAX_SECONDS = 600.0
DEFAULT_RATE_LIMIT_PER_ADDRESS = 1200  # requests a minute
DEFAULT_RATE_LIMIT_PER_TOKEN = 600
DEFAULT_QUARANTINE_AFTER = 3  # identical failures in a row
DEFAULT_SWEEP_STALE_SECONDS = 30.0
DEFAULT_OVERDUE_SECONDS = 60.0
DEFAULT_PROJECTION_LAG = 100  # events; at most 500 are counted
DEFAULT_MAIL_DOMAIN = "drts.localhost"
DEFAULT_MAIL_PORT = 2525
DEFAULT_MAIL_MAX_BYTES = 1024 * 1024
DEFAULT_MAIL_OUTBOX = "drts-outbox"
DEFAULT_SESSION_HOURS = 12  # a page session (docs/pages.md)
DEFAULT_FORUM_MAX_DELAY_SECONDS = 120.0
DEFAULT_MAIL_REMINDER_SECONDS = 12 * 3600.0
DEFAULT_MATCH_CACHE_SIZE = 1_000  # matches kept between commands (service/store/matchcache.py)
DEFAULT_PAST_CACHE_SIZE = 500  # past versions kept for reads (service/store/pastreads.py)

SMTP_URL_VARIABLE = "DRTS_SMTP_URL"
FOLLOW_LOG_VARIABLE = "DRTS_FOLLOW_LOG"
FOLLOWERS = ("api", "worker")  # who runs the read models' follower (DRTS_FOLLOW_LOG)


class SettingsError(ValueError):
    """Raised when a DRTS_* setting (the database URL, the body cap) is not usable."""

    code = "invalid_settings"


@dataclass(frozen=True)
class Settings:
    """The service's settings; `event_store_env` is what the Matches application needs."""

    database_url: str
    broker: str = ""  # DRTS_BROKER_URL as given; empty when unset
    sweep_seconds: float = 2.0
    countdown_seconds: float = 600.0
    visibility_timeout: float = 3600.0
    operator_token: str | None = None  # DRTS_OPERATOR_TOKEN: acts as referee on every match
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES  # DRTS_MAX_BODY_BYTES: the API's body cap
    long_poll_max_seconds: float = DEFAULT_LONG_POLL_MAX_SECONDS
    max_long_polls: int = DEFAULT_MAX_LONG_POLLS
    # the public streams (GET /matches/{id}/stream): at most this many a process and an
    # address (per address, 0: no limit), a comment every heartbeat, ended after max seconds
    max_streams: int = DEFAULT_MAX_STREAMS  # DRTS_MAX_STREAMS
    max_streams_per_address: int = DEFAULT_MAX_STREAMS_PER_ADDRESS
    stream_heartbeat_seconds: float = DEFAULT_STREAM_HEARTBEAT_SECONDS
    stream_max_seconds: float = DEFAULT_STREAM_MAX_SECONDS
    rate_limit_per_address: int = DEFAULT_RATE_LIMIT_PER_ADDRESS
    rate_limit_per_token: int = DEFAULT_RATE_LIMIT_PER_TOKEN
    trusted_proxies: int = 0
    quarantine_after: int = DEFAULT_QUARANTINE_AFTER  # DRTS_QUARANTINE_AFTER
    # health (docs/operations.md): a sweep older than this, a movement later than this,
    # a projection with more waiting events than this make the service unhealthy
    sweep_stale_seconds: float = DEFAULT_SWEEP_STALE_SECONDS
    overdue_seconds: float = DEFAULT_OVERDUE_SECONDS
    projection_lag: int = DEFAULT_PROJECTION_LAG
    # mail (docs/mail.md)
    mail_domain: str = DEFAULT_MAIL_DOMAIN  # DRTS_MAIL_DOMAIN: of the seats' order addresses
    mail_port: int = DEFAULT_MAIL_PORT  # DRTS_MAIL_PORT: `drts mail serve` on 127.0.0.1
    mail_max_bytes: int = DEFAULT_MAIL_MAX_BYTES  # DRTS_MAIL_MAX_BYTES
    smtp_url: str = ""  # DRTS_SMTP_URL: the relay; empty: the maildir outbox
    mail_outbox: str = DEFAULT_MAIL_OUTBOX  # DRTS_MAIL_OUTBOX: the maildir without a relay
    # the pages' sessions (docs/pages.md): the key signing their cookies (None: one drawn
    # per process, so sessions end with it) and how long one lasts
    session_secret: str | None = None  # DRTS_SESSION_SECRET
    session_hours: int = DEFAULT_SESSION_HOURS  # DRTS_SESSION_HOURS
    # forum (docs/forum.md): DRTS_FORUM_MAX_DELAY_SECONDS, the most a post's reported time
    # may precede its receipt
    forum_max_delay_seconds: float = DEFAULT_FORUM_MAX_DELAY_SECONDS
    # DRTS_MAIL_REMINDER_SECONDS: how long before a deadline the seats that owe orders are
    # reminded; 0: no reminders
    mail_reminder_seconds: float = DEFAULT_MAIL_REMINDER_SECONDS
    match_cache_size: int = DEFAULT_MATCH_CACHE_SIZE  # DRTS_MATCH_CACHE_SIZE
    past_cache_size: int = DEFAULT_PAST_CACHE_SIZE  # DRTS_PAST_CACHE_SIZE
    follow_log: str | None = None  # DRTS_FOLLOW_LOG: "api", "worker"; None: by backend

    @property
    def log_follower(self) -> str:
        """Returns who follows the log for the read models, "api" or "worker": the one
        DRTS_FOLLOW_LOG names, else "worker" on PostgreSQL, where the workers always run
        and the API's CPU is the intake's (issue 46), and "api" on SQLite and in memory,
        where `drts run` and `drts api` alone keep their behaviour (docs/operations.md,
        Who follows the log)."""
        return self.follow_log or ("worker" if self.backend == "postgres" else "api")

    @property
    def broker_url(self) -> str:
        """Returns the Celery broker URL (the embedded SQLite broker when unset)."""
        return self.broker or DEFAULT_BROKER_URL

    @property
    def broker_configured(self) -> bool:
        """Returns whether DRTS_BROKER_URL was set: only then do commands send countdown tasks."""
        return bool(self.broker)

    @property
    def backend(self) -> str:
        """Returns "sqlite", "postgres" or "memory"."""
        scheme = urlsplit(self.database_url).scheme.split("+")[0]
        if scheme in ("postgresql", "postgres"):
            return "postgres"
        if scheme in ("sqlite", "memory"):
            return scheme
        raise SettingsError(
            f"{DATABASE_URL_VARIABLE}={self.database_url!r}: use sqlite:///path, "
            "postgresql://user@host:port/db or memory://"
        )

    def event_store_env(self, compress: bool = True) -> dict[str, str]:
        """Returns the eventsourcing environment for this database.

        Table creation is off: the migrations own the schema (service/schema.py). The
        sizes of the application's caches go with it (service/store/matchcache.py, pastreads.py).
        """
        env = {
            "DRTS_MATCH_CACHE_SIZE": str(self.match_cache_size),
            "DRTS_PAST_CACHE_SIZE": str(self.past_cache_size),
        }
        if compress:
            env["COMPRESSOR_TOPIC"] = COMPRESSOR
        if self.backend == "memory":
            return {**env, "PERSISTENCE_MODULE": "eventsourcing.popo"}
        env["CREATE_TABLE"] = "no"
        if self.backend == "sqlite":
            return {
                **env,
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                "SQLITE_DBNAME": str(sqlite_path(self.database_url)),
                "SQLITE_LOCK_TIMEOUT": "10",
            }
        return {**env, **postgres_env(self.database_url)}


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """Returns the settings read from the environment (os.environ by default)."""
    environ = os.environ if environ is None else environ
    url = environ.get(DATABASE_URL_VARIABLE, "").strip()
    broker = environ.get(BROKER_URL_VARIABLE, "").strip()
    return Settings(
        url or f"sqlite:///{DEFAULT_SQLITE_FILE}",
        broker=broker,
        sweep_seconds=_seconds(environ, "DRTS_SWEEP_SECONDS", 2.0),
        countdown_seconds=_seconds(environ, "DRTS_COUNTDOWN_SECONDS", 600.0),
        visibility_timeout=_seconds(environ, "DRTS_VISIBILITY_TIMEOUT", 3600.0),
        operator_token=environ.get(OPERATOR_TOKEN_VARIABLE, "").strip() or None,
        max_body_bytes=_positive_int(environ, MAX_BODY_VARIABLE, DEFAULT_MAX_BODY_BYTES),
        long_poll_max_seconds=_seconds(
            environ, "DRTS_LONG_POLL_MAX_SECONDS", DEFAULT_LONG_POLL_MAX_SECONDS
        ),
        max_long_polls=_count(environ, "DRTS_MAX_LONG_POLLS", DEFAULT_MAX_LONG_POLLS),
        max_streams=_count(environ, "DRTS_MAX_STREAMS", DEFAULT_MAX_STREAMS),
        max_streams_per_address=_count(
            environ, "DRTS_MAX_STREAMS_PER_ADDRESS", DEFAULT_MAX_STREAMS_PER_ADDRESS
        ),
        stream_heartbeat_seconds=_seconds(
            environ, "DRTS_STREAM_HEARTBEAT_SECONDS", DEFAULT_STREAM_HEARTBEAT_SECONDS
        ),
        stream_max_seconds=_seconds(environ, "DRTS_STREAM_MAX_SECONDS", DEFAULT_STREAM_MAX_SECONDS),
        rate_limit_per_address=_count(
            environ, "DRTS_RATE_LIMIT_PER_ADDRESS", DEFAULT_RATE_LIMIT_PER_ADDRESS
        ),
        rate_limit_per_token=_count(
            environ, "DRTS_RATE_LIMIT_PER_TOKEN", DEFAULT_RATE_LIMIT_PER_TOKEN
        ),
        trusted_proxies=_count(environ, "DRTS_TRUSTED_PROXIES", 0),
        quarantine_after=_at_least_one(environ, "DRTS_QUARANTINE_AFTER", DEFAULT_QUARANTINE_AFTER),
        sweep_stale_seconds=_seconds(
            environ, "DRTS_HEALTH_SWEEP_SECONDS", DEFAULT_SWEEP_STALE_SECONDS
        ),
        overdue_seconds=_seconds(environ, "DRTS_HEALTH_OVERDUE_SECONDS", DEFAULT_OVERDUE_SECONDS),
        projection_lag=_count(environ, "DRTS_HEALTH_PROJECTION_LAG", DEFAULT_PROJECTION_LAG),
        mail_domain=_mail_domain(environ),
        mail_port=_port(environ, "DRTS_MAIL_PORT", DEFAULT_MAIL_PORT),
        mail_max_bytes=_positive_int(environ, "DRTS_MAIL_MAX_BYTES", DEFAULT_MAIL_MAX_BYTES),
        smtp_url=environ.get(SMTP_URL_VARIABLE, "").strip(),
        mail_outbox=environ.get("DRTS_MAIL_OUTBOX", "").strip() or DEFAULT_MAIL_OUTBOX,
        session_secret=environ.get("DRTS_SESSION_SECRET", "").strip() or None,
        session_hours=_hours(environ, "DRTS_SESSION_HOURS", DEFAULT_SESSION_HOURS),
        forum_max_delay_seconds=_seconds(
            environ, "DRTS_FORUM_MAX_DELAY_SECONDS", DEFAULT_FORUM_MAX_DELAY_SECONDS
        ),
        mail_reminder_seconds=_seconds(
            environ, "DRTS_MAIL_REMINDER_SECONDS", DEFAULT_MAIL_REMINDER_SECONDS
        ),
        match_cache_size=_count(environ, "DRTS_MATCH_CACHE_SIZE", DEFAULT_MATCH_CACHE_SIZE),
        past_cache_size=_count(environ, "DRTS_PAST_CACHE_SIZE", DEFAULT_PAST_CACHE_SIZE),
        follow_log=_follow_log(environ),
    )


def _follow_log(environ: Mapping[str, str]) -> str | None:
    """Returns DRTS_FOLLOW_LOG ("api" or "worker"), or None when unset."""
    text = environ.get(FOLLOW_LOG_VARIABLE, "").strip().lower()
    if text and text not in FOLLOWERS:
        raise SettingsError(f"{FOLLOW_LOG_VARIABLE}={text!r}: give one of {', '.join(FOLLOWERS)}")
    return text or None


def _mail_domain(environ: Mapping[str, str]) -> str:
    domain = environ.get("DRTS_MAIL_DOMAIN", "").strip().lower() or DEFAULT_MAIL_DOMAIN
    if not re.fullmatch(r"[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?", domain) or ".." in domain:
        raise SettingsError(f"DRTS_MAIL_DOMAIN={domain!r}: give a domain name (mail.example.org)")
    return domain


def _port(environ: Mapping[str, str], name: str, default: int) -> int:
    value = _count(environ, name, default)
    if not 1 <= value <= 65535:
        raise SettingsError(f"{name}={value}: give a port number from 1 to 65535")
    return value


def _at_least_one(environ: Mapping[str, str], name: str, default: int) -> int:
    value = _count(environ, name, default)
    if value < 1:
        raise SettingsError(f"{name}={value}: give a whole number, 1 or more")
    return value


def _positive_int(environ: Mapping[str, str], name: str, default: int) -> int:
    value = _count(environ, name, default)
    if value <= 0:
        raise SettingsError(f"{name}={value}: give a positive number of bytes")
    return value


def _hours(environ: Mapping[str, str], name: str, default: int) -> int:
    value = _count(environ, name, default)
    if value <= 0:
        raise SettingsError(f"{name}={value}: give a positive whole number of hours")
    return value


def _count(environ: Mapping[str, str], name: str, default: int) -> int:
    text = environ.get(name, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()):
        raise SettingsError(f"{name}={text!r}: give a whole number (0 or more)")
    return int(text)


def _seconds(environ: Mapping[str, str], name: str, default: float) -> float:
    text = environ.get(name, "").strip()
    try:
        value = float(text) if text else default
    except ValueError:
        raise SettingsError(f"{name}={text!r}: give a number of seconds") from None
    if value < 0:
        raise SettingsError(f"{name}={text!r}: seconds cannot be negative")
    return value


def sqlite_path(url: str) -> Path:
    """Returns the file of an sqlite:/// URL (relative paths are from the working directory)."""
    path = unquote(urlsplit(url).path)
    if not path or path == "/":
        raise SettingsError(f"{url!r} names no SQLite file: use sqlite:///drts.sqlite")
    return Path(path[1:])  # sqlite:///rel/x -> rel/x, sqlite:////abs/x -> /abs/x


def postgres_env(url: str) -> dict[str, str]:
    """Returns eventsourcing's POSTGRES_* settings for a postgresql:// URL."""
    parts = urlsplit(url)
    dbname = unquote(parts.path.lstrip("/"))
    if not parts.hostname or not dbname:
        raise SettingsError(f"{url!r} needs a host and a database: postgresql://user@host/db")
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": parts.hostname,
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": unquote(parts.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
        "POSTGRES_LOCK_TIMEOUT": "5",
        "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": "5",
        "POSTGRES_POOL_SIZE": "4",
        "POSTGRES_CONNECT_TIMEOUT": "10",
    }
    schema = parse_qs(parts.query).get("schema")
    if schema:
        env["POSTGRES_SCHEMA"] = schema[0]
    return env
