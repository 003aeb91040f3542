"""A table's match, created, seated and started exactly once (issue 45).

The match is created through `Matches.create_match` with an idempotency key derived
from the tournament, round, table and attempt, so a retry after a crash finds the match
a first try created instead of making a second. Seating and starting then complete on
the match itself, in one save: each seat not yet joined joins naming its player (the
tournament registered the player by its key, so the service vouches for it here, as
the operator does), and the match starts under its own referee hash. A retry finds the
seats and the start already there and does nothing more.

Seat tokens are not kept: a player gets one by its key (`Tournaments.seat_token`)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from domain.integrity import commitment
from domain.tournament import Tournament
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
    for _ in range(MAX_ATTEMPTS):
        match = matches.get_match(new.match_id)
        for player, name in list(zip(players, names, strict=True))[len(match.seats) :]:
            match.join(name, commitment(secrets.token_urlsafe(32)), matches.clock(), player)
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
