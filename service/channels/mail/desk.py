"""The mail desk: one received message stored, then answered (docs/mail.md).

A message to a seat's secret order address is that seat's order, for the open movement
(or the movement its subject names). It is stored before the SMTP server says 250: the
order (source "mail", its Message-ID, received when the server accepted the message)
or its refusal as the Match records them, and the message with its first answer
(`mail_messages`). A message that seat sent before (same Message-ID) stores nothing new
and is answered "already received" with the first answer. A message that cannot be read
at all is kept as a dead letter. Answers go to the seat's confirmed result address only.
`From:` plays no part: only the order address says whose order it is.

One desk (one `drts mail serve`) per store: it takes messages one at a time, so two
copies of a message that arrive together are not both taken. Should two desks run by
mistake, the match still stores one order of a message the seat has pending: the other
copy is answered "already received" (DuplicateMessageError).
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

from domain.errors import DrtsError, DuplicateMessageError
from service.channels.mail import addresses, letters
from service.channels.mail.reading import (
    Letter,
    UnreadableMailError,
    header,
    message_id_of,
    parse,
    read,
    unstorable,
)
from service.channels.mail.seatmail import SeatMail
from service.errors import ConcurrentWriteError
from service.queries.eventfilter import EVERY_EVENT, EventFilter
from service.readmodels.recorders import OUTAGES
from service.readmodels.runner import ReadModels
from service.results import Document, OrderReceipt

logger = logging.getLogger(__name__)
VIEW = addresses.VIEW
TRANSIENT: tuple[type[Exception], ...] = (*OUTAGES, ConcurrentWriteError)


class MailIntake(Protocol):
    """What the mail desk asks of the Matches facade: the seats' mail, the read models,
    a seat's order by mail and the event log (passed in, so that the channels never import
    the facade: issue 44)."""

    @property
    def mail(self) -> SeatMail: ...
    @property
    def read_models(self) -> ReadModels: ...

    def submit_mail_order(
        self,
        match_id: UUID,
        seat: int,
        order: str,
        message_id: str,
        received_at: datetime,
        movement: int | None = None,
    ) -> OrderReceipt: ...

    def event_log(
        self,
        match_id: UUID | str,
        token: str | None = None,
        after: int = 0,
        kept: EventFilter = EVERY_EVENT,
    ) -> list[Document]: ...


@dataclass(frozen=True)
class Answer:
    """What the desk did with a message for one recipient: the outcome ("accepted",
    "refused", "already", "dead_letter", "confirmed", "unknown", "rejected": refused for
    good at SMTP, nothing stored), the SMTP reply's text,
    and whether an answer was mailed (not without a confirmed result address)."""

    outcome: str
    smtp: str
    sent: bool = False


class MailDesk:
    """Takes received messages for the seats' order addresses and confirmation replies."""

    def __init__(self, matches: MailIntake, max_bytes: int) -> None:
        self.matches, self.mail, self.max_bytes = matches, matches.mail, max_bytes

    @property
    def domain(self) -> str:
        """Returns the domain of the addresses this desk answers for."""
        return self.mail.domain

    def knows(self, address: str) -> bool:
        """Returns whether a recipient is a seat's order address or a pending confirmation."""
        if addresses.seat_of(self.models, address, self.domain) is not None:
            return True
        code = addresses.secret_of(address, addresses.CONFIRM, self.domain)
        return code is not None and addresses.is_pending_code(self.models, code)

    def receive(self, recipient: str, mail_from: str, raw: bytes, at: datetime) -> Answer:
        """Stores and answers one message for one recipient; raises what OUTAGES name and
        ConcurrentWriteError (the server then says 451: try again later)."""
        code = addresses.secret_of(recipient, addresses.CONFIRM, self.domain)
        if code is not None:
            return self._confirm(code)
        seat = addresses.seat_of(self.models, recipient, self.domain)
        if seat is None:
            return Answer("unknown", "550 5.1.1 unknown order address (reissued?)")
        problem = unstorable(parse(raw), raw, mail_from)
        if problem is not None:  # nothing stored: a retry would hold the same headers
            return Answer("rejected", f"550 5.6.0 {problem}; nothing was stored")
        try:
            letter = read(raw)
        except UnreadableMailError as error:
            return self._dead_letter(seat, recipient, mail_from, raw, str(error), at)
        first = self._first(seat, letter.message_id)
        if first is not None:
            return self._already(seat, letter, first)
        return self._take(seat, letter, at)

    def too_big(self, recipients: list[str], at: datetime) -> None:
        """Answers the seats whose order address got a message over the size limit."""
        for recipient in recipients:
            seat = addresses.seat_of(self.models, recipient, self.domain)
            if seat is not None:
                body = letters.too_big_text(self.max_bytes, at)
                self.mail.answer(*seat, "drts: your message was too big", body, None)

    # -- private ----------------------------------------------------------------------------

    @property
    def models(self) -> Any:
        return self.matches.read_models

    def _take(self, seat: tuple[UUID, int], letter: Letter, at: datetime) -> Answer:
        """Submits the order and records the message with its answer."""
        try:
            receipt = self.matches.submit_mail_order(
                seat[0], seat[1], letter.text, letter.message_id, at, letter.movement
            )
        except TRANSIENT:  # nothing stored: the relay tries again (451)
            raise
        except DuplicateMessageError:  # another copy of this message stored its order just now
            first = self._first_in_log(seat, letter.message_id)
            if first is None:  # not visible yet: nothing stored for this copy (451)
                raise ConcurrentWriteError(
                    f"message {letter.message_id!r} is being taken"
                ) from None
            return self._already(seat, letter, first)
        except DrtsError as error:
            body, outcome = letters.refusal_text(error, at), "refused"
            smtp = f"250 2.0.0 stored: order refused ({error.code})"
        else:
            body, outcome = letters.receipt_text(receipt, at), "accepted"
            smtp = f"250 2.0.0 stored: order digest {receipt.digest}"
        self._record(seat, letter.message_id, at, outcome, body)
        sent = self.mail.answer(*seat, letters.reply_subject(letter, "your order"), body, letter)
        return Answer(outcome, smtp, sent is not None)

    def _already(self, seat: tuple[UUID, int], letter: Letter, first: dict[str, Any]) -> Answer:
        answer = json.loads(first["answer"])["body"]
        body = letters.already_text(letter.message_id, first["received_at"], answer)
        sent = self.mail.answer(*seat, letters.reply_subject(letter, "your order"), body, letter)
        return Answer("already", "250 2.0.0 already received: nothing new stored", sent is not None)

    def _dead_letter(
        self,
        seat: tuple[UUID, int],
        recipient: str,
        mail_from: str,
        raw: bytes,
        reason: str,
        at: datetime,
    ) -> Answer:
        message = parse(raw)
        self.models.view(VIEW).execute(
            "INSERT INTO {mail_dead_letters} (received_at, mail_from, rcpt_to, message_id, "
            "reason, size, content) VALUES (:received_at, :mail_from, :rcpt_to, :message_id, "
            ":reason, :size, :content)",
            {
                "received_at": at,
                "mail_from": mail_from[:1000],
                "rcpt_to": _hidden(recipient),
                "message_id": message_id_of(message, raw)[:1000],
                "reason": reason[:1000],
                "size": len(raw),
                "content": raw,
            },
        )
        subject = header(message, "Subject") or "your message"
        original = Letter(message_id_of(message, raw), subject, (), None, "")
        body = letters.unreadable_text(reason, at)
        sent = self.mail.answer(*seat, letters.reply_subject(original, subject), body, original)
        return Answer("dead_letter", "250 2.0.0 kept as a dead letter: " + reason, sent is not None)

    def _confirm(self, code: str) -> Answer:
        try:
            self.mail.confirm(code)
        except DrtsError:
            return Answer("unknown", "550 5.1.1 unknown confirmation address")
        return Answer("confirmed", "250 2.0.0 result address confirmed")

    def _first(self, seat: tuple[UUID, int], message_id: str) -> dict[str, Any] | None:
        """Returns the first receipt of a message the seat sent before (received_at and
        answer), or None."""
        rows = self.models.view(VIEW).query(
            "SELECT received_at, answer FROM {mail_messages} WHERE message_key = :key",
            {"key": _key(seat, message_id)},
        )
        return rows[0] if rows else self._first_in_log(seat, message_id)

    def _first_in_log(self, seat: tuple[UUID, int], message_id: str) -> dict[str, Any] | None:
        """Finds the message among the match's order events, the record: one stored just
        before a crash, whose row was never written (the relay then sends it again)."""
        for event in self.matches.event_log(seat[0]):
            data = event["data"]
            if (
                event["type"] in ("OrderSubmitted", "OrderRejected")
                and data.get("message_id") == message_id
                and data.get("seat") == seat[1]
            ):
                body, at = letters.logged_text(event), datetime.fromisoformat(data["received_at"])
                outcome = "accepted" if event["type"] == "OrderSubmitted" else "refused"
                self._record(seat, message_id, at, outcome, body)
                return {"received_at": at, "answer": json.dumps({"body": body})}
        return None

    def _record(
        self, seat: tuple[UUID, int], message_id: str, at: datetime, outcome: str, body: str
    ) -> None:
        self.models.view(VIEW).execute(
            "INSERT INTO {mail_messages} (message_key, message_id, match_id, seat, received_at, "
            "outcome, answer) VALUES (:key, :message_id, :match_id, :seat, :received_at, "
            ":outcome, :answer) ON CONFLICT (message_key) DO NOTHING",
            {
                "key": _key(seat, message_id),
                "message_id": message_id[:1000],
                "match_id": seat[0],
                "seat": seat[1],
                "received_at": at,
                "outcome": outcome,
                "answer": json.dumps({"body": body}),
            },
        )


def dead_letters(matches: MailIntake) -> list[dict[str, Any]]:
    """Returns the dead letters, oldest first (without their content)."""
    return matches.read_models.view(VIEW).query(
        "SELECT letter_id, received_at, mail_from, rcpt_to, message_id, reason, size "
        "FROM {mail_dead_letters} ORDER BY letter_id"
    )


def _key(seat: tuple[UUID, int], message_id: str) -> str:
    return hashlib.sha256(f"{seat[0]}:{seat[1]}:{message_id}".encode()).hexdigest()


def _hidden(recipient: str) -> str:
    """Returns an order address with its secret hidden (the table is an operator's)."""
    local, _, domain = recipient.partition("@")
    return f"{local.split('+')[0]}+...@{domain}"
