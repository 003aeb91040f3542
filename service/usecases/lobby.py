"""The lobby of the Matches application: how a match comes to be and who sits at it.

Creating a match (a retried idempotency key finds the first) or importing one from an
archive (read-only), seating players with their tokens and order addresses (shown
once), the seats' and the referee's result addresses with their confirmation codes,
starting the match, and a seat's new token at the referee's request. Given the store
(service/store/application.py), the domain of the order addresses and the outbox of confirmation
mail; service/matches.py wires it.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import replace
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError

from domain.integrity import commitment
from domain.match import Match
from domain.rules.contract import JSON
from domain.rules.registry import get_ruleset
from service import limits
from service.channels.mail import addresses
from service.channels.mail.outbox import MaildirOutbox, Outbox
from service.channels.mail.seatmail import SeatMail
from service.errors import UnknownConfirmationCodeError
from service.maps import expand_map
from service.readmodels.mailout import REFEREE_SEAT
from service.results import ImportedMatch, NewMatch, NewSeat
from service.settings import DEFAULT_MAIL_DOMAIN, DEFAULT_MAIL_OUTBOX
from service.store.application import MatchStore
from service.store.idempotency import IdempotencyKey, keyed_match
from service.usecases import archive
from service.usecases.players import Players


class Lobby:
    """Creates and imports matches, seats players, keeps their result addresses, starts."""

    mail_domain: str = DEFAULT_MAIL_DOMAIN  # of the seats' order addresses (docs/mail.md)
    outbox: Outbox = MaildirOutbox(DEFAULT_MAIL_OUTBOX)  # where confirmation mail goes

    def __init__(
        self, store: MatchStore, mail_domain: str | None = None, outbox: Outbox | None = None
    ) -> None:
        self.store = store
        if mail_domain is not None:
            self.mail_domain = mail_domain
        if outbox is not None:
            self.outbox = outbox

    @property
    def mail(self) -> SeatMail:
        """Returns the seats' mail: order addresses, result addresses, answers."""
        store = self.store
        return SeatMail(lambda: store.read_models, self.mail_domain, self.outbox, store.clock)

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
        rated: bool = False,  # issue 45: its result counts for ratings
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
            earlier = keyed_match(self.store.repository, idempotency_key)
            if earlier is not None:
                return NewMatch(earlier, None, created=False)
        token = secrets.token_urlsafe(32)
        match = Match.create(
            uuid4(),
            ruleset,
            expand_map(ruleset, config),  # a map named by the match becomes its content (SH-2)
            seed or secrets.token_hex(32),
            commitment(token),
            self.store.clock(),
            seats,
            deadline_seconds,
            preset,
            version,
            rated,  # issue 45
        )
        if idempotency_key is None:
            self.store.save(match)
            return NewMatch(match.id, token)
        key = IdempotencyKey.pointing_at(idempotency_key, match.id)
        try:
            self.store.save(key, match)  # one transaction: the loser of a race stores neither
        except IntegrityError:
            earlier = keyed_match(self.store.repository, idempotency_key)
            return NewMatch(earlier or match.id, None, created=False)
        return NewMatch(match.id, token)

    def join(
        self,
        match_id: UUID | str,
        name: str,
        result_address: str | None = None,
        player: str | None = None,
        player_key: str | None = None,
    ) -> NewSeat:
        """Seats a player named `name`; returns the seat number, its token and its order
        address (shown once). A `result_address` is registered for its answers and mailed a
        confirmation code (docs/mail.md). A seat may name its `player` (id or name),
        proven by `player_key` (issue 45: WrongPlayerKeyError, UnknownPlayerError)."""
        name, token = limits.player_name(name), secrets.token_urlsafe(32)
        address = None if result_address is None else self.mail.checked(result_address)
        # issue 45: the player identity the seat names, its key checked
        # (service/usecases/players.py)
        named = (
            None if player is None else Players(self.store, self).seat_player(player, player_key)
        )
        seat = self.store.retrying(
            match_id, lambda m: m.join(name, commitment(token), self.store.clock(), named)
        )
        match = self.store.match_id(match_id)
        new = NewSeat(match, seat, token, self.mail.issue(match, seat))
        if address is not None:
            self.mail.register(new.match_id, seat, address)
        return replace(new, result_address=address)

    def register_result_address(self, match_id: UUID | str, token: str | None, address: str) -> str:
        """Registers the address the answers to the token's seat go to (replacing any
        other) and mails it a confirmation code; returns the address as kept."""
        kept = self.mail.checked(address)
        seat = self.store.seat_of(match_id, token)
        self.mail.register(self.store.match_id(match_id), seat, kept)
        return kept

    def confirm_result_address(self, match_id: UUID | str, token: str | None, code: str) -> str:
        """Confirms the token's seat's result address with the mailed code; returns it.
        Raises UnknownConfirmationCodeError for a code that is not that seat's."""
        seat, match = self.store.seat_of(match_id, token), self.store.match_id(match_id)
        if addresses.code_hash_of(self.store.read_models, match, seat) != addresses.hashed(code):
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
        match = self.store.get_match(match_id)
        match.check_referee(self.store.tokens.referee_hash(match, referee_token))
        self.mail.register(match.id, REFEREE_SEAT, kept)
        return kept

    def confirm_referee_address(
        self, match_id: UUID | str, referee_token: str | None, code: str
    ) -> str:
        """Confirms the referee's result address with the mailed code; returns it. Raises
        UnknownConfirmationCodeError for a code that is not the referee's."""
        match = self.store.get_match(match_id)
        match.check_referee(self.store.tokens.referee_hash(match, referee_token))
        if addresses.code_hash_of(
            self.store.read_models, match.id, REFEREE_SEAT
        ) != addresses.hashed(code):
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
        self.store.retrying(
            match_id,
            lambda m: m.start(
                self.store.tokens.referee_hash(m, referee_token),
                self.store.clock(),
                state,
                movement,
                strikes,
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
        limits.check_reason(reason)
        token = secrets.token_urlsafe(32)
        self.store.retrying(
            match_id,
            lambda m: m.reissue_seat_token(
                self.store.tokens.referee_hash(m, referee_token),
                seat,
                commitment(token),
                self.store.clock(),
                reason,
            ),
        )
        match = self.store.match_id(match_id)
        return NewSeat(match, seat, token, self.mail.issue(match, seat))

    def import_archive(self, document: JSON) -> ImportedMatch:
        """Imports a match archive (docs/archive.md) after verifying it: its events are
        stored exactly as exported, and the match is read-only. A no-op when the store
        holds the same events already; raises InvalidArchiveError, TamperedArchiveError
        (naming the event) or MatchExistsError, writing nothing."""
        return archive.import_archive(self.store, document)
