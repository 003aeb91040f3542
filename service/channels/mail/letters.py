"""The answers drts mails: receipts, refusals, "already received", confirmations.

Each answer to a message is threaded (In-Reply-To, References) and marked
Auto-Submitted. No answer ever holds a seat's token or its order address.
"""

from __future__ import annotations

import json
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import Any

from domain.errors import DrtsError
from service.channels.mail.reading import Letter
from service.results import OrderReceipt


def letter(
    to: str,
    subject: str,
    body: str,
    domain: str,
    now: datetime,
    answering: Letter | None = None,
    message_id: str | None = None,
) -> EmailMessage:
    """Returns a message from drts, threaded under `answering` when given; its Message-ID
    is `message_id` if given (a notice's, the same each time it is sent), else a new one."""
    message = EmailMessage()
    message["From"] = f"drts <drts@{domain}>"
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = format_datetime(now)
    message["Message-ID"] = message_id or make_msgid("drts", domain=domain)
    message["Auto-Submitted"] = "auto-replied" if answering else "auto-generated"
    if answering is not None:
        message["In-Reply-To"] = answering.message_id
        message["References"] = " ".join((*answering.references, answering.message_id))
    message.set_content(body, cte="quoted-printable")
    return message


def reply_subject(original: Letter | None, fallback: str) -> str:
    """Returns "Re: <the original subject>" (or the fallback without one)."""
    subject = original.subject if original and original.subject else fallback
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def receipt_text(receipt: OrderReceipt, received_at: datetime) -> str:
    """Returns the receipt of a stored order: digest, movement, version, head, standing."""
    lines = [
        f"Your order for movement {receipt.movement} of match {receipt.match_id} "
        f"(seat {receipt.seat}) is stored.",
        "",
        f"Received at: {received_at.isoformat()}",
        f"Digest:      {receipt.digest}",
        f"Version:     {receipt.version}",
    ]
    if receipt.head is not None:
        lines.append(f"Head:        version {receipt.head.version}, chain {receipt.head.chain}")
    if receipt.refused:
        lines += ["", "Refused (the rest stands):"]
        lines += [f"  {part.part}: {part.reason}" for part in receipt.refused]
    standing = json.dumps(receipt.standing, ensure_ascii=False, sort_keys=True)
    lines += ["", "Your standing order for this movement now:", f"  {standing}"]
    if receipt.closing is not None and receipt.closing.resolved:
        lines += ["", f"Movement {receipt.movement} is resolved: every seat has ordered."]
    return "\n".join(lines) + "\n"


def logged_text(event: dict[str, Any]) -> str:
    """Returns the receipt of an order event (public form) found in the log."""
    data = event["data"]
    kind = "stored" if event["type"] == "OrderSubmitted" else f"refused ({data.get('error')})"
    return (
        f"Your order for movement {data['movement']} (seat {data['seat']}) was {kind}.\n\n"
        f"Received at: {data['received_at']}\n"
        f"Digest:      {data['digest']}\n"
        f"Version:     {event['version']}\n"
    )


def refusal_text(error: DrtsError, received_at: datetime) -> str:
    """Returns the answer to a refused order: the reason (with its code) and when received."""
    return (
        "Your order is refused; nothing of it counts.\n\n"
        f"Reason ({error.code}): {error}\n"
        f"Received at: {received_at.isoformat()}\n"
    )


def unreadable_text(reason: str, received_at: datetime) -> str:
    """Returns the answer to a message that could not be read at all (a dead letter)."""
    return (
        "Your message could not be read, so no order was taken from it.\n\n"
        f"Reason: {reason}\n"
        f"Received at: {received_at.isoformat()}\n"
        "Send the order as plain text (or HTML) in the body of the message.\n"
    )


def too_big_text(limit: int, received_at: datetime) -> str:
    """Returns the answer to a message over the size limit."""
    return (
        f"Your message was over drts's limit of {limit} bytes, so it was refused and no order "
        "was taken from it.\n\n"
        f"Received at: {received_at.isoformat()}\n"
        "Send the order as a short plain-text message, without attachments.\n"
    )


def already_text(message_id: str, first_received: datetime, first_answer: str) -> str:
    """Returns the answer to a message seen before: nothing new, and the first answer."""
    return (
        f"Already received: the message {message_id} came at {first_received.isoformat()}; "
        "nothing new is stored. The first answer was:\n\n" + first_answer
    )


def confirmation_text(match_id: object, seat: int, code: str) -> str:
    """Returns the confirmation request of a result address."""
    who = "the referee (every result and dispute notice)" if seat == 0 else f"seat {seat}"
    return (
        f"This address was given for the answers to {who} of match {match_id}.\n\n"
        "To confirm it, reply to this message (its sender address holds the code), or give\n"
        f"the code with the seat's token: {code}\n\n"
        "Until it is confirmed, drts sends nothing else here. If you did not ask for this,\n"
        "ignore it.\n"
    )
