"""The embedded default (no DRTS_SMTP_URL): answers are written to the maildir outbox,
so that nothing needs a mail server to try drts (docs/mail.md)."""

from __future__ import annotations

import mailbox
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mail.conftest import Postal, mail, order_address_of, postal_service


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Postal]:
    with postal_service(tmp_path_factory.mktemp("embedded"), relay=False) as service:
        yield service


def outbox(postal: Postal) -> list[mailbox.MaildirMessage]:
    return list(mailbox.Maildir(Path(postal.env["DRTS_MAIL_OUTBOX"]), create=True))


def test_without_a_relay_the_confirmation_and_the_receipt_land_in_the_maildir(
    embedded: Postal,
) -> None:
    match, service = embedded.new_match()
    seat = service.join(match.match_id, "alice", result_address="alice@players.test")
    service.join(match.match_id, "bob")
    service.start(match.match_id, match.referee_token)
    [confirmation] = outbox(embedded)
    reply = mail("alice@players.test", str(confirmation["Reply-To"]), "yes", subject="Re: confirm")
    assert embedded.send(reply)[0] == 250
    sent = mail("alice@players.test", order_address_of(seat), "purchase")

    code, text = embedded.send(sent)

    assert code == 250 and text.startswith(b"2.0.0 stored: order digest ")
    [receipt] = [m for m in outbox(embedded) if m["In-Reply-To"] == sent["Message-ID"]]
    assert receipt["To"] == "alice@players.test"
    assert text.decode().split()[-1] in receipt.get_payload(decode=True).decode()
