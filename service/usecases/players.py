"""Players: the use cases of player identities (issue 45), on the store of matches.

A player is an aggregate of its own (domain/player.py) saved in the same event store
as matches, through the store's `save` and loaded through its repository. Names are
unique without regard to case because a player's id is derived from its folded name
(`domain.player.player_id`): creating a second player of a taken name writes a second
version 1 of the same aggregate, which the store refuses (IntegrityError), and that
is PlayerNameTakenError, even between two processes racing.

The key is made here, shown once, and stored only as its SHA-256 (as seat tokens are:
service/store/tokens.py); the operator may reissue it, and the old one stops at once. An
e-mail address is checked as seats' result addresses are (service/channels/mail/addresses.py),
mailed a confirmation code through the store's outbox, and confirmed by that code.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.application import Repository
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import get_topic

from domain.integrity import commitment
from domain.player import Player, player_id
from domain.rules.registry import get_ruleset
from service import limits
from service.channels.mail import addresses, letters
from service.channels.mail.outbox import Outbox
from service.errors import (
    MissingTokenError,
    PlayerNameTakenError,
    PlayerNotFoundError,
    UnknownPlayerError,
)
from service.queries.ratings import MODEL, MatchRatings, PlayerRating, RatingStore, RatingTable
from service.store.tokens import Tokens

logger = logging.getLogger(__name__)
CREATED_TOPIC = get_topic(Player.Created)


@dataclass(frozen=True)
class NewPlayer:
    """A player just created: its id, name and key (the key is shown this once)."""

    player_id: UUID
    name: str
    key: str


@dataclass(frozen=True)
class PlayerView:
    """What anyone may see of a player: its id and name (never its key nor its address)."""

    player_id: UUID
    name: str


@dataclass(frozen=True)
class PlayerRatings:
    """A player's ratings: one per ruleset version it played rated, with its history."""

    player_id: UUID
    name: str
    ratings: tuple[tuple[RatingTable, PlayerRating], ...]


@dataclass(frozen=True)
class NamedRatings:
    """A ruleset version's rating table with each player's name."""

    table: RatingTable
    names: dict[str, str]
    model: str = MODEL


class PlayerStore(RatingStore, Protocol):
    """What Players needs of the store: service/store/application.py's MatchStore has it all."""

    @property
    def clock(self) -> Callable[[], datetime]: ...
    @property
    def repository(self) -> Repository[UUID]: ...
    @property
    def tokens(self) -> Tokens: ...
    @property
    def recorder(self) -> Any: ...
    def save(self, *objs: Any, **kwargs: Any) -> object: ...


class PlayerMail(Protocol):
    """Where a player's confirmation code is mailed from: the lobby's mail settings."""

    @property
    def mail_domain(self) -> str: ...
    @property
    def outbox(self) -> Outbox: ...


class Players:
    """Creates, shows, reissues and authenticates players."""

    def __init__(self, store: PlayerStore, mail: PlayerMail) -> None:
        self.store, self.mail = store, mail
        self.rating_tables = MatchRatings(store)  # keeps its folded tables between reads

    def create(self, name: str) -> NewPlayer:
        """Creates a player named `name` and returns it with its key (shown once).

        Raises LimitError for a bad name, PlayerNameTakenError for a taken one (any case).
        """
        name, key = limits.player_name(name), secrets.token_urlsafe(32)
        player = Player.create(name, commitment(key), self.store.clock())
        try:
            self.store.save(player)
        except IntegrityError:
            held = self.get(player.id).name
            raise PlayerNameTakenError(
                f"the player name {name!r} is taken (by player {held!r})"
            ) from None
        return NewPlayer(player.id, name, key)

    def get(self, player: UUID | str) -> Player:
        """Returns the player with this id or name; raises PlayerNotFoundError."""
        for ident in _candidate_ids(player):
            if not self._is_player(ident):  # a match's id is not folded as a player
                continue
            found: object = self.store.repository.get(ident)
            if isinstance(found, Player):
                return found
        raise PlayerNotFoundError(f"no player with id or name {str(player)!r}")

    def show(self, player: UUID | str) -> PlayerView:
        """Returns the player's public view."""
        found = self.get(player)
        return PlayerView(found.id, found.name)

    def reissue(
        self, operator_token: str | None, player: UUID | str, reason: str | None = None
    ) -> str:
        """Gives the player a new key (operator token only) and returns it; the old stops."""
        self.store.tokens.check_operator(operator_token)
        found, key = self.get(player), secrets.token_urlsafe(32)
        if reason is not None:
            limits.check_text(reason, "reason", limits.MAX_REASON_CHARS)
        found.reissue_key(commitment(key), self.store.clock(), reason)
        self.store.save(found)
        return key

    def authenticate(self, player: UUID | str, key: str | None) -> Player:
        """Returns the player if `key` is its current key; raises WrongPlayerKeyError
        (MissingTokenError without a key, PlayerNotFoundError for no such player)."""
        found = self.get(player)
        if key is None:
            raise MissingTokenError(f"naming player {found.name!r} needs its key (player_key)")
        found.check_key(commitment(key))
        return found

    def seat_player(self, player: str, key: str | None) -> str:
        """Returns the id of the player a joining seat names, its key checked; raises
        UnknownPlayerError (422: the seat's field names no player), WrongPlayerKeyError,
        MissingTokenError."""
        try:
            return str(self.authenticate(player, key).id)
        except PlayerNotFoundError as error:
            raise UnknownPlayerError(f"the seat names no player: {error}") from None

    def set_address(self, player: UUID | str, key: str | None, address: str) -> str:
        """Sets the player's e-mail address (its key proves it) and mails it a
        confirmation code; returns the address as kept."""
        found = self.authenticate(player, key)
        kept = addresses.checked_address(address, self.mail.mail_domain)
        code = addresses.new_secret()
        found.set_address(kept, addresses.hashed(code), now := self.store.clock())
        self.store.save(found)
        text = f"Your confirmation code for player {found.name!r} on drts is {code}.\n"
        message = letters.letter(
            kept,
            f"drts: confirm this address for player {found.name}",
            text,
            self.mail.mail_domain,
            now,
        )
        try:
            self.mail.outbox.send(message)
        except Exception:  # the address is stored: a lost mail is logged, as seats' are
            logger.error("mail to %s could not be handed on", kept, exc_info=True)
        return kept

    def confirm_address(self, player: UUID | str, key: str | None, code: str) -> str:
        """Confirms the player's address with the mailed code; returns the address.
        Raises WrongConfirmationCodeError for a code that is not the pending one."""
        found = self.authenticate(player, key)
        address = found.confirm_address(addresses.hashed(code.strip()), self.store.clock())
        self.store.save(found)
        return address

    def ratings_of(self, player: UUID | str) -> PlayerRatings:
        """Returns the player's ratings per ruleset version, from the rated matches."""
        found = self.get(player)
        rated = self.rating_tables.of_player(str(found.id))
        return PlayerRatings(found.id, found.name, tuple(rated))

    def ratings(self, ruleset: str, version: int | None = None) -> NamedRatings:
        """Returns the rating table of a ruleset's version (the latest installed for None),
        from the rated matches; raises UnknownRulesetError (UnknownRulesetVersionError)."""
        info = get_ruleset(ruleset, version).info
        table = self.rating_tables.table(info.name, info.version)
        return NamedRatings(table, {p.player_id: self._name(p.player_id) for p in table.players})

    def _is_player(self, ident: UUID) -> bool:
        """Returns whether the aggregate `ident` exists and is a player (its first event)."""
        first = self.store.recorder.select_events(ident, lte=1, limit=1)
        return bool(first) and first[0].topic == CREATED_TOPIC

    def _name(self, ident: str) -> str:
        try:
            return self.get(UUID(ident)).name
        except PlayerNotFoundError:  # a seat names only players that exist; kept in case
            return ident


def _candidate_ids(player: UUID | str) -> list[UUID]:
    """Returns the ids a reference may mean: itself as an id, then the id of it as a name."""
    if isinstance(player, UUID):
        return [player]
    ids = []
    with contextlib.suppress(ValueError):
        ids.append(UUID(player))
    if player.strip():
        ids.append(player_id(player.strip()))
    return ids
