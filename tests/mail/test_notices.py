"""Results and reminders by mail over real SMTP (issue 27, docs/mail.md): the real worker
runs `workers.send_notices` and mails through the test's aiosmtpd relay."""

from __future__ import annotations

import time
from email.message import EmailMessage

from service.channels.mail.notices import SEND_NOTICES
from service.scheduling import producer_app
from tests.mail.conftest import Postal, mail, order_address_of, wait_for
from tests.support.mail import body, player


def subjects(messages: list[EmailMessage]) -> list[str]:
    return [" ".join(str(m["Subject"]).split()) for m in messages]


def send_notices(postal: Postal) -> None:
    """Asks the worker for a pass of the outbox (beat does it every DRTS_SWEEP_SECONDS)."""
    producer_app(postal.settings).send_task(SEND_NOTICES)


def test_results_and_a_reminder_reach_the_seats_and_the_referee_through_the_worker(
    postal: Postal,
) -> None:
    """Dris et Tessa: seat 1 places by mail, movement 1 resolves at once (only seat 1
    owed); each confirmed address gets its result, then seat 2, owing movement 2 an hour
    before its deadline (inside DRTS_MAIL_REMINDER_SECONDS' default 12 hours), a reminder."""
    match, service = postal.new_match("dris_et_tessa", deadline_seconds=3600)
    alice_address, bob_address, referee = player("alice"), player("bob"), player("referee")
    alice = postal.confirmed_seat(service, match, "alice", alice_address)
    postal.confirmed_seat(service, match, "bob", bob_address)
    service.register_referee_address(match.match_id, match.referee_token, referee)
    confirmation = wait_for(lambda: postal.relay.to(referee), what="the confirmation")[0]
    postal.send(mail(referee, confirmation["Reply-To"], "yes", subject="Re: confirm"))
    service.start(match.match_id, match.referee_token)
    assert postal.send(mail(alice_address, order_address_of(alice), "a1"))[0] == 250
    result = f"drts: match {match.match_id} resolved, orders now for movement 2"
    reminder = f"drts: reminder, movement 2 of match {match.match_id} awaits your order"

    send_notices(postal)

    for address in (alice_address, bob_address, referee):
        wait_for(
            lambda a=address: result in subjects(postal.relay.to(a)), what=f"{address}'s result"
        )
    wait_for(lambda: reminder in subjects(postal.relay.to(bob_address)), what="the reminder")
    text = body(next(m for m in postal.relay.to(bob_address) if subjects([m]) == [result]))
    assert service.display(match.match_id, 1).replace("\n", "") in text.replace("\r\n", "")
    head = service.summary(match.match_id)  # nothing happened since movement 2 opened
    assert f"Head after the resolution: version {head.version}, chain {head.chain}" in text
    send_notices(postal)
    send_notices(postal)
    time.sleep(3)  # the passes above find nothing more to send
    for address in (alice_address, bob_address, referee):
        assert subjects(postal.relay.to(address)).count(result) == 1
    assert subjects(postal.relay.to(bob_address)).count(reminder) == 1
    assert reminder not in subjects(postal.relay.to(alice_address))  # she owes nothing
    assert reminder not in subjects(postal.relay.to(referee))  # reminders go to seats only


def test_a_reply_to_a_result_is_an_order_for_the_movement_now_open(postal: Postal) -> None:
    """The result's subject names only the open movement (docs/mail.md): a player's reply,
    quoting it, is taken for that movement, not refused as too late for the last."""
    match, service = postal.new_match("dris_et_tessa", deadline_seconds=3600)
    alice_address, bob_address = player("alice"), player("bob")
    alice = postal.confirmed_seat(service, match, "alice", alice_address)
    bob = postal.confirmed_seat(service, match, "bob", bob_address)
    service.start(match.match_id, match.referee_token)
    postal.send(mail(alice_address, order_address_of(alice), "a1"))
    send_notices(postal)
    result = f"drts: match {match.match_id} resolved, orders now for movement 2"
    wait_for(lambda: result in subjects(postal.relay.to(bob_address)), what="bob's result")
    quoted = "> " + body(postal.relay.to(bob_address)[-1]).replace("\n", "\n> ")

    reply = mail(bob_address, order_address_of(bob), f"d1\n\n{quoted}", subject=f"Re: {result}")
    code, text = postal.send(reply)

    assert code == 250 and text.startswith(b"2.0.0 stored: order digest"), text
    assert service.summary(match.match_id).movement == 3  # bob's d1 resolved movement 2
