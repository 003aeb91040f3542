"""Where outgoing mail goes: an SMTP relay, through a Celery task, or a maildir folder.

With DRTS_SMTP_URL set, a message is handed to the named task `workers.send_mail` (retried
with backoff while the relay fails for a while); nothing waits for it to be sent. Without
it (the embedded default), the message is written to the maildir DRTS_MAIL_OUTBOX
(`new/` holds one file a message), so that nothing needs a mail server to try drts.
Sending is at least once: a task redelivered after a crash may send a message twice.
"""

from __future__ import annotations

import logging
import mailbox
import smtplib
import ssl
from email.message import EmailMessage
from functools import cached_property
from typing import Protocol
from urllib.parse import unquote, urlsplit

from celery import Celery

from service.channels.mail.reading import parse
from service.scheduling import producer_app
from service.settings import Settings, SettingsError

SEND_MAIL = "workers.send_mail"
logger = logging.getLogger(__name__)


class TemporaryRelayError(Exception):
    """Raised when the relay refuses for now (a 4xx reply): the task tries again later."""


class RefusedByRelayError(Exception):
    """Raised when the relay refuses a message for good (a 5xx reply): never tried again."""


class Outbox(Protocol):
    """Takes a message to send."""

    def send(self, message: EmailMessage) -> None:
        """Hands the message on (never waits for the recipient's server)."""


class MaildirOutbox:
    """Writes each message to a maildir folder (the embedded default)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def send(self, message: EmailMessage) -> None:
        """Adds the message to the folder's `new/`."""
        mailbox.Maildir(self.path, create=True).add(message.as_bytes())


class RelayOutbox:
    """Sends each message by the Celery task `workers.send_mail`."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @cached_property
    def app(self) -> Celery:
        """Returns the producer app (made on first use)."""
        return producer_app(self.settings)

    def send(self, message: EmailMessage) -> None:
        """Queues the task; a broker that fails is logged (the order stays stored)."""
        try:
            self.app.send_task(
                SEND_MAIL,
                args=(message.as_string(),),
                retry=True,
                retry_policy={"max_retries": 2, "interval_start": 0.1, "interval_step": 0.2},
            )
        except Exception:
            logger.error("mail to %s not queued: the broker failed", message["To"], exc_info=True)


def outbox_for(settings: Settings) -> Outbox:
    """Returns the relay's outbox when DRTS_SMTP_URL is set, else the maildir folder."""
    if settings.smtp_url:
        relay_parts(settings.smtp_url)  # a bad URL is refused at start
        return RelayOutbox(settings)
    return MaildirOutbox(settings.mail_outbox)


def relay_parts(url: str) -> tuple[str, str, int, str, str]:
    """Returns (mode, host, port, user, password) of DRTS_SMTP_URL; raises SettingsError."""
    parts = urlsplit(url)
    modes = {"smtp": ("plain", 25), "smtp+starttls": ("starttls", 587), "smtps": ("tls", 465)}
    if parts.scheme not in modes or not parts.hostname:
        raise SettingsError(
            f"DRTS_SMTP_URL={url!r}: give smtp://host:port, smtp+starttls://user:pass@host:587 "
            "or smtps://user:pass@host:465"
        )
    mode, port = modes[parts.scheme]
    user, password = unquote(parts.username or ""), unquote(parts.password or "")
    return mode, parts.hostname, parts.port or port, user, password


def send_through_relay(url: str, text: str) -> str:
    """Sends a message through the relay; returns what happened. Raises
    TemporaryRelayError or OSError (try again later); a permanent refusal is returned."""
    message = parse(text.encode("utf-8", "surrogateescape"))
    try:
        deliver(url, message)
    except RefusedByRelayError as error:
        return str(error)
    return f"sent to {message['To']}"


def deliver(url: str, message: EmailMessage) -> None:
    """Hands a message to the relay of `url` and returns once it took it. Raises
    TemporaryRelayError or OSError (try again later), RefusedByRelayError (never)."""
    mode, host, port, user, password = relay_parts(url)
    try:
        with _connect(mode, host, port) as smtp:
            if mode == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if user:
                smtp.login(user, password)
            smtp.send_message(message)
    except smtplib.SMTPRecipientsRefused as error:
        codes = [code for code, _ in error.recipients.values()]
        if any(400 <= code < 500 for code in codes):
            raise TemporaryRelayError(f"the relay refused for now: {error.recipients}") from None
        raise RefusedByRelayError(f"refused by the relay: {error.recipients}") from None
    except smtplib.SMTPResponseException as error:
        if 400 <= error.smtp_code < 500:
            raise TemporaryRelayError(f"the relay said {error.smtp_code}") from None
        raise RefusedByRelayError(
            f"refused by the relay: {error.smtp_code} {error.smtp_error!r}"
        ) from None
    except smtplib.SMTPServerDisconnected as error:
        raise TemporaryRelayError(f"the relay hung up: {error}") from None


class RelayTransport:
    """Sends each message through the relay itself, waiting for its reply (the outbox of
    notices: service/channels/mail/notices.py, which retries what fails)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def send(self, message: EmailMessage) -> None:
        """Hands the message to the relay; raises as `deliver` does."""
        deliver(self.url, message)


def transport_for(settings: Settings) -> Outbox:
    """Returns what the notices go through: the relay of DRTS_SMTP_URL itself (no task:
    the outbox table is their queue), else the maildir folder."""
    if settings.smtp_url:
        relay_parts(settings.smtp_url)
        return RelayTransport(settings.smtp_url)
    return MaildirOutbox(settings.mail_outbox)


def _connect(mode: str, host: str, port: int) -> smtplib.SMTP:
    if mode == "tls":
        return smtplib.SMTP_SSL(host, port, timeout=30, context=ssl.create_default_context())
    return smtplib.SMTP(host, port, timeout=30)
