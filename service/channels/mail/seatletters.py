"""A tournament seat's letter: its token and order address mailed to its player (issue 45).

When a tournament round's match seats a player with a confirmed e-mail address
(service/tournaments/tables.py), `reserve` is called before the seat joins. It records
one row of the outbox `mail_notices` (kind `seat`, keyed by match and seat) holding, in
its `secret` column, the seat token and the order address's secret drawn now; the row is
written with ON CONFLICT DO NOTHING and read back, so a retried pairing (a crash before
the join was saved, or two workers at once) joins with the token the first try recorded,
and the letter is recorded once. The same call registers the seat's order address from
that secret and the player's address as the seat's result address, already confirmed
(the player confirmed it): both idempotent.

The sender (service/channels/mail/notices.py) composes the letter from the row and the
stored events: the match, the seat, the token, the order address and the first deadline.
It waits (SeatNotReadyError, tried again later) while the seat has not joined with that
token (or, a rematch's seat, not been given it yet), and gives up (StaleLetterError,
failed for good) when the seat's token was reissued after it held the letter's: the
player then already holds a newer one. The secret is cleared
once the relay took the letter. No event ever holds the token or the address.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import datetime
from email.message import EmailMessage
from typing import Any

from domain.integrity import commitment
from domain.match import Match
from service.channels.mail import addresses, letters
from service.readmodels.mailout import notice_prefix
from service.readmodels.runner import ReadModels

SEAT = "seat"
VIEW = "mail_outbox"


class SeatNotReadyError(Exception):
    """Raised (recorded, tried again later) when a seat letter's seat has not joined yet."""


class StaleLetterError(Exception):
    """Raised (recorded, failed for good) when a seat letter cannot be sent any more."""


@dataclass(frozen=True)
class SeatSecret:
    """What a seat letter mails that no event holds, with where the seat plays."""

    token: str
    order_secret: str
    tournament_id: str
    round: int
    table: int

    def dumps(self) -> str:
        """Returns the JSON the outbox row keeps."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def loads(cls, text: str) -> SeatSecret:
        """Returns the secret an outbox row keeps."""
        return cls(**json.loads(text))


def notice_id(match_id: Any, seat: int) -> str:
    """Returns the id of the seat's letter in the outbox."""
    return f"{notice_prefix(SEAT, match_id, 0)}{seat}"


def reserve(
    models: ReadModels,
    match_id: Any,
    seat: int,
    address: str,
    where: tuple[str, int, int],
    now: datetime,
) -> str:
    """Records the seat's letter to `address` (its token and order secret drawn now unless
    an earlier try recorded them), registers the seat's order address and `address` as
    its confirmed result address; returns the token the seat joins with. `where` is the
    tournament id, round and table."""
    drawn = SeatSecret(secrets.token_urlsafe(32), addresses.new_secret(), *where)
    view = models.view(VIEW)
    view.execute(
        "INSERT INTO {mail_notices} (notice_id, kind, match_id, movement, version, seat, "
        "address, recorded_at, attempts, secret) VALUES (:id, :kind, :match_id, :round, 0, "
        ":seat, :address, :now, 0, :secret) ON CONFLICT (notice_id) DO NOTHING",
        {
            "id": notice_id(match_id, seat),
            "kind": SEAT,
            "match_id": match_id,
            "round": where[1],
            "seat": seat,
            "address": address,
            "now": now,
            "secret": drawn.dumps(),
        },
    )
    kept = _kept(models, match_id, seat)
    if kept is None:  # mailed already, so seated long ago: nothing to mail again
        return drawn.token
    _register(models, match_id, seat, address, kept, now)
    return kept.token


def compose(match: Match, events: Iterable[Any], row: dict[str, Any], domain: str) -> EmailMessage:
    """Returns the seat letter of an outbox row, the same every time it is composed;
    raises SeatNotReadyError or StaleLetterError (module docstring)."""
    if row["secret"] is None:
        raise StaleLetterError("the letter's secret is gone (sent or refused before)")
    kept, seat = SeatSecret.loads(row["secret"]), int(row["seat"])
    joined = next((s for s in match.seats if s.number == seat), None)
    if joined is None or not match.started:
        raise SeatNotReadyError(f"seat {seat} of match {match.id} is not seated and started yet")
    events = list(events)
    if joined.token_hash != commitment(kept.token):
        if not _ever_held(events, seat, commitment(kept.token)):
            # a rematch's seat, seated with its drawn match's token, whose reissue to the
            # letter's token is not saved yet (service/tournaments/tables.py letter_seated)
            raise SeatNotReadyError(f"seat {seat} of match {match.id} awaits its letter's token")
        raise StaleLetterError(f"the token of seat {seat} was reissued before the letter went")
    deadline = _first_deadline(events)
    subject = f"drts: your seat {seat} in match {match.id} (tournament round {kept.round})"
    message_id = f"<seat-{seat}.{match.id.hex}@{domain}>"  # short: unfolded
    body = _text(match, seat, kept, deadline, domain)
    return letters.letter(
        row["address"], subject, body, domain, row["recorded_at"], message_id=message_id
    )


# -- private --------------------------------------------------------------------------------


def _kept(models: ReadModels, match_id: Any, seat: int) -> SeatSecret | None:
    """Returns the secret the seat's letter keeps (None once sent)."""
    rows = models.view(VIEW).query(
        "SELECT secret FROM {mail_notices} WHERE notice_id = :id",
        {"id": notice_id(match_id, seat)},
    )
    if not rows or rows[0]["secret"] is None:
        return None
    return SeatSecret.loads(rows[0]["secret"])


def _register(
    models: ReadModels, match_id: Any, seat: int, address: str, kept: SeatSecret, now: datetime
) -> None:
    """Registers the seat's order address (from the kept secret) and its result address,
    confirmed; both idempotent."""
    view = models.view(VIEW)
    view.execute(
        "INSERT INTO {mail_order_addresses} (address_hash, match_id, seat, issued_at) "
        "VALUES (:address_hash, :match_id, :seat, :now) ON CONFLICT DO NOTHING",
        {
            "address_hash": addresses.hashed(kept.order_secret),
            "match_id": match_id,
            "seat": seat,
            "now": now,
        },
    )
    view.execute(
        "INSERT INTO {mail_result_addresses} (match_id, seat, address, code_hash, "
        "registered_at, confirmed_at) VALUES (:match_id, :seat, :address, :code_hash, :now, "
        ":now) ON CONFLICT DO NOTHING",
        {
            "match_id": match_id,
            "seat": seat,
            "address": address,
            "code_hash": addresses.hashed(addresses.new_secret()),  # no code will come back
            "now": now,
        },
    )


def _ever_held(events: list[Any], seat: int, token_hash: str) -> bool:
    """Returns whether the seat ever held `token_hash` (joined with it, or got it)."""
    kinds = (Match.SeatJoined, Match.SeatAdded, Match.SeatTokenReissued)
    return any(
        isinstance(event, kinds) and event.seat == seat and event.token_hash == token_hash
        for event in events
    )


def _first_deadline(events: Iterable[Any]) -> tuple[int, datetime] | None:
    """Returns the movement and deadline of the match's first DeadlineSet, or None."""
    for event in events:
        if isinstance(event, Match.DeadlineSet):
            return event.movement, event.deadline
    return None


def _text(
    match: Match,
    seat: int,
    kept: SeatSecret,
    deadline: tuple[int, datetime] | None,
    domain: str,
) -> str:
    when = (
        "none yet (the movement opens when an order arms it)"
        if deadline is None
        else f"{deadline[1].isoformat()} (movement {deadline[0]})"
    )
    lines = [
        f"You play seat {seat} of match {match.id} ({match.ruleset} v{match.ruleset_version}),",
        f"table {kept.table} of round {kept.round} of tournament {kept.tournament_id}.",
        "",
        f"Seat token:     {kept.token}",
        f"Order address:  {addresses.ORDERS}+{kept.order_secret}@{domain}",
        f"First deadline: {when}",
        "",
        "Send your orders by mail to the order address (a message is that seat's order for",
        "the open movement), or with the seat token: the API (POST /matches/<id>/orders,",
        "Authorization: Bearer <token>) or the seat's page. The results of every movement",
        "come to this address.",
        "",
        "Keep both secret: whoever knows either plays for the seat. Your player key gets the",
        "seat a new token from the tournament if this one is lost; the old one then stops.",
    ]
    return "\n".join(lines) + "\n"
