"""The Matches application: the use cases of playing a match (load, call the domain, save).

Persistence comes from `service.settings` (DRTS_DATABASE_URL). The service
reads the clock and draws seeds, tokens and salts with `secrets`; the Match
aggregate only records. Writes use optimistic concurrency: a command that
loses a race reloads the match and decides again, so two callers resolving
the same movement give exactly one resolution.

The application is built in three layers: the store (service/store.py: opening,
loading, saving with retries, read models, tokens), the queries
(service/reads.py), and the commands, one module per use case:

- service/lobby.py (`Lobby`): creating and importing matches, seating players,
  result addresses, starting, seat tokens;
- service/intake.py (`Intake`): orders from the API, mail and forum posts, forum
  users and one-time codes;
- service/refereeing.py (`Refereeing`): deadlines, referee actions, corrections,
  disputes;
- service/resolution.py (`Resolution`): resolving movements one by one and in
  batches, the sweep, rematches, quarantine and retry, countdown tasks. The intake
  and the referee's commands build on it: an order or an act may close a movement.

This module composes them. Opening the application on a database upgrades it
(SQLite) or refuses it (PostgreSQL) unless it is at the latest migration
(service/schema.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from service.idempotency import IdempotencyKey
from service.intake import Intake
from service.lobby import Lobby
from service.mail.outbox import outbox_for
from service.reads import MatchReads
from service.refereeing import Refereeing
from service.resolution import Resolution
from service.scheduling import Scheduler, scheduler_for
from service.sessions import PageSessions
from service.settings import Settings, load_settings
from service.store import SNAPSHOT_INTERVAL, utc_now

# IdempotencyKey: its stored topic names this module (service/idempotency.py registers it)
__all__ = ["SNAPSHOT_INTERVAL", "IdempotencyKey", "Matches", "connect", "utc_now"]


class Matches(Lobby, Refereeing, Intake, Resolution, MatchReads):
    """Creates matches, seats players, takes orders, resolves movements, serves replays."""

    @property
    def page_sessions(self) -> PageSessions:
        """Returns the web pages' signed-in sessions, kept on the server (service/sessions.py)."""
        return PageSessions(self.read_models, self.clock)


def connect(
    settings: Settings | None = None,
    clock: Callable[[], datetime] = utc_now,
    scheduler: Scheduler | None = None,
) -> Matches:
    """Returns the Matches application on the configured store (keep the reference).

    Unless given a scheduler, it sends countdown tasks when DRTS_BROKER_URL is set.
    """
    settings = settings or load_settings()
    matches = Matches(
        env=settings.event_store_env(),
        clock=clock,
        scheduler=scheduler or scheduler_for(settings),
        operator_token=settings.operator_token,
        quarantine_after=settings.quarantine_after,
    )
    matches.mail_domain, matches.outbox = settings.mail_domain, outbox_for(settings)
    matches.forum_max_delay = timedelta(seconds=settings.forum_max_delay_seconds)
    return matches
