"""The Matches application: the use cases of playing a match (load, call the domain, save).

Persistence comes from `service.settings` (DRTS_DATABASE_URL). The service
reads the clock and draws seeds, tokens and salts with `secrets`; the Match
aggregate only records. Writes use optimistic concurrency: a command that
loses a race reloads the match and decides again, so two callers resolving
the same movement give exactly one resolution.

The application is built in three layers: the store (service/store.py: opening,
loading, saving with retries, read models, tokens), the queries
(service/reads.py), and the commands here. Opening the application on a
database upgrades it (SQLite) or refuses it (PostgreSQL) unless it is at the
latest migration (service/schema.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError, Recording

from domain.errors import InvalidDeadlineError, MovementClosedError
from domain.integrity import commitment
from domain.match import Match, Receipt
from domain.rules.contract import JSON
from domain.rules.registry import get_ruleset
from domain.table import DeadlinePassed
from service import archive, batches, corrections, limits, quarantine, views
from service.disputes import dispute_json, uncitable
from service.errors import (
    ConcurrentWriteError,
    MatchImportedError,
    MatchNotFoundError,
    MissingTokenError,
    UnknownConfirmationCodeError,
)
from service.fastforward import ReadAhead
from service.forum import codes as forum_codes
from service.forum.desk import ForumDesk, PostReply
from service.forum.posts import Post
from service.forum.users import forum_users
from service.idempotency import IdempotencyKey, keyed_match
from service.mail import addresses
from service.mail.outbox import MaildirOutbox, Outbox, outbox_for
from service.mail.seatmail import SeatMail
from service.maps import expand_map
from service.readmodels.mailout import REFEREE_SEAT
from service.readmodels.recorders import OUTAGES, error_text
from service.reads import MatchReads
from service.results import (
    ActionTaken,
    Closing,
    CorrectionMade,
    Document,
    Head,
    ImportedMatch,
    NewMatch,
    NewSeat,
    OrderReceipt,
    QuarantinedMatch,
    Superseded,
)
from service.scheduling import Scheduler, scheduler_for
from service.settings import (
    DEFAULT_FORUM_MAX_DELAY_SECONDS,
    DEFAULT_MAIL_DOMAIN,
    DEFAULT_MAIL_OUTBOX,
    Settings,
    load_settings,
)
from service.store import SNAPSHOT_INTERVAL, utc_now

# the events that record a referee action (service `act`)
ACTED = (Match.RefereeActed, Match.Paused, Match.Resumed)
SETTLING = timedelta(milliseconds=100)  # a worker's wait past a deadline (issue 13)

__all__ = ["SETTLING", "SNAPSHOT_INTERVAL", "IdempotencyKey", "Matches", "connect", "utc_now"]

logger = logging.getLogger(__name__)
# a lost race, a database outage, an imported (read-only) match: raised, never counted
NOT_THE_MATCHS_FAULT: tuple[type[Exception], ...] = (
    ConcurrentWriteError,
    MatchImportedError,
    *OUTAGES,
)


class Matches(MatchReads):
    """Creates matches, seats players, takes orders, resolves movements, serves replays."""

    sleep: Callable[[float], None] = staticmethod(time.sleep)  # waits out SETTLING
    mail_domain: str = DEFAULT_MAIL_DOMAIN  # of the seats' order addresses (docs/mail.md)
    outbox: Outbox = MaildirOutbox(DEFAULT_MAIL_OUTBOX)  # where confirmation mail goes
    # how much earlier than its receipt a forum post's time may be taken (docs/forum.md)
    forum_max_delay: timedelta = timedelta(seconds=DEFAULT_FORUM_MAX_DELAY_SECONDS)

    @property
    def mail(self) -> SeatMail:
        """Returns the seats' mail: order addresses, result addresses, answers."""
        return SeatMail(lambda: self.read_models, self.mail_domain, self.outbox, self.clock)

    @property
    def forum(self) -> ForumDesk:
        """Returns the forum desk: forum posts taken as orders (docs/forum.md)."""
        return ForumDesk(self, self.forum_max_delay)

    def create_match(
        self,
        ruleset: str,
        config: Mapping[str, JSON] | None = None,
        seats: int | None = None,
        idempotency_key: str | None = None,
        seed: str | None = None,
        deadline_seconds: int | None = None,
        preset: str | None = None,
        version: int | None = None,
    ) -> NewMatch:
        """Creates a match and returns its id and referee token; a retried key finds the first.

        The match is pinned to `version` of the ruleset (the latest for None);
        a `preset`'s values are expanded into the recorded config, under
        `config`'s own.
        """
        limits.check_config(config or {})
        get_ruleset(ruleset)  # an unknown ruleset is refused, even in a retry of a known key
        if idempotency_key is not None:
            limits.check_text(idempotency_key, "idempotency_key", limits.MAX_KEY_CHARS)
            earlier = keyed_match(self.repository, idempotency_key)
            if earlier is not None:
                return NewMatch(earlier, None, created=False)
        token = secrets.token_urlsafe(32)
        match = Match.create(
            uuid4(),
            ruleset,
            expand_map(ruleset, config),  # a map named by the match becomes its content (SH-2)
            seed or secrets.token_hex(32),
            commitment(token),
            self.clock(),
            seats,
            deadline_seconds,
            preset,
            version,
        )
        if idempotency_key is None:
            self.save(match)
            return NewMatch(match.id, token)
        key = IdempotencyKey.pointing_at(idempotency_key, match.id)
        try:
            self.save(key, match)  # one transaction: the loser of a race stores neither
        except IntegrityError:
            earlier = keyed_match(self.repository, idempotency_key)
            return NewMatch(earlier or match.id, None, created=False)
        return NewMatch(match.id, token)

    def join(self, match_id: UUID | str, name: str, result_address: str | None = None) -> NewSeat:
        """Seats a player named `name`; returns the seat number, its token and its order
        address (shown once). A `result_address` is registered for its answers and mailed a
        confirmation code (docs/mail.md)."""
        name, token = limits.player_name(name), secrets.token_urlsafe(32)
        address = None if result_address is None else self.mail.checked(result_address)
        seat = self._retrying(match_id, lambda m: m.join(name, commitment(token), self.clock()))
        match = self.match_id(match_id)
        new = NewSeat(match, seat, token, self.mail.issue(match, seat))
        if address is not None:
            self.mail.register(new.match_id, seat, address)
        return replace(new, result_address=address)

    def register_result_address(self, match_id: UUID | str, token: str | None, address: str) -> str:
        """Registers the address the answers to the token's seat go to (replacing any
        other) and mails it a confirmation code; returns the address as kept."""
        kept = self.mail.checked(address)
        seat = self._seat_of(match_id, token)
        self.mail.register(self.match_id(match_id), seat, kept)
        return kept

    def confirm_result_address(self, match_id: UUID | str, token: str | None, code: str) -> str:
        """Confirms the token's seat's result address with the mailed code; returns it.
        Raises UnknownConfirmationCodeError for a code that is not that seat's."""
        seat, match = self._seat_of(match_id, token), self.match_id(match_id)
        if addresses.code_hash_of(self.read_models, match, seat) != addresses.hashed(code):
            raise UnknownConfirmationCodeError(
                f"seat {seat} of match {match} has no result address waiting for this code"
            )
        return self.mail.confirm(code).address

    def register_referee_address(
        self, match_id: UUID | str, referee_token: str | None, address: str
    ) -> str:
        """Registers the referee's result address (referee or operator token), which gets
        every result and dispute notice of the match once confirmed like a seat's (a reply
        to the confirmation, or `confirm_referee_address`); returns it as kept."""
        kept = self.mail.checked(address)
        match = self.get_match(match_id)
        match.check_referee(self.tokens.referee_hash(match, referee_token))
        self.mail.register(match.id, REFEREE_SEAT, kept)
        return kept

    def confirm_referee_address(
        self, match_id: UUID | str, referee_token: str | None, code: str
    ) -> str:
        """Confirms the referee's result address with the mailed code; returns it. Raises
        UnknownConfirmationCodeError for a code that is not the referee's."""
        match = self.get_match(match_id)
        match.check_referee(self.tokens.referee_hash(match, referee_token))
        if addresses.code_hash_of(self.read_models, match.id, REFEREE_SEAT) != addresses.hashed(
            code
        ):
            raise UnknownConfirmationCodeError(
                f"the referee of match {match.id} has no result address waiting for this code"
            )
        return self.mail.confirm(code).address

    def start(
        self,
        match_id: UUID | str,
        referee_token: str | None,
        state: JSON = None,
        movement: int = 1,
        strikes: Mapping[int, int] | None = None,
    ) -> None:
        """Starts the match (the referee may give a starting state, movement number and,
        for a scenario, strikes by seat)."""
        limits.check_movement(movement)
        limits.check_json(state, "state")
        self._retrying(
            match_id,
            lambda m: m.start(
                self.tokens.referee_hash(m, referee_token), self.clock(), state, movement, strikes
            ),
        )

    def reissue_seat_token(
        self,
        match_id: UUID | str,
        referee_token: str | None,
        seat: int,
        reason: str | None = None,
    ) -> NewSeat:
        """Gives a seat a new token (shown once) at the referee's request, recording the
        reason if given; the old one stops."""
        token = secrets.token_urlsafe(32)
        self._retrying(
            match_id,
            lambda m: m.reissue_seat_token(
                self.tokens.referee_hash(m, referee_token),
                seat,
                commitment(token),
                self.clock(),
                reason,
            ),
        )
        match = self.match_id(match_id)
        return NewSeat(match, seat, token, self.mail.issue(match, seat))

    def extend_deadline(
        self,
        match_id: UUID | str,
        referee_token: str | None,
        seconds: float | None = None,
        until: datetime | None = None,
        movement: int | None = None,
        reason: str | None = None,
    ) -> datetime:
        """Moves the open movement's deadline later, by `seconds` or to `until`; returns it.
        `reason`, if given, is recorded with it (DeadlineSet's `note`).

        The referee's (or the operator's) act, recorded as a DeadlineSet with
        reason "referee"; a near deadline gets its countdown task like any other.
        """
        if (seconds is None) == (until is None):
            raise InvalidDeadlineError("give either seconds to add or a new deadline (until)")
        if seconds is not None and not seconds > 0:
            raise InvalidDeadlineError(f"seconds to add must be positive, got {seconds}")
        if seconds is not None:
            limits.check_seconds(seconds)
        if movement is not None:
            limits.check_movement(movement)

        def extend(match: Match) -> datetime:
            current = match.deadline or self.clock()
            deadline = until or current + timedelta(seconds=seconds or 0)
            match.extend_deadline(
                self.tokens.referee_hash(match, referee_token),
                match.movement if movement is None else movement,
                deadline,
                self.clock(),
                reason,
            )
            return deadline

        return self._retrying(match_id, extend)

    def act(
        self,
        match_id: UUID | str,
        referee_token: str | None,
        action: str,
        args: Mapping[str, JSON],
        reason: str,
    ) -> ActionTaken:
        """Takes a referee action (referee or operator token): one of the game's, or the
        referee's own `forfeit` ({"seat": n}), `pause` or `resume` (no arguments), each
        recorded as an event naming who acted and why (RefereeActed, Paused, Resumed);
        returns its steps and the outcome. A resume whose movement every owing seat has
        ordered closes it at once."""
        now, by = self.clock(), self.tokens.referee_name(referee_token)

        def act(match: Match) -> tuple[ActionTaken, bool]:
            token_hash = self.tokens.referee_hash(match, referee_token)
            steps = match.act(token_hash, action, dict(args), reason, by, now)
            acted = next(e for e in match.pending_events if isinstance(e, ACTED))
            taken = ActionTaken(
                match.id,
                match.movement,
                action,
                acted.originator_version,
                steps,
                views.outcome_json(match.outcome),
            )
            return taken, match.is_ready()

        with self._rematch_if_finished(match_id):
            taken, ready = self._retrying(match_id, act)
        if ready:  # resumed with every owing seat ordered: the movement closes now
            self.resolve_isolated(match_id, taken.movement, now)
        return taken

    def correct(
        self,
        match_id: UUID | str,
        referee_token: str | None,
        movement: int,
        changes: Sequence[Mapping[str, Any]],
        reason: str,
        dispute: int | None = None,
    ) -> CorrectionMade:
        """Corrects resolved `movement` (referee or operator token): the seats' orders in
        `changes` (`{"seat", "order"}`, an order None withdrawing the seat's, with an
        optional `received_at`) replace theirs, the movement resolves again and the later
        movements follow from the recorded inputs (service/corrections.py). A rematch the
        correction voids is marked void; one a new draw asks for is created."""
        now, by = self.clock(), self.tokens.referee_name(referee_token)
        wanted = corrections.order_changes(changes)

        def correct(match: Match) -> tuple[CorrectionMade, bool]:
            token_hash = self.tokens.referee_hash(match, referee_token)
            done = corrections.run(
                self, match, token_hash, movement, wanted, reason, by, now, dispute
            )
            corrected = next(e for e in match.pending_events if isinstance(e, Match.Corrected))
            made = CorrectionMade(
                match.id,
                movement,
                done.timeline,
                corrected.originator_version,
                Superseded(done.superseded_from, done.superseded_to),
                tuple(r.to_json() for r in done.refused),
                done.voided_rematch,
                match.movement,
                views.outcome_json(match.outcome),
                head_of(match),
            )
            return made, match.is_ready()

        made, ready = self._retrying(match_id, correct)
        if made.voided_rematch is not None:
            self._void(made)
        self.create_rematch_if_due(made.match_id)
        if ready:
            self.resolve_isolated(made.match_id, made.open_movement, now)
        return made

    def _void(self, made: CorrectionMade) -> None:
        """Marks void the rematch a correction voided (idempotent)."""
        assert made.voided_rematch is not None
        reason = (
            f"the correction at version {made.version} of match {made.match_id} "
            "made its draw no longer a draw"
        )
        self._retrying(
            UUID(made.voided_rematch),
            lambda m: m.void(str(made.match_id), made.version, reason, self.clock()),
        )

    def file_dispute(
        self, match_id: UUID | str, token: str | None, cites: Sequence[int], text: str
    ) -> Document:
        """Files a dispute from a seat (its token) or the referee (its token or the
        operator's), citing event versions, with a public text; recorded as a DisputeFiled
        event. Returns the dispute's public form (service/disputes.py).

        A seat may cite any event but another seat's order or refusal still sealed
        (UncitableEventError); a cite the log does not hold, no cite or an empty text is an
        InvalidDisputeError."""
        return self.file_dispute_once(match_id, token, cites, text)[0]

    def file_dispute_once(
        self,
        match_id: UUID | str,
        token: str | None,
        cites: Sequence[int],
        text: str,
        idempotency_key: str | None = None,
    ) -> tuple[Document, bool]:
        """Files a dispute as `file_dispute` does; returns its public form and whether this
        call filed it. With an idempotency key, a dispute the same filer filed with that
        key is returned (False) and nothing is recorded, whatever the rest of the request
        says (as a retried create: docs/api.md)."""
        limits.check_dispute_text(text)
        versions = limits.check_cites(list(cites))
        if token is None:
            raise MissingTokenError("a dispute needs the token of a seat or of the referee")
        key_digest = None
        if idempotency_key is not None:
            limits.check_text(idempotency_key, "idempotency_key", limits.MAX_KEY_CHARS)
            key_digest = hashlib.sha256(idempotency_key.encode()).hexdigest()
        operator, now = self.tokens.is_operator(token), self.clock()

        def file(match: Match) -> tuple[Document, bool]:
            token_hash = self.tokens.referee_hash(match, token) if operator else commitment(token)
            by, filed = "operator" if operator else None, len(match.disputes)
            number = match.file_dispute(
                token_hash, versions, text, now, uncitable(self, match), by, key_digest
            )
            return dispute_json(match.dispute(number)), len(match.disputes) > filed

        return self._retrying(match_id, file)

    def rule_dispute(
        self,
        match_id: UUID | str,
        referee_token: str | None,
        number: int,
        ruling: str,
        reason: str,
    ) -> Document:
        """Rules on dispute `number` (referee or operator token): "dismissed" or "upheld",
        with a reason, recorded as a DisputeRuled event; returns the dispute as ruled.

        Upheld here is a note (its reason); a correction naming the dispute upholds it
        with the correction (`correct`, issue 19).
        A dispute is ruled on once (DisputeAlreadyRuledError)."""
        limits.check_dispute_text(reason, "reason")
        by, now = self.tokens.referee_name(referee_token), self.clock()

        def rule(match: Match) -> Document:
            token_hash = self.tokens.referee_hash(match, referee_token)
            return dispute_json(match.rule_dispute(token_hash, number, ruling, reason, by, now))

        return self._retrying(match_id, rule)

    def submit_order(
        self,
        match_id: UUID | str,
        token: str | None,
        order: str | Mapping[str, JSON],
        source: str = "api",
        message_id: str | None = None,
        movement: int | None = None,
        resolve_when_ready: bool = True,
        received_at: datetime | None = None,
    ) -> OrderReceipt:
        """Takes an order from the seat holding `token`; a ready movement then resolves.

        `received_at` is the instant the order arrived, taken at the edge (the HTTP
        request, the CLI command); now by default. The order is judged as of that instant
        however long its processing takes (docs/operations.md, settling time).
        """
        now = received_at or self.clock()
        limits.check_order(order, max_chars=limits.LONGEST_ORDER_CHARS)  # before the token
        if movement is not None:
            limits.check_movement(movement)
        token_hash = self.tokens.seat_hash(token)
        return self._submit(
            match_id,
            lambda _: token_hash,
            order,
            source,
            message_id,
            movement,
            resolve_when_ready,
            now,
        )

    def submit_mail_order(
        self,
        match_id: UUID,
        seat: int,
        order: str,
        message_id: str,
        received_at: datetime,
        movement: int | None = None,
    ) -> OrderReceipt:
        """Takes an order that came by mail to `seat`'s secret order address (the address
        authenticated it: service/mail/); recorded with source "mail" and its Message-ID."""
        return self.submit_seat_order(
            match_id, seat, order, "mail", message_id, received_at, movement
        )

    def submit_seat_order(
        self,
        match_id: UUID,
        seat: int,
        order: str,
        source: str,
        message_id: str,
        received_at: datetime,
        movement: int | None = None,
    ) -> OrderReceipt:
        """Takes an order for `seat` that an intake authenticated itself (a mail's secret
        order address, a forum post's mapped author or one-time code), recorded with its
        `source` ("mail", "forum") and the message's or post's id."""
        return self._submit(
            match_id,
            lambda m: m.seats[seat - 1].token_hash,
            order,
            source,
            message_id,
            movement,
            True,
            received_at,
        )

    def map_forum_user(
        self, match_id: UUID | str, referee_token: str | None, user: str, seat: int | None
    ) -> None:
        """Maps forum user `user` to `seat` (None clears the mapping), as the referee (or
        the operator): recorded as a ForumUserMapped event (docs/forum.md)."""
        user = limits.player_name(user, "user")
        by, now = self.tokens.referee_name(referee_token), self.clock()
        self._retrying(
            match_id,
            lambda m: m.map_forum_user(
                self.tokens.referee_hash(m, referee_token), user, seat, by, now
            ),
        )

    def take_forum_post(
        self, match_id: UUID | str, operator_token: str | None, post: Post, receipt: datetime
    ) -> PostReply:
        """Takes a forum post sent in by a forum integration (the operator token) at
        `receipt`: stored as its seat's order or refused, with the reply to post back; a
        post seen before stores nothing new (service/forum/desk.py, docs/forum.md)."""
        self.tokens.check_operator(operator_token)
        return self.forum.receive(match_id, post, receipt)

    def forum_users(self, match_id: UUID | str) -> dict[str, int]:
        """Returns the match's mapping of forum users to seats (public)."""
        return forum_users(self.events.get(self.get_match(match_id).id))

    def forum_code(self, match_id: UUID | str, token: str | None) -> tuple[int, str]:
        """Issues a one-time code for the token's seat, to sign one forum post with; returns
        the seat and the code (shown once; docs/forum.md)."""
        seat, match = self._seat_of(match_id, token), self.match_id(match_id)
        return seat, forum_codes.issue(self.read_models, match, seat, self.clock())

    def _submit(
        self,
        match_id: UUID | str,
        seat_hash: Callable[[Match], str],
        order: str | Mapping[str, JSON],
        source: str,
        message_id: str | None,
        movement: int | None,
        resolve_when_ready: bool,
        now: datetime,
    ) -> OrderReceipt:
        """Takes an order from the seat whose token hash `seat_hash` gives (submit_order)."""
        limits.check_order(order, max_chars=limits.LONGEST_ORDER_CHARS)
        if movement is not None:
            limits.check_movement(movement)
        salt = secrets.token_hex(16)

        def submit(match: Match) -> tuple[Receipt, bool, int, Head]:
            limits.check_order(order, max_chars=match.rules().info.max_order_chars)
            receipt = match.submit_order(
                seat_hash(match),
                order if isinstance(order, str) else dict(order),
                salt,
                now,
                source,
                message_id,
                movement,
            )
            stored = next(
                e for e in reversed(match.pending_events) if isinstance(e, Match.OrderSubmitted)
            )
            ready = resolve_when_ready and receipt.ready
            return receipt, ready, stored.originator_version, head_of(match)

        with self._rematch_if_finished(match_id):
            receipt, ready, version, head = self._retrying(match_id, submit)
        closing = self.resolve_isolated(match_id, receipt.movement, now) if ready else None
        return OrderReceipt(
            self.match_id(match_id),
            receipt.seat,
            receipt.movement,
            receipt.digest,
            receipt.received_at,
            closing,
            receipt.refused,
            receipt.standing,
            version,
            head,
        )

    def resolve(
        self, match_id: UUID | str, movement: int, now: datetime | None = None
    ) -> Closing | None:
        """Resolves `movement` if it is due (deadline passed, or ready to close early); a
        match that finishes asking for a rematch then gets it (`create_rematch_if_due`).

        Idempotent: once the movement has closed, it returns None and records nothing
        (but still creates a rematch that is due and missing, as after a crash). A
        quarantined match is left alone: None.
        """
        at = now or self._settled(match_id)

        def close(match: Match) -> tuple[Closing | None, bool]:
            if match.quarantined is not None:
                return None, False
            passed = match.close_movement(movement, at)
            closing = None if passed is None else _closing(match, movement, passed)
            return closing, match.wants_rematch()

        closing, rematch_due = self._retrying(match_id, close)
        rematch_id = self.create_rematch_if_due(match_id) if rematch_due else None
        return None if closing is None else replace(closing, rematch_id=rematch_id)

    def create_rematch_if_due(self, match_id: UUID | str) -> UUID | None:
        """Creates the rematch of a match whose outcome asks for one (DW-5); returns its
        id, or None when no rematch is due.

        Idempotent: the drawn match first records the rematch's id (ReplayLinked); a
        second call, or one after a crash between the two saves, finds that id and
        creates the rematch only if it is missing.
        """
        now = self.clock()
        rematch_id = self._retrying(match_id, lambda m: m.link_rematch(uuid4(), now))
        if rematch_id is None:
            return None
        try:
            self._load(rematch_id)
        except MatchNotFoundError:
            original = self._load(match_id)
            rematch = Match.rematch(original, rematch_id, secrets.token_hex(32), now)
            with contextlib.suppress(IntegrityError):  # a racing caller created it
                self.save(rematch)
        return rematch_id

    def resolve_isolated(
        self, match_id: UUID | str, movement: int, now: datetime | None = None
    ) -> Closing | None:
        """Resolves like `resolve`, but a failure is counted instead of raised (returning
        None), and the match quarantined once it has failed the same way
        `quarantine_after` times in a row (service/quarantine.py). A lost race
        (ConcurrentWriteError), a database outage and an imported match, which is
        read-only (MatchImportedError), are raised: not the match's fault.
        """
        closing = self._resolve_counted(match_id, movement, now)
        if closing is not None:
            quarantine.forget(self.read_models, closing.match_id)
        return closing

    def resolve_batch(self, batch: Sequence[batches.Due]) -> list[Closing | None]:
        """Resolves each due movement of the batch like `resolve_isolated`: one that fails
        is counted (and quarantined) while the others go on. Returns what each resolution
        did, in order (None: nothing due, failed, or left to the sweep).

        Fewer round trips than one call each (service/batches.py): it settles once (loading
        its matches while it waits, `warm`), skips the imported matches found in one
        query, resolves the others in memory and saves them together, up to JOINT_SAVE
        (50) in one transaction, and forgets the successes' failure counts in one
        statement. A match whose resolution raises, and every match of a joint save
        that lost a race, is then resolved on its own, in its own transaction: counted if
        it fails, a lost race logged and left to the sweep; a database outage is raised.
        """
        imported = batches.imported_among(self.read_models, [due.match_id for due in batch])
        self._remember_imported({due.match_id: due.match_id in imported for due in batch})
        members = [due for due in batch if due.match_id not in imported]
        now = self._settled_after(
            batches.latest_deadline(batch), meanwhile=[due.match_id for due in members]
        )
        jointly: dict[int, Closing | None] = {}
        with self.countdowns_held():  # every group saved first
            for group in batches.in_joint_saves(batches.first_of_each_match(members)):
                jointly.update(self._resolve_jointly(group, now))
        closings = [
            None
            if due.match_id in imported
            else jointly[index]
            if index in jointly
            else self._resolve_in_batch(due, now)
            for index, due in enumerate(batch)
        ]
        resolved = [closing.match_id for closing in closings if closing is not None]
        batches.forget_failures(self.read_models, resolved)
        return closings

    def _resolve_jointly(
        self, members: Mapping[int, batches.Due], now: datetime
    ) -> dict[int, Closing | None]:
        """Resolves the batch's members (by index) in memory and saves them in one
        transaction; returns what each did. Left out, for `resolve_batch` to resolve on
        its own: a member whose resolution raised, and every member when the joint save
        failed (another writer got to one of them first)."""
        ahead = self._read_ahead(due.match_id for due in members.values())
        closed = {
            index: self._closed_in_memory(due, now, ahead.get(due.match_id))
            for index, due in members.items()
        }
        done = {index: outcome for index, outcome in closed.items() if outcome is not None}
        changed = [match for match, _, _ in done.values() if match.pending_events]
        try:
            if changed:
                self.save(*changed)
        except OUTAGES:
            raise
        except Exception as error:  # a lost race, or one match's events not recordable
            logger.info("a batch's joint save failed (%s); resolving each on its own", error)
            return {}
        for match, _, _ in done.values():
            self.kept.put(match)
        return {
            index: self._with_rematch(closing, wants) for index, (_, closing, wants) in done.items()
        }

    def _closed_in_memory(
        self, due: batches.Due, now: datetime, ahead: ReadAhead | None
    ) -> tuple[Match, Closing | None, bool] | None:
        """Returns the member's match with its movement closed (not saved), what closing
        did, and whether it asks for a rematch; None if anything raised. A kept match is
        fast-forwarded over the rows read `ahead` for its group, if any."""
        try:
            match = self._load_for_command(due.match_id, may_use_kept=True, ahead=ahead)
            if match.quarantined is not None:
                return match, None, False
            passed = match.close_movement(due.movement, now)
        except Exception:  # resolved again on its own, which counts or raises it
            return None
        closing = None if passed is None else _closing(match, due.movement, passed)
        return match, closing, match.wants_rematch()

    def _with_rematch(self, closing: Closing | None, wants_rematch: bool) -> Closing | None:
        """Returns a saved closing with the rematch it asks for, created (DW-5)."""
        if closing is None or not wants_rematch:
            return closing
        return replace(closing, rematch_id=self.create_rematch_if_due(closing.match_id))

    def create_missing_rematches(self) -> list[UUID]:
        """Creates the rematch of every finished match that asks for one and lacks it (a
        crash came between the draw and the rematch); returns the rematches' ids."""
        created = (self.create_rematch_if_due(match_id) for match_id in self.rematches_due())
        return [rematch_id for rematch_id in created if rematch_id is not None]

    def resolve_due(self, now: datetime | None = None) -> list[Closing]:
        """Resolves every movement due at `now`, each on its own (`resolve_isolated`: one
        that fails is counted and the rest go on); returns what each resolution did."""
        at = now or self.clock()
        closings = (
            self.resolve_isolated(due.match_id, due.movement, now) for due in self.due_movements(at)
        )
        return [closing for closing in closings if closing is not None]

    def retry(self, match_id: UUID | str, referee_token: str | None) -> int:
        """Lifts the match's quarantine (referee or operator token), recorded as a
        QuarantineLifted event; the sweep then tries its movement again, which it returns.
        Raises NotQuarantinedError when the match is not quarantined."""
        by, now = self.tokens.referee_name(referee_token), self.clock()
        movement = self._retrying(
            match_id,
            lambda m: m.lift_quarantine(self.tokens.referee_hash(m, referee_token), by, now),
        )
        quarantine.forget(self.read_models, self.match_id(match_id))
        return movement

    def import_archive(self, document: JSON) -> ImportedMatch:
        """Imports a match archive (docs/archive.md) after verifying it: its events are
        stored exactly as exported, and the match is read-only. A no-op when the store
        holds the same events already; raises InvalidArchiveError, TamperedArchiveError
        (naming the event) or MatchExistsError, writing nothing."""
        return archive.import_archive(self, document)

    def quarantined_matches(self) -> list[QuarantinedMatch]:
        """Returns the quarantined matches, the earliest quarantined first: for each, the
        movement that kept failing, the last error, the failures in a row and when (one
        query of the `match_failures` table; what /health counts)."""
        return quarantine.quarantined(self.read_models)

    # -- private ----------------------------------------------------------------------------

    def _seat_of(self, match_id: UUID | str, token: str | None) -> int:
        """Returns the seat of a seat token (MissingTokenError, InvalidTokenError)."""
        return self._load(match_id).seat_of(self.tokens.seat_hash(token))

    def _settled(self, match_id: UUID | str) -> datetime:
        """Returns now, once the open movement's deadline is at least the settling time
        past: a worker on time waits out the rest of it, so that an order received before
        the deadline and still in processing is written first (docs/operations.md)."""
        return self._settled_after(self._load(match_id).deadline)

    def _settled_after(self, deadline: datetime | None, meanwhile: Sequence[UUID] = ()) -> datetime:
        """Returns now, once `deadline` (if any) is at least the settling time past; the
        matches `meanwhile` are loaded while it waits (`warm`), so that resolving them
        after it only fast-forwards them."""
        now = self.clock()
        if deadline is not None and deadline <= now < deadline + SETTLING:
            self.warm(meanwhile, until=deadline + SETTLING)
            now = self.clock()
            if now < deadline + SETTLING:
                self.sleep((deadline + SETTLING - now).total_seconds())
                now = self.clock()
        return now

    def _resolve_counted(
        self, match_id: UUID | str, movement: int, now: datetime | None
    ) -> Closing | None:
        """`resolve`, counting a failure that is the match's fault instead of raising it."""
        try:
            return self.resolve(match_id, movement, now)
        except NOT_THE_MATCHS_FAULT:
            raise
        except Exception as error:
            self._count_failure(self.match_id(match_id), movement, error)
            return None

    def _resolve_in_batch(self, due: batches.Due, now: datetime) -> Closing | None:
        """`_resolve_counted` for one member of a batch: a race lost ten times is logged
        and left to the sweep (the movement stays due), not raised over the others."""
        try:
            return self._resolve_counted(due.match_id, due.movement, now)
        except ConcurrentWriteError:
            logger.warning("match %s kept changing; the sweep will resolve it", due.match_id)
            return None

    @contextlib.contextmanager
    def countdowns_held(self) -> Iterator[None]:
        """Holds back the countdown tasks this thread's saves ask for until the block ends,
        then asks for them all (within an outer block, the outer one's end). A worker
        resolving a burst saves every batch first: sending a task costs about a
        millisecond, and it is for a later deadline. Asked for even if the block raises:
        their deadlines are stored."""
        if getattr(self._held_countdowns, "calls", None) is not None:
            yield
            return
        self._held_countdowns.calls = []
        try:
            yield
        finally:
            calls, self._held_countdowns.calls = self._held_countdowns.calls, None
            for call in calls:
                self.scheduler.deadline_set(*call)

    def _notify(self, recordings: list[Recording[UUID]]) -> None:
        """Asks the scheduler to resolve each deadline just stored (whoever stored it: a
        command, a rematch, a retried save), or holds the request (`countdowns_held`)."""
        held = getattr(self._held_countdowns, "calls", None)
        for recording in recordings:
            new = recording.domain_event
            if isinstance(new, Match.DeadlineSet) and new.reason != "periodic":
                # a movement that re-arms waits for an order; its arming asks for the task
                call = (new.originator_id, new.movement, new.deadline, self.clock())
                if held is None:
                    self.scheduler.deadline_set(*call)
                else:
                    held.append(call)

    def _count_failure(self, match_id: UUID, movement: int, error: Exception) -> None:
        """Counts a failed resolution and quarantines the match once it has failed the same
        way `quarantine_after` times in a row."""
        now = self.clock()
        failures = quarantine.count_failure(self.read_models, match_id, movement, error, now)
        logger.error(
            "resolving movement %s of match %s failed (%s in a row): %s",
            movement,
            match_id,
            failures,
            error_text(error),
            exc_info=error,
        )
        if failures < self.quarantine_after:
            return
        name, text = type(error).__name__, error_text(error)

        def quarantine_match(match: Match) -> bool:
            match.quarantine(movement, name, text, failures, now)
            return match.quarantined is not None

        if self._retrying(match_id, quarantine_match):
            quarantine.mark_quarantined(self.read_models, match_id, now)
            logger.error("match %s is quarantined: the sweep leaves it until a retry", match_id)

    @contextlib.contextmanager
    def _rematch_if_finished(self, match_id: UUID | str) -> Iterator[None]:
        """Creates a rematch that became due when a command refused as too late (the match
        is over: MovementClosedError) had first let the due deadline pass and finish it."""
        try:
            yield
        except MovementClosedError:
            self.create_rematch_if_due(match_id)
            raise


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


def _closing(match: Match, movement: int, passed: DeadlinePassed) -> Closing:
    return Closing(
        match.id,
        movement,
        passed.strikes,
        passed.forfeited,
        passed.resolution is not None,
        passed.steps,
        match.finished,
        head=head_of(match),
    )


def head_of(match: Match) -> Head:
    """Returns the head of a match as loaded, with what a command recorded on it: the
    head after the command's whole write, once saved."""
    return Head(match.version, match.chain)
