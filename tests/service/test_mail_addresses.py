"""The seats' secret order addresses and their result addresses (docs/mail.md), on both
databases: only hashes are stored, a reissue stops the old address, a result address gets
nothing but its confirmation until the code comes back."""

from __future__ import annotations

from collections.abc import Iterator
from email.message import EmailMessage

import pytest

from domain.errors import InvalidTokenError
from service.channels.mail import addresses
from service.channels.mail.desk import MailDesk
from service.errors import InvalidResultAddressError, UnknownConfirmationCodeError
from service.matches import Matches

DOMAIN = "drts.localhost"


class RecordingOutbox:
    """Keeps what it is given (the outbox port, for a test of the service alone)."""

    def __init__(self) -> None:
        self.sent: list[EmailMessage] = []

    def send(self, message: EmailMessage) -> None:
        self.sent.append(message)


@pytest.fixture
def outbox(matches: Matches) -> Iterator[RecordingOutbox]:
    recording = RecordingOutbox()
    matches.outbox = recording
    yield recording


def stored_rows(matches: Matches, table: str) -> list[dict[str, object]]:
    return matches.read_models.view("match_list").query(f"SELECT * FROM {{{table}}}")


def test_a_joined_seat_gets_a_lowercase_secret_order_address_stored_only_as_its_hash(
    matches: Matches,
) -> None:
    match = matches.create_match("toy")
    seat = matches.join(match.match_id, "alice")

    assert seat.order_address is not None
    secret = addresses.secret_of(seat.order_address, addresses.ORDERS, DOMAIN)
    assert secret is not None and secret == secret.lower() and len(secret) == 32
    assert addresses.seat_of(matches.read_models, seat.order_address.upper(), DOMAIN) == (
        match.match_id,
        1,
    )
    [row] = stored_rows(matches, "mail_order_addresses")
    assert row["address_hash"] == addresses.hashed(secret)
    assert secret not in repr(row)


def test_reissuing_the_seat_token_reissues_the_address_and_the_old_one_stops(
    matches: Matches,
) -> None:
    match = matches.create_match("toy")
    old = matches.join(match.match_id, "alice")

    new = matches.reissue_seat_token(match.match_id, match.referee_token, 1)

    assert old.order_address and new.order_address and old.order_address != new.order_address
    assert addresses.seat_of(matches.read_models, old.order_address, DOMAIN) is None
    assert addresses.seat_of(matches.read_models, new.order_address, DOMAIN) == (
        match.match_id,
        1,
    )


def test_a_result_address_is_mailed_its_code_and_nothing_else_until_confirmed(
    matches: Matches, outbox: RecordingOutbox
) -> None:
    match = matches.create_match("toy")
    seat = matches.join(match.match_id, "alice", result_address="Alice@Example.ORG")

    [confirmation] = outbox.sent
    assert seat.result_address == "Alice@example.org"
    assert confirmation["To"] == "Alice@example.org"
    code = confirmation["Reply-To"].split("+")[1].split("@")[0]
    assert seat.token not in confirmation.as_string()
    assert matches.mail.answer(match.match_id, 1, "receipt", "text", None) is None
    assert outbox.sent == [confirmation]

    with pytest.raises(UnknownConfirmationCodeError):
        matches.confirm_result_address(match.match_id, seat.token, addresses.new_secret())
    assert matches.confirm_result_address(match.match_id, seat.token, code) == "Alice@example.org"

    assert matches.mail.answer(match.match_id, 1, "receipt", "text", None) is not None
    assert len(outbox.sent) == 2


def test_a_new_result_address_needs_confirming_again_and_only_by_its_own_seat(
    matches: Matches, outbox: RecordingOutbox
) -> None:
    match = matches.create_match("toy")
    alice = matches.join(match.match_id, "alice")
    bob = matches.join(match.match_id, "bob")

    matches.register_result_address(match.match_id, alice.token, "alice@example.org")
    code = outbox.sent[-1]["Reply-To"].split("+")[1].split("@")[0]

    with pytest.raises(UnknownConfirmationCodeError):
        matches.confirm_result_address(match.match_id, bob.token, code)
    with pytest.raises(InvalidTokenError):
        matches.register_result_address(match.match_id, "not-a-token", "x@example.org")
    for bad in ("not an address", "a@b", f"orders@{DOMAIN}", "x" * 400 + "@example.org"):
        with pytest.raises(InvalidResultAddressError):
            matches.register_result_address(match.match_id, alice.token, bad)
    assert len(outbox.sent) == 1


def test_a_message_stored_just_before_a_crash_is_found_in_the_log_and_not_taken_again(
    matches: Matches, outbox: RecordingOutbox
) -> None:
    """The order event is written before the message's row: a crash between them leaves
    the order stored, and the relay's retry must create nothing new."""
    match = matches.create_match("toy")
    seat = matches.join(match.match_id, "alice")
    matches.join(match.match_id, "bob")
    matches.start(match.match_id, match.referee_token)
    raw = (
        f"From: alice@example.org\r\nTo: {seat.order_address}\r\nSubject: orders\r\n"
        "Message-ID: <crash-1@example.org>\r\n\r\n2\r\n"
    ).encode()
    at = matches.clock()
    receipt = matches.submit_mail_order(match.match_id, 1, "2", "<crash-1@example.org>", at)
    desk = MailDesk(matches, 1024 * 1024)

    assert seat.order_address is not None
    answer = desk.receive(seat.order_address, "alice@example.org", raw, at)

    assert answer.outcome == "already"
    events = matches.event_log(match.match_id)
    assert [e for e in events if e["data"].get("message_id") == "<crash-1@example.org>"] == [
        e for e in events if e["version"] == receipt.version
    ]
    again = desk.receive(seat.order_address, "alice@example.org", raw, at)
    assert again.outcome == "already"


@pytest.mark.parametrize(
    "headers",
    [
        b"Message-ID: <a\x00b@example.org>\r\n",
        b"Message-ID: <a\x01b@example.org>\r\n",
        b"Message-ID: <ok-1@example.org>\r\nReferences: <r\x00@example.org>\r\n",
        b"Message-ID: <ok-2@example.org>\r\nSubject: movement 1\x00\r\n",
    ],
)
def test_a_message_with_a_header_that_cannot_be_stored_is_refused_for_good(
    matches: Matches, outbox: RecordingOutbox, headers: bytes
) -> None:
    """Finding (issue 41): a Message-ID holding a NUL was stored once, then answered 451
    (try again later) forever on PostgreSQL, so the relay retried and bounced a message
    that had counted. Now, on both stores, it is refused for good (550) with the reason,
    nothing stored, and a retry gets the same answer."""
    match = matches.create_match("toy")
    seat = matches.join(match.match_id, "alice")
    matches.join(match.match_id, "bob")
    matches.start(match.match_id, match.referee_token)
    assert seat.order_address is not None
    raw = f"From: alice@example.org\r\nTo: {seat.order_address}\r\n".encode() + headers
    raw += b"\r\n2\r\n"
    desk = MailDesk(matches, 1024 * 1024)
    for _ in range(2):  # the relay's retry
        answer = desk.receive(seat.order_address, "alice@example.org", raw, matches.clock())
        assert answer.outcome == "rejected" and answer.smtp.startswith("550 5.6.0 the ")
        assert "cannot be stored" in answer.smtp and answer.smtp.isascii()
    events = matches.event_log(match.match_id)
    assert not [e for e in events if e["type"] in ("OrderSubmitted", "OrderRejected")]
    assert stored_rows(matches, "mail_messages") == []
    assert outbox.sent == [] or all("confirm" in str(m["Subject"]) for m in outbox.sent)


def test_a_message_whose_envelope_sender_holds_a_nul_is_refused_for_good(
    matches: Matches, outbox: RecordingOutbox
) -> None:
    """A dead letter keeps its envelope sender: one holding a NUL could not be stored on
    PostgreSQL (a 451 loop again)."""
    match = matches.create_match("toy")
    seat = matches.join(match.match_id, "alice")
    assert seat.order_address is not None
    raw = b"Message-ID: <x@example.org>\r\nContent-Type: image/png\r\n\r\nxx\r\n"
    answer = MailDesk(matches, 1024).receive(seat.order_address, "a\x00@b", raw, matches.clock())
    assert answer.smtp.startswith("550 5.6.0 the envelope sender cannot be stored")
    assert stored_rows(matches, "mail_dead_letters") == []
