"""The intake of orders: from the API (a seat's token), by mail (a seat's secret order
address) and from forum posts (a forum user the referee mapped to a seat, or a one-time
code).

Every way in ends in `_submit`: the order is checked against the limits and stored with
its salted receipt digest, source and message id, judged as of the instant it was
received; a movement it makes ready resolves at once, so the intake is given the
resolution (service/usecases/resolution.py) beside the store. The forum desk that reads posts
(service/channels/forum/desk.py) is built over the Matches facade (service/matches.py), which
wires the use cases.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from datetime import datetime
from uuid import UUID

from domain.match import Match, Receipt
from domain.rules.contract import JSON
from service import limits
from service.channels.forum import codes as forum_codes
from service.channels.forum.users import ForumUser, forum_identity, forum_mapping
from service.results import Head, OrderReceipt
from service.store.application import MatchStore, head_of
from service.usecases.resolution import Resolution


class Intake:
    """Takes orders from the API, mail and forum posts; maps forum users, issues codes."""

    def __init__(self, store: MatchStore, resolution: Resolution) -> None:
        self.store, self.resolution = store, resolution

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
        now = received_at or self.store.clock()
        limits.check_order(order, max_chars=limits.LONGEST_ORDER_CHARS)  # before the token
        if movement is not None:
            limits.check_movement(movement)
        token_hash = self.store.tokens.seat_hash(token)
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
        authenticated it: service/channels/mail/); recorded with source "mail" and its
        Message-ID."""
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
        self,
        match_id: UUID | str,
        referee_token: str | None,
        user: str,
        seat: int | None,
        identity: str | None = None,
    ) -> None:
        """Maps forum user `user` to `seat` (None clears the mapping), as the referee (or
        the operator): recorded as a ForumUserMapped event (docs/forum.md). `identity`: the
        forum's stable identity of the user (its user id, an mbox sender's address) that
        the user's posts must carry; None maps by the name alone."""
        user = limits.player_name(user, "user")
        known = forum_identity(identity)
        by, now = self.store.tokens.referee_name(referee_token), self.store.clock()
        self.store.retrying(
            match_id,
            lambda m: m.map_forum_user(
                self.store.tokens.referee_hash(m, referee_token), user, seat, by, now, known
            ),
        )

    def forum_users(self, match_id: UUID | str) -> dict[str, ForumUser]:
        """Returns the match's mapping of forum users to seats and identities (public)."""
        return forum_mapping(self.store.events.get(self.store.get_match(match_id).id))

    def forum_code(self, match_id: UUID | str, token: str | None) -> tuple[int, str]:
        """Issues a one-time code for the token's seat, to sign one forum post with; returns
        the seat and the code (shown once; docs/forum.md)."""
        seat, match = self.store.seat_of(match_id, token), self.store.match_id(match_id)
        return seat, forum_codes.issue(self.store.read_models, match, seat, self.store.clock())

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
            token_hash = seat_hash(match)
            match.check_message_new(token_hash, source, message_id)  # a copy taken twice
            receipt = match.submit_order(
                token_hash,
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

        with self.resolution.rematch_if_finished(match_id):
            receipt, ready, version, head = self.store.retrying(match_id, submit)
        closing = (
            self.resolution.resolve_isolated(match_id, receipt.movement, now) if ready else None
        )
        return OrderReceipt(
            self.store.match_id(match_id),
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
