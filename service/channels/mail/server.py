"""The SMTP server of `drts mail serve` (aiosmtpd), on a loopback port.

RCPT takes only a seat's order address or a pending confirmation address (550 for
any other). DATA is answered only once the desk has stored the message (250), or
with 451 when the database is out (the sending relay tries again later). A message
over DRTS_MAIL_MAX_BYTES is refused with 552 naming the limit, and the seats it was
for are told by mail. The desk's work runs on one thread, one message at a time.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any, AnyStr

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from service.channels.mail.desk import MailDesk
from service.readmodels.recorders import OUTAGES

logger = logging.getLogger(__name__)
# aiosmtpd logs every command line at INFO, RCPT TO with a seat's secret address among them
AIOSMTPD_LOGGER = "mail.log"
HOST = "127.0.0.1"
TOO_MUCH = "552 Error: Too much mail data"


class OrdersHandler:
    """aiosmtpd's handler: RCPT checks the address, DATA stores through the desk."""

    def __init__(self, desk: MailDesk) -> None:
        self.desk = desk
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="drts-mail")

    async def run(self, function: Any, *args: Any) -> Any:
        """Runs a desk call on the desk's one thread."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, function, *args)

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: Any
    ) -> str:
        """Takes a seat's order address or a pending confirmation address; 550 otherwise."""
        try:
            known = await self.run(self.desk.knows, address)
        except OUTAGES:
            return "451 4.3.0 the store cannot be reached: try again later"
        if not known:
            return "550 5.1.1 unknown address: no seat has it (an old one stops when reissued)"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        """Stores the message for each recipient, then answers with the first's reply."""
        received_at = datetime.now(UTC)  # the message is in: never its Date header
        raw = envelope.original_content or b""
        replies = []
        for recipient in envelope.rcpt_tos:
            try:
                answer = await self.run(
                    self.desk.receive, recipient, envelope.mail_from or "", raw, received_at
                )
            except OUTAGES:
                logger.exception("the store failed while taking a message: 451")
                return "451 4.3.0 the store cannot be reached: try again later"
            except Exception:  # a bug: nothing may be lost, so the relay keeps the message
                logger.exception("taking a message failed: 451")
                return "451 4.3.0 the message could not be taken now: try again later"
            logger.info("mail for %s...: %s", recipient.split("+")[0], answer.smtp)
            replies.append(answer.smtp)
        return replies[0] if len(set(replies)) == 1 else "250 2.0.0 stored for each recipient"


class OrdersSMTP(SMTP):
    """aiosmtpd's SMTP with drts's refusal of a message over the size limit."""

    async def push(self, status: AnyStr) -> None:
        """Sends a reply; the size refusal names the limit and tells the seats."""
        if isinstance(status, str) and status == TOO_MUCH and self.data_size_limit:
            status = (
                f"552 5.3.4 message too big: drts takes at most {self.data_size_limit} bytes; "
                "nothing was stored"
            )
            handler: OrdersHandler = self.event_handler
            recipients = list(self.envelope.rcpt_tos) if self.envelope else []
            try:
                await handler.run(handler.desk.too_big, recipients, datetime.now(UTC))
            except Exception:
                logger.exception("the answer to a message over the size limit failed")
        await super().push(status)


class OrdersController(Controller):
    """Runs the SMTP server in a thread on HOST:port."""

    def __init__(self, desk: MailDesk, port: int, max_bytes: int) -> None:
        quiet = logging.getLogger(AIOSMTPD_LOGGER)
        quiet.setLevel(max(quiet.getEffectiveLevel(), logging.WARNING))  # keep secrets out
        super().__init__(
            OrdersHandler(desk),
            hostname=HOST,
            port=port,
            data_size_limit=max_bytes,
            ident="drts",
        )

    def factory(self) -> SMTP:
        """Returns drts's SMTP server."""
        return OrdersSMTP(self.handler, **self.SMTP_kwargs)
