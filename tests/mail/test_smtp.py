"""Orders by mail over real SMTP (issue 26, docs/mail.md): smtplib sends to `drts mail
serve` in a subprocess; a real worker sends the answers through the test's relay."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from email.message import EmailMessage
from typing import Any

from service.channels.mail import addresses
from service.channels.mail.desk import MailDesk
from service.matches import Matches
from service.results import NewMatch, NewSeat
from tests.mail.conftest import DOMAIN, Postal, mail, order_address_of, wait_for
from tests.support.mail import body, player


def started(postal: Postal, **options: Any) -> tuple[NewMatch, Matches, NewSeat, NewSeat, str]:
    """A started B-Chess match: alice with a confirmed result address, bob with none."""
    match, service = postal.new_match(**options)
    alice_address = player("alice")
    alice = postal.confirmed_seat(service, match, "alice", alice_address)
    bob = service.join(match.match_id, "bob")
    service.start(match.match_id, match.referee_token)
    return match, service, alice, bob, alice_address


def mail_events(service: Matches, match: NewMatch, message_id: str) -> list[dict[str, Any]]:
    """The match's order events (accepted or refused) that hold the Message-ID."""
    events = service.event_log(match.match_id, match.referee_token)
    flat = [{**e, **e["data"]} for e in events]
    return [e for e in flat if e.get("message_id") == message_id]


def test_a_multi_line_b_chess_order_is_stored_and_its_receipt_threaded_to_the_confirmed_address(
    postal: Postal,
) -> None:
    """BC-11: the body's lines are the order in the order written; a bad line is refused."""
    match, service, alice, _, address = started(postal)
    sent = mail(address, order_address_of(alice), "purchase\npurchase\nbogus")
    sent["References"] = "<result-1@postal.test>"

    code, text = postal.send(sent)

    [event] = mail_events(service, match, sent["Message-ID"])
    assert (event["type"], event["source"], event["seat"]) == ("OrderSubmitted", "mail", 1)
    assert (code, text.decode()) == (250, f"2.0.0 stored: order digest {event['digest']}")
    answer = postal.relay.answer_to(sent["Message-ID"])
    assert answer["To"] == address
    assert answer["References"].split() == ["<result-1@postal.test>", sent["Message-ID"]]
    assert answer["Subject"] == "Re: orders"
    text = body(answer)
    assert f"Digest:      {event['digest']}" in text
    assert f"Version:     {event['version']}" in text
    assert "Head:        version" in text
    assert "bogus: line 'bogus' is not an action" in text
    assert '[{"actions": [{"action": "purchase"}, {"action": "purchase"}]}]' in text
    assert alice.token not in answer.as_string()
    secret = order_address_of(alice).split("+")[1].split("@")[0]
    assert secret not in answer.as_string().lower()
    assert f"stored: order digest {event['digest']}" in postal.log("mail")
    assert secret not in postal.log("mail")  # nor in the server's log


def test_from_never_authenticates_only_the_secret_address_does(postal: Postal) -> None:
    match, service, alice, _, address = started(postal)
    forged_to = f"orders+{addresses.new_secret()}@{DOMAIN}"

    assert postal.send(mail(address, forged_to, "purchase"))[0] == 550
    assert postal.send(mail(address, f"alice@{DOMAIN}", "purchase"))[0] == 550
    assert postal.send(mail(address, "orders@elsewhere.test", "purchase"))[0] == 550
    assert service.pending_orders(match.match_id, alice.token) == []

    stranger = mail("mallory@evil.test", order_address_of(alice), "purchase")
    assert postal.send(stranger)[0] == 250  # the address says whose order it is
    assert postal.relay.answer_to(stranger["Message-ID"])["To"] == address


def test_a_message_to_an_unknown_or_reissued_address_is_refused_at_rcpt(postal: Postal) -> None:
    match, service, alice, _, address = started(postal)
    old = order_address_of(alice)

    new = service.reissue_seat_token(match.match_id, match.referee_token, 1)

    code, text = postal.send(mail(address, old, "purchase"))
    assert code == 550
    assert b"unknown address" in text
    assert new.order_address != old
    assert postal.send(mail(address, order_address_of(new), "purchase"))[0] == 250


def test_a_replayed_message_id_creates_nothing_new_and_is_answered_already_received(
    postal: Postal,
) -> None:
    match, service, alice, _, address = started(postal)
    sent = mail(address, order_address_of(alice), "purchase")
    first = postal.send(sent)
    first_answer = postal.relay.answer_to(sent["Message-ID"])

    again = postal.send(sent)

    assert again == (250, b"2.0.0 already received: nothing new stored")
    assert len(mail_events(service, match, sent["Message-ID"])) == 1
    answers = wait_for(
        lambda: [m for m in postal.relay.to(address) if m["In-Reply-To"] == sent["Message-ID"]][1:]
    )
    assert body(answers[0]).startswith("Already received")
    assert body(first_answer) in body(answers[0])
    assert first[1].decode().split()[-1] in body(answers[0])  # the first receipt's digest


class GatedDesk(MailDesk):
    """A desk whose look for a message seen before waits for the other desk's look, as two
    `drts mail serve` on one store (a mistake) taking copies of one message at once."""

    def __init__(self, matches: Matches, gate: threading.Barrier) -> None:
        super().__init__(matches, 1_000_000)
        self.gate = gate

    def _first(self, seat: Any, message_id: str) -> Any:
        found = super()._first(seat, message_id)
        self.gate.wait(timeout=30)
        return found


def test_two_copies_of_a_message_taken_at_once_by_two_desks_store_one_order(
    postal: Postal,
) -> None:
    match, service, alice, _, address = started(postal)
    other = postal.matches()
    gate = threading.Barrier(2)
    desks = [GatedDesk(service, gate), GatedDesk(other, gate)]
    sent = mail(address, order_address_of(alice), "purchase")  # B-Chess orders accumulate
    try:
        with ThreadPoolExecutor(2) as pool:
            answers = list(
                pool.map(
                    lambda desk: desk.receive(
                        order_address_of(alice), address, bytes(sent), service.clock()
                    ),
                    desks,
                )
            )
    finally:
        other.close()

    assert sorted(a.outcome for a in answers) == ["accepted", "already"]
    stored = mail_events(service, match, sent["Message-ID"])
    assert [e["type"] for e in stored] == ["OrderSubmitted"]


def test_an_html_only_mail_is_read_as_text(postal: Postal) -> None:
    match, service, alice, _, address = started(postal)
    html = (
        "<html><body><div>purchase</div><div><b>bogus</b> line<br></div>"
        "<div>On Monday drts wrote:</div><blockquote><div>K9 to 1,1</div></blockquote>"
        "</body></html>"
    )
    sent = mail(address, order_address_of(alice), "", html=html)

    assert postal.send(sent)[0] == 250

    [event] = mail_events(service, match, sent["Message-ID"])
    assert event["type"] == "OrderSubmitted"
    text = body(postal.relay.answer_to(sent["Message-ID"]))
    assert "bogus line: line 'bogus line' is not an action" in text
    assert "K9" not in text


def test_quoted_lines_and_the_signature_are_ignored(postal: Postal) -> None:
    match, service, alice, _, address = started(postal)
    text = (
        "  purchase  \n\nOn Mon, 30 Nov 2026, drts <drts@postal.test> wrote:\n"
        "> K1 to 1,1\n> bogus\n\n-- \nAlice\nK2 to 3,3\n"
    )
    sent = mail(address, order_address_of(alice), text)
    sent.add_attachment(b"%PDF-1.4 K3 to 5,5", maintype="application", subtype="pdf")

    assert postal.send(sent)[0] == 250

    [event] = mail_events(service, match, sent["Message-ID"])
    assert event["sealed"]["sent"] == "purchase"  # the order as read: one line
    answer = body(postal.relay.answer_to(sent["Message-ID"]))
    assert "Refused" not in answer
    assert '[{"actions": [{"action": "purchase"}]}]' in answer


def test_a_latin_1_mail_is_decoded_in_its_charset(postal: Postal) -> None:
    match, service, alice, _, address = started(postal)
    sent = mail(address, order_address_of(alice), "purchase\nK1 to café\n", charset="latin-1")
    assert b"caf\xe9" in sent.as_bytes() or b"=E9" in sent.as_bytes()

    assert postal.send(sent)[0] == 250

    [event] = mail_events(service, match, sent["Message-ID"])
    assert event["sealed"]["sent"] == "purchase\nK1 to café"
    assert "K1 to café: " in body(postal.relay.answer_to(sent["Message-ID"]))


def test_a_10_mb_mail_is_refused_with_the_limit_and_the_seat_told(postal: Postal) -> None:
    match, service, alice, _, address = started(postal)
    sent = mail(address, order_address_of(alice), "purchase")
    sent.add_attachment(b"\0" * (10 * 1024 * 1024), maintype="image", subtype="jpeg")

    code, text = postal.send(sent)

    assert code == 552
    assert text.decode() == (
        "5.3.4 message too big: drts takes at most 1048576 bytes; nothing was stored"
    )
    assert service.pending_orders(match.match_id, alice.token) == []
    told = wait_for(lambda: [m for m in postal.relay.to(address) if "too big" in m["Subject"]])
    assert "over drts's limit of 1048576 bytes" in body(told[0])


def test_a_mail_after_the_deadline_is_refused_naming_the_close_and_the_received_time(
    postal: Postal,
) -> None:
    match, service, alice, bob, address = started(postal, deadline_seconds=2)
    service.submit_order(match.match_id, bob.token, "purchase")  # arms the firing
    time.sleep(2.5)
    sent = mail(address, order_address_of(alice), "purchase", subject="Orders for movement 1")
    sent["Date"] = "Mon, 01 Jan 2001 00:00:00 +0000"  # before the deadline: never believed

    code, text = postal.send(sent)

    assert (code, text) == (250, b"2.0.0 stored: order refused (movement_closed)")
    [event] = mail_events(service, match, sent["Message-ID"])
    assert (event["type"], event["error"], event["movement"]) == (
        "OrderRejected",
        "movement_closed",
        1,
    )
    answer = body(postal.relay.answer_to(sent["Message-ID"]))
    assert "Reason (movement_closed): movement 1 of match" in answer
    assert "it closed at" in answer
    assert f"Received at: {event['received_at']}" in answer
    assert not event["received_at"].startswith("2001-")  # when the server had it
    assert "and the order was received at " + event["received_at"] in answer


def test_an_unconfirmed_result_address_gets_nothing_but_the_confirmation(postal: Postal) -> None:
    _, _, alice, _, address = started(postal)
    bob_address = player("bob")
    bob_match, bob_service = postal.new_match()
    bob = bob_service.join(bob_match.match_id, "bob", result_address=bob_address)
    bob_service.join(bob_match.match_id, "dora")
    bob_service.start(bob_match.match_id, bob_match.referee_token)
    bobs = mail(bob_address, order_address_of(bob), "purchase")

    assert postal.send(bobs)[0] == 250
    alices = mail(address, order_address_of(alice), "purchase")
    postal.send(alices)
    postal.relay.answer_to(alices["Message-ID"])  # the worker sent what came before it

    [event] = mail_events(bob_service, bob_match, bobs["Message-ID"])
    assert event["type"] == "OrderSubmitted"
    [only] = postal.relay.to(bob_address)
    assert only["Subject"].startswith("drts: confirm this address")
    assert order_address_of(bob).split("@")[0] not in only.as_string().lower()
    assert bob.token not in only.as_string()


def test_a_mail_without_text_is_kept_as_a_dead_letter_and_answered(postal: Postal) -> None:
    match, service, alice, _, address = started(postal)
    sent = EmailMessage()
    sent["From"], sent["To"], sent["Subject"] = address, order_address_of(alice), "photo"
    sent["Message-ID"] = f"<{uuid.uuid4().hex}@players.test>"
    sent.set_content(b"\x89PNG....", maintype="image", subtype="png")

    code, text = postal.send(sent)

    assert (code, text) == (
        250,
        b"2.0.0 kept as a dead letter: the message has no text/plain or text/html part",
    )
    assert service.pending_orders(match.match_id, alice.token) == []
    assert "could not be read" in body(postal.relay.answer_to(sent["Message-ID"]))
    listed = subprocess.run(
        [sys.executable, "-m", "cli", "mail", "dead-letters"],
        env=postal.env,
        cwd=postal.env["DRTS_TEST_DIR"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    letter = next(json.loads(line) for line in listed if sent["Message-ID"] in line)
    assert letter["reason"] == "the message has no text/plain or text/html part"
    assert letter["rcpt_to"] == f"orders+...@{DOMAIN}"


def test_a_relay_that_refuses_for_now_gets_the_answer_again_later(postal: Postal) -> None:
    """The send task retries a 4xx with backoff; the order was stored before any of it."""
    match, service, alice, _, address = started(postal)
    sent = mail(address, order_address_of(alice), "purchase")
    postal.relay.defer = 1

    assert postal.send(sent)[0] == 250
    assert len(mail_events(service, match, sent["Message-ID"])) == 1

    answer = postal.relay.answer_to(sent["Message-ID"])
    assert [m["Message-ID"] for m in postal.relay.deferred] == [answer["Message-ID"]]


def test_an_illegal_order_is_refused_with_the_rule_and_answered(postal: Postal) -> None:
    """BC-4: an order names an object on the Field; no line standing refuses the message."""
    match, service, alice, _, address = started(postal)
    sent = mail(address, order_address_of(alice), "K99 to 3,3")

    assert postal.send(sent) == (250, b"2.0.0 stored: order refused (illegal_order)")

    [event] = mail_events(service, match, sent["Message-ID"])
    assert (event["type"], event["error"]) == ("OrderRejected", "illegal_order")
    answer = body(postal.relay.answer_to(sent["Message-ID"]))
    assert "Reason (illegal_order): no line stands: K99 to 3,3: there is no K99" in answer
    assert "(BC-4)" in answer
