"""Player addresses and the plain body of a mail message, for the mail tests."""

from __future__ import annotations

import uuid
from email.message import EmailMessage


def player(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:8]}@players.test"


def body(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())
