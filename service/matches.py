"""The Matches facade: the one entry point of the edges (api/, workers/, cli/), wiring
the use cases of playing a match once and naming each of their methods.

Persistence comes from `service.settings` (DRTS_DATABASE_URL). The service reads the
clock and draws seeds, tokens and salts with `secrets`; the Match aggregate only
records. Writes use optimistic concurrency: a command that loses a race reloads the
match and decides again, so two callers resolving the same movement give exactly one
resolution.

Each use case is an object of its own, given what it needs in its constructor, and none
inherits another (tests/test_layers.py holds it):

- service/store/application.py (`MatchStore`, the one eventsourcing `Application`): opening,
  loading, saving with retries, the kept matches, tokens, read models, countdown tasks;
- service/queries/reads.py (`MatchReads`, given the store): the queries of a match;
- service/queries/listings.py (`Listings`, given the store): the read models' listings;
- service/usecases/inspection.py (`Inspection`, given the store and the queries, which record a
  look at secrets): the seed, archive exports, corrections, audits, chain verification;
- service/usecases/resolution.py (`Resolution`, given the store): resolving movements one by
  one and in batches, the sweep, rematches, quarantine and retry;
- service/usecases/intake.py (`Intake`, given the store and the resolution, as an order may
  close a movement): orders from the API, mail and forum posts, forum users and codes;
- service/usecases/refereeing.py (`Refereeing`, given the store and the resolution): deadlines,
  referee actions, corrections, disputes;
- service/usecases/lobby.py (`Lobby`, given the store, the mail domain and the outbox): creating
  and importing matches, seating players, result addresses, starting, seat tokens.

`Matches` holds them as attributes (`matches.intake`, ...) and names each public
method once, so the edges call `matches.submit_order(...)` and nothing deeper; the
forum desk (service/channels/forum/desk.py) and the pages' sessions are built over it. Opening
the store on a database upgrades it (SQLite) or refuses it (PostgreSQL) unless it is at
the latest migration (service/schema.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from types import TracebackType
from uuid import UUID

from service.channels.forum.desk import ForumDesk, PostReply
from service.channels.forum.posts import Post
from service.channels.mail.outbox import Outbox, outbox_for
from service.channels.mail.seatmail import SeatMail
from service.queries.listings import Listings
from service.queries.reads import MatchReads
from service.readmodels.runner import ReadModels
from service.scheduling import Scheduler, scheduler_for
from service.sessions import PageSessions
from service.settings import DEFAULT_FORUM_MAX_DELAY_SECONDS, Settings, load_settings
from service.store.application import SNAPSHOT_INTERVAL, MatchStore, utc_now
from service.store.idempotency import IdempotencyKey
from service.usecases.inspection import Inspection
from service.usecases.intake import Intake
from service.usecases.lobby import Lobby
from service.usecases.players import Players
from service.usecases.refereeing import Refereeing
from service.usecases.resolution import Resolution

# IdempotencyKey: its stored topic names this module (service/store/idempotency.py registers it)
__all__ = ["SNAPSHOT_INTERVAL", "IdempotencyKey", "Matches", "connect", "utc_now"]


class Matches:
    """Creates matches, seats players, takes orders, resolves movements, serves replays:
    each method is its use case's (module docstring)."""

    match_id = staticmethod(MatchStore.match_id)

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        clock: Callable[[], datetime] = utc_now,
        scheduler: Scheduler | None = None,
        operator_token: str | None = None,
        quarantine_after: int = 3,
    ) -> None:
        self.store = store = MatchStore(env, clock, scheduler, operator_token)
        self.reads = reads = MatchReads(store)
        self.listings = listings = Listings(store)
        self.inspection = inspection = Inspection(store, reads)
        self.resolution = resolution = Resolution(store, quarantine_after)
        self.intake = intake = Intake(store, resolution)
        self.refereeing = refereeing = Refereeing(store, resolution)
        self.lobby = lobby = Lobby(store)
        self.players = Players(store, lobby)  # issue 45: player identities and ratings
        # how much earlier than its receipt a forum post's time may be taken (docs/forum.md)
        self.forum_max_delay = timedelta(seconds=DEFAULT_FORUM_MAX_DELAY_SECONDS)
        # the store, as the edges use it
        self.clock, self.tokens, self.env, self.events = (
            store.clock,
            store.tokens,
            store.env,
            store.events,
        )
        self.get_match, self.match_ids, self.close = store.get_match, store.match_ids, store.close
        self.warm, self.countdowns_held, self.kept = store.warm, store.countdowns_held, store.kept
        self.is_imported = store.is_imported
        # the lobby
        self.create_match, self.import_archive = lobby.create_match, lobby.import_archive
        self.join, self.start = lobby.join, lobby.start
        self.reissue_seat_token = lobby.reissue_seat_token
        self.register_result_address = lobby.register_result_address
        self.confirm_result_address = lobby.confirm_result_address
        self.register_referee_address = lobby.register_referee_address
        self.confirm_referee_address = lobby.confirm_referee_address
        # the intake
        self.submit_order, self.submit_mail_order = intake.submit_order, intake.submit_mail_order
        self.submit_seat_order = intake.submit_seat_order
        self.map_forum_user, self.forum_users = intake.map_forum_user, intake.forum_users
        self.forum_code = intake.forum_code
        # the referee
        self.extend_deadline, self.act, self.correct = (
            refereeing.extend_deadline,
            refereeing.act,
            refereeing.correct,
        )
        self.file_dispute, self.file_dispute_once = (
            refereeing.file_dispute,
            refereeing.file_dispute_once,
        )
        self.rule_dispute = refereeing.rule_dispute
        # the resolution
        self.resolve, self.resolve_isolated = resolution.resolve, resolution.resolve_isolated
        self.resolve_batch, self.resolve_due = resolution.resolve_batch, resolution.resolve_due
        self.offer_due, self.take_offered = resolution.offer_due, resolution.take_offered
        self.create_rematch_if_due = resolution.create_rematch_if_due
        self.create_missing_rematches = resolution.create_missing_rematches
        self.retry, self.quarantined_matches = resolution.retry, resolution.quarantined_matches
        # the reads
        self.summary, self.state, self.scores = reads.summary, reads.state, reads.scores
        self.display, self.timeline_match = reads.display, reads.timeline_match
        self.live = reads.live
        self.event_log, self.event_page = reads.event_log, reads.event_page
        self.holder, self.head = reads.holder, reads.head
        self.pending_orders, self.open_orders = reads.pending_orders, reads.open_orders
        self.legal_orders, self.note_secret_viewed = reads.legal_orders, reads.note_secret_viewed
        self.replay, self.desk_figures = reads.replay, reads.desk_figures
        self.movement, self.receipt = reads.movement, reads.receipt
        self.disputes, self.dispute_page, self.dispute = (
            reads.disputes,
            reads.dispute_page,
            reads.dispute,
        )
        # the listings
        self.list_matches, self.scoreboard = listings.list_matches, listings.scoreboard
        self.standings, self.due_movements = listings.standings, listings.due_movements
        self.rematches_due = listings.rematches_due
        # the inspection
        self.referee_seed, self.export_archive = inspection.referee_seed, inspection.export_archive
        self.corrections, self.audit = inspection.corrections, inspection.audit
        self.verify_chain = inspection.verify_chain

    def __enter__(self) -> Matches:
        self.store.__enter__()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> None:
        self.store.__exit__(exc_type, exc_val, exc_tb)  # closes the store

    @property
    def read_models(self) -> ReadModels:
        """Returns the store's read models (made on first use)."""
        return self.store.read_models

    @property
    def mail_domain(self) -> str:
        """The domain of the seats' order addresses (docs/mail.md): the lobby's."""
        return self.lobby.mail_domain

    @mail_domain.setter
    def mail_domain(self, domain: str) -> None:
        self.lobby.mail_domain = domain

    @property
    def outbox(self) -> Outbox:
        """Where confirmation mail goes: the lobby's."""
        return self.lobby.outbox

    @outbox.setter
    def outbox(self, outbox: Outbox) -> None:
        self.lobby.outbox = outbox

    @property
    def mail(self) -> SeatMail:
        """Returns the seats' mail: order addresses, result addresses, answers."""
        return self.lobby.mail

    @property
    def forum(self) -> ForumDesk:
        """Returns the forum desk: forum posts taken as orders (docs/forum.md)."""
        return ForumDesk(self, self.forum_max_delay)

    @property
    def page_sessions(self) -> PageSessions:
        """Returns the web pages' signed-in sessions, kept on the server (service/sessions.py)."""
        return PageSessions(self.read_models, self.clock)

    def take_forum_post(
        self, match_id: UUID | str, operator_token: str | None, post: Post, receipt: datetime
    ) -> PostReply:
        """Takes a forum post sent in by a forum integration (the operator token) at
        `receipt`: stored as its seat's order or refused, with the reply to post back; a
        post seen before stores nothing new (service/channels/forum/desk.py, docs/forum.md)."""
        self.tokens.check_operator(operator_token)
        return self.forum.receive(match_id, post, receipt)


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
