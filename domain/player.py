"""The Player aggregate: a player identity that seats name and ratings count (issue 45).

A player has a name, unique without regard to case: its id is `player_id(name)`, a
UUID5 of the case-folded name, so a second player of the same name would be a second
`Created` at version 1 of the same aggregate, which the event store refuses. Its
secret key is known only by its hash (like a seat token: service/store/tokens.py), given
once at creation and replaced when the operator reissues it. An e-mail address may
be set, with the hash of a confirmation code, and is confirmed when the code comes
back.

As in the Match (domain/match/__init__.py), the events are nested classes with
`apply`, each stamped by the service's clock and chained: `chain = SHA-256(previous
chain || canonical JSON of the body)`, starting from the player id. Nothing here
reads a clock or draws randomness: keys, codes and times come from the service.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Any, Self
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.errors import WrongConfirmationCodeError, WrongPlayerKeyError
from domain.integrity import chain_link, genesis, normalized

# The namespace of player ids: uuid5(NAMESPACE_URL, "drts:player"), fixed for good
# (every stored player's id is derived under it).
PLAYER_NAMESPACE = UUID("1b0985c3-e22e-54fc-a787-011e3d6ec150")


def folded_name(name: str) -> str:
    """Returns the form of a name that uniqueness compares: NFKC, then case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def player_id(name: str) -> UUID:
    """Returns the id of the player named `name` (any case): UUID5 of the folded name."""
    return uuid5(PLAYER_NAMESPACE, folded_name(name))


class Player(Aggregate):
    """A player identity: name, the hash of its key, and an optional confirmed address."""

    class Created(Aggregate.Created):
        name: str
        key_hash: str
        chain: str

    @event(Created)
    def __init__(self, name: str, key_hash: str, chain: str) -> None:
        self.name, self.key_hash, self.chain = name, key_hash, chain
        self.address: str | None = None
        self.code_hash: str | None = None  # of the pending confirmation; None once confirmed
        self.confirmed = False

    class KeyReissued(Aggregate.Event):
        key_hash: str
        chain: str
        reason: str | None = None  # why the operator reissued it; None: none given

        def apply(self, player: Player) -> None:
            player.key_hash, player.chain = self.key_hash, self.chain

    class AddressSet(Aggregate.Event):
        address: str
        code_hash: (
            str  # SHA-256 of the confirmation code (service/channels/mail/addresses.py's form)
        )
        chain: str

        def apply(self, player: Player) -> None:
            player.address, player.code_hash, player.confirmed = self.address, self.code_hash, False
            player.chain = self.chain

    class AddressConfirmed(Aggregate.Event):
        address: str
        chain: str

        def apply(self, player: Player) -> None:
            player.code_hash, player.confirmed, player.chain = None, True, self.chain

    @classmethod
    def create(cls, name: str, key_hash: str, at: datetime) -> Self:
        """Returns a new player (Created pending) with the id its name gives."""
        ident = player_id(name)
        data: dict[str, Any] = {"name": name, "key_hash": key_hash}
        chain = chain_link(genesis(ident), "Created", 1, at, data)
        return cls._create(cls.Created, id=ident, timestamp=at, chain=chain, **data)

    def check_key(self, key_hash: str) -> None:
        """Raises WrongPlayerKeyError unless `key_hash` is the hash of the current key."""
        if key_hash != self.key_hash:
            raise WrongPlayerKeyError(f"this key is not the key of player {self.name!r}")

    def reissue_key(self, key_hash: str, at: datetime, reason: str | None = None) -> None:
        """Gives the player a new key (the operator's act); the old key stops working."""
        self._record(self.KeyReissued, at, key_hash=key_hash, reason=reason)

    def set_address(self, address: str, code_hash: str, at: datetime) -> None:
        """Sets the player's e-mail address, unconfirmed until the code comes back."""
        self._record(self.AddressSet, at, address=address, code_hash=code_hash)

    def confirm_address(self, code_hash: str, at: datetime) -> str:
        """Confirms the pending address with the hash of its code; returns the address.

        Raises WrongConfirmationCodeError when no address waits for this code."""
        if self.address is None or self.code_hash is None or code_hash != self.code_hash:
            raise WrongConfirmationCodeError(
                f"player {self.name!r} has no address waiting for this confirmation code"
            )
        self._record(self.AddressConfirmed, at, address=self.address)
        return self.address

    @property
    def confirmed_address(self) -> str | None:
        """Returns the address once confirmed, else None."""
        return self.address if self.confirmed else None

    def _record(self, event_class: type[Aggregate.Event], at: datetime, **data: Any) -> None:
        """Triggers an event stamped `at`, with its chain link computed over its body
        (every field passed, defaults too: the chain covers what is stored)."""
        data = {key: normalized(value) for key, value in data.items()}
        chain = chain_link(self.chain, event_class.__name__, self.version + 1, at, data)
        self.trigger_event(event_class, timestamp=at, chain=chain, **data)
