"""A seat's mail: its order address, its result address, and the answers sent there."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage
from uuid import UUID

from service.channels.mail import addresses, letters
from service.channels.mail.addresses import SeatAddress
from service.channels.mail.outbox import Outbox
from service.channels.mail.reading import Letter
from service.readmodels.runner import ReadModels

logger = logging.getLogger(__name__)


class SeatMail:
    """Issues order addresses, registers and confirms result addresses, sends answers."""

    def __init__(
        self,
        models: Callable[[], ReadModels],
        domain: str,
        outbox: Outbox,
        clock: Callable[[], datetime],
    ) -> None:
        self.models, self.domain, self.outbox, self.clock = models, domain, outbox, clock

    def issue(self, match_id: UUID, seat: int) -> str:
        """Gives the seat a new secret order address (the old one stops); returns it."""
        return addresses.issue_order_address(
            self.models(), match_id, seat, self.domain, self.clock()
        )

    def checked(self, address: str) -> str:
        """Returns a result address as kept; raises InvalidResultAddressError."""
        return addresses.checked_address(address, self.domain)

    def register(self, match_id: UUID, seat: int, address: str) -> None:
        """Registers the seat's result address and mails it its confirmation code."""
        code = addresses.register_result_address(
            self.models(), match_id, seat, address, now := self.clock()
        )
        message = letters.letter(
            address,
            f"drts: confirm this address for {'the referee' if seat == 0 else f'seat {seat}'} "
            f"of match {match_id}",
            letters.confirmation_text(match_id, seat, code),
            self.domain,
            now,
        )
        message["Reply-To"] = f"{addresses.CONFIRM}+{code}@{self.domain}"
        self._send(message)

    def confirm(self, code: str) -> SeatAddress:
        """Confirms the result address waiting for the code; raises
        UnknownConfirmationCodeError."""
        return addresses.confirm(self.models(), code, self.clock())

    def result_address(self, match_id: UUID, seat: int) -> SeatAddress | None:
        """Returns the seat's result address (confirmed or not), or None."""
        return addresses.result_address(self.models(), match_id, seat)

    def answer(
        self, match_id: UUID, seat: int, subject: str, body: str, answering: Letter | None
    ) -> EmailMessage | None:
        """Sends an answer to the seat's confirmed result address; returns it (None: the
        seat has no confirmed address, and nothing is sent)."""
        found = self.result_address(match_id, seat)
        if found is None or not found.confirmed:
            return None
        message = letters.letter(found.address, subject, body, self.domain, self.clock(), answering)
        self._send(message)
        return message

    def _send(self, message: EmailMessage) -> None:
        """Hands the message to the outbox; a failure is logged, never raised: what the
        message tells is stored already (a seat, an order), and must not be lost to it."""
        try:
            self.outbox.send(message)
        except Exception:
            logger.error("mail to %s could not be handed on", message["To"], exc_info=True)
