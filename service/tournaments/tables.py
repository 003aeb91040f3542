"""A table's match, created, seated and started exactly once (issue 45).

The match is created through `Matches.create_match` with an idempotency key derived
from the tournament, round, table and attempt, so a retry after a crash finds the match
a first try created instead of making a second. Seating and starting then complete on
the match itself, in one save: each seat not yet joined joins naming its player (the
tournament registered the player by its key, so the service vouches for it here, as
the operator does), and the match starts under its own referee hash. A retry finds the
seats and the start already there and does nothing more.

Seat tokens are not kept: a player gets one by its key (`Tournaments.seat_token`). A
player with a confirmed e-mail address is also mailed its seat's token and an order
address (service/channels/mail/seatletters.py): the letter, with that token, is recorded
in the outbox before the seat joins, and a retry joins with the token recorded, so a
crash or a race anywhere between the pairing and the sending mails one letter whose
token works, never two and never none. A District War rematch comes seated by its drawn
match (DW-5): its letters are recorded, and its seats' tokens reissued to theirs, before
the tournament links it (`letter_seated`)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from domain.integrity import commitment
from domain.tournament import Tournament
from service.channels.mail import seatletters
from service.errors import ConcurrentWriteError

MAX_ATTEMPTS = 8


def match_key(tournament_id: UUID, number: int, table: int, attempt: int) -> str:
    """Returns the idempotency key of a table's match."""
    return f"tournament:{tournament_id}:round:{number}:table:{table}:attempt:{attempt}"


def table_match(
    matches: Any,
    tournament: Tournament,
    number: int,
    table: int,
    attempt: int,
    players: Sequence[str],
    names: Sequence[str],
) -> UUID:
    """Returns the id of the table's match for this attempt, created, seated with
    `players` (ids, in seat order, named `names`) and started."""
    new = matches.create_match(
        tournament.ruleset,
        tournament.config,
        seats=len(players),
        idempotency_key=match_key(tournament.id, number, table, attempt),
        version=tournament.ruleset_version,
        rated=tournament.rated,
    )
    where = (str(tournament.id), number, table)
    for _ in range(MAX_ATTEMPTS):
        match = matches.get_match(new.match_id)
        for seat, (player, name) in enumerate(zip(players, names, strict=True), 1):
            if seat > len(match.seats):
                token = seat_token(matches, match.id, seat, player, where)
                match.join(name, commitment(token), matches.clock(), player)
        if not match.started:
            match.start(match.referee_token_hash, matches.clock())
        if not match.pending_events:
            break
        try:
            matches.store.save(match)
        except IntegrityError:  # another step seated or started it meanwhile: look again
            continue
        break
    else:
        raise ConcurrentWriteError(f"match {new.match_id} kept changing")
    return UUID(str(new.match_id))


def letter_seated(
    matches: Any, tournament: Tournament, number: int, table: int, match_id: Any
) -> None:
    """Gives each seat of an already seated match (a District War rematch, seated by its
    drawn match with the same tokens: DW-5) whose player has a confirmed address its
    letter: the letter's token is recorded first (seatletters.reserve), then the seat's
    token is reissued to it unless the seat holds it already, so a retry (the step runs
    again until the rematch is linked) finds both done and mails one letter."""
    where = (str(tournament.id), number, table)
    for _ in range(MAX_ATTEMPTS):
        match = matches.get_match(match_id)
        for holder in match.seats:
            address = None
            if holder.player_id is not None:
                address = matches.players.get(holder.player_id).confirmed_address
            if address is None:
                continue
            token = seatletters.reserve(
                matches.read_models, match.id, holder.number, address, where, matches.clock()
            )
            if holder.token_hash != commitment(token):
                match.reissue_seat_token(
                    match.referee_token_hash,
                    holder.number,
                    commitment(token),
                    matches.clock(),
                    "the tournament mailed the seat its letter",
                )
        if not match.pending_events:
            return
        try:
            matches.store.save(match)
        except IntegrityError:
            continue
        return
    raise ConcurrentWriteError(f"match {match_id} kept changing")


def seat_token(
    matches: Any, match_id: UUID, seat: int, player: str, where: tuple[str, int, int]
) -> str:
    """Returns the token a seat joins with: for a player with a confirmed address, the one
    its seat letter keeps (recorded now, or by an earlier try: seatletters.reserve), else
    a fresh one no one is told (the player asks for one with its key)."""
    address = matches.players.get(player).confirmed_address
    if address is None:
        return secrets.token_urlsafe(32)
    return seatletters.reserve(matches.read_models, match_id, seat, address, where, matches.clock())
