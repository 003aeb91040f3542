"""Reading a received message as the text of an order.

The body is the text/plain part (else the text/html part, converted to text with
inscriptis; <blockquote> quotes dropped), in its declared charset. Attachments are
ignored. Lines quoted with `>` (and the "On ... wrote:" line leading them) and
everything after a signature line (`-- `) are dropped, each line is stripped, and
blank lines go: the rest, in order, is the order's text (games whose orders span
lines take them one a line). A subject naming "movement N" aims the order at that
movement; otherwise it is for the open one.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import re
from dataclasses import dataclass
from email.message import EmailMessage

from inscriptis import Inscriptis
from lxml import html as lxml_html

from service.limits import LimitError, check_text

MOVEMENT = re.compile(r"\bmovement\s+(\d{1,9})\b", re.IGNORECASE)
MAX_HEADER_CHARS = 998


class UnreadableMailError(ValueError):
    """Raised when a message holds no text drts can read (it becomes a dead letter)."""


@dataclass(frozen=True)
class Letter:
    """A message as drts reads it: its ids, subject, the movement it names and its text."""

    message_id: str
    subject: str
    references: tuple[str, ...]
    movement: int | None
    text: str


def parse(raw: bytes) -> EmailMessage:
    """Returns the message parsed with the modern policy (never raises: defects are kept)."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def read(raw: bytes) -> Letter:
    """Returns the message's order text and headers; raises UnreadableMailError."""
    message = parse(raw)
    subject = header(message, "Subject")
    found = MOVEMENT.search(subject)
    return Letter(
        message_id=message_id_of(message, raw),
        subject=subject,
        references=references_of(message),
        movement=int(found.group(1)) if found else None,
        text=order_text(body_text(message)),
    )


def unstorable(message: EmailMessage, raw: bytes, mail_from: str = "") -> str | None:
    """Returns why a message cannot be stored or answered (its envelope sender, Message-ID,
    Subject or References holding a control character or bytes that are not text:
    service/limits.py), or None. Such a message is refused for good (5xx): a retry holds
    the same headers."""
    fields = [
        ("envelope sender", mail_from, 0),
        ("Message-ID header", message_id_of(message, raw), 1),
        ("Subject header", header(message, "Subject"), 0),
    ]
    fields += [("References header", reference, 1) for reference in references_of(message)]
    for name, value, fewest in fields:
        try:
            check_text(value, name, MAX_HEADER_CHARS, min_chars=fewest)
        except LimitError as error:
            reason = f"the {name} cannot be stored: {error.problem}"
            return reason.encode("ascii", "backslashreplace").decode("ascii")
    return None


def header(message: EmailMessage, name: str) -> str:
    """Returns a header's decoded value on one line ("" when absent or unreadable)."""
    try:
        value = message.get(name)
    except (ValueError, IndexError, TypeError):  # a malformed header the parser gave up on
        return ""
    return " ".join(str(value or "").split())[:MAX_HEADER_CHARS]


def message_id_of(message: EmailMessage, raw: bytes) -> str:
    """Returns the Message-ID, or one made of the content's SHA-256 when there is none (a
    relay's retry of the same message gives the same one)."""
    given = header(message, "Message-ID")
    if given:
        return given
    return f"<sha256-{hashlib.sha256(raw).hexdigest()}@drts.invalid>"


def references_of(message: EmailMessage) -> tuple[str, ...]:
    """Returns the message's References (its thread), oldest first."""
    return tuple(re.findall(r"<[^<>\s]+>", header(message, "References")))


def body_text(message: EmailMessage) -> str:
    """Returns the text of the message's body: text/plain preferred, else HTML as text."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        raise UnreadableMailError("the message has no text/plain or text/html part")
    try:
        content = part.get_content()
    except LookupError:
        charset = part.get_content_charset()
        raise UnreadableMailError(f"the text is in an unknown charset {charset!r}") from None
    if not isinstance(content, str):
        raise UnreadableMailError(f"the body part {part.get_content_type()} is not text")
    return html_text(content) if part.get_content_subtype() == "html" else content


def html_text(html: str) -> str:
    """Returns an HTML body as text, its quoted parts (<blockquote>) dropped."""
    if not html.strip():
        return ""
    try:
        tree = lxml_html.fromstring(html)
    except (ValueError, lxml_html.etree.ParserError):
        raise UnreadableMailError("the HTML body cannot be parsed") from None
    for quote in tree.xpath("//blockquote"):  # a ">" line stands for it (order_text drops it)
        quote.clear()
        quote.tag, quote.text = "div", ">"
    return str(Inscriptis(tree).get_text())


def order_text(body: str) -> str:
    """Returns the order lines of a body: quotes, the signature and blank lines dropped."""
    lines = [line.strip() for line in body.splitlines()]
    if "--" in lines:  # the signature separator "-- " (its space often lost)
        lines = lines[: lines.index("--")]
    kept: list[str] = []
    for index, line in enumerate(lines):
        if not line or line.startswith(">") or _leads_quote(lines, index):
            continue
        kept.append(line)
    return "\n".join(kept)


def _leads_quote(lines: list[str], index: int) -> bool:
    """Returns whether the line is an attribution ("On ... wrote:") before a quote."""
    if not lines[index].endswith(":"):
        return False
    after = next((line for line in lines[index + 1 :] if line), "")
    return after.startswith(">")
