"""Results, reminders and dispute notices by mail (issue 27, docs/mail.md), through the
outbox: the projection `mail_outbox` records them, NoticeSender mails them through an
aiosmtpd relay in a real SMTP exchange. On SQLite and PostgreSQL, with a hand-driven clock.
"""

from __future__ import annotations

from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from service import schema
from service.channels.mail import addresses
from service.channels.mail.notices import LEASE, NoticeSender
from service.channels.mail.outbox import MaildirOutbox, RelayTransport
from service.clock import ManualClock
from service.matches import Matches
from service.readmodels.mailout import REFEREE_SEAT
from service.settings import Settings
from tests.mail.conftest import Relay, free_port

DAY = 24 * 3600


class Postbox:
    """The relay of one test: started and stopped at will, always on the same port."""

    def __init__(self) -> None:
        self.port, self.capture = free_port(), Relay()
        self.controller: Controller | None = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def up(self) -> None:
        self.controller = Controller(self.capture, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def down(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def to(self, address: str) -> list[EmailMessage]:
        return self.capture.to(address)


@pytest.fixture
def relay() -> Iterator[Postbox]:
    postbox = Postbox()
    postbox.up()
    yield postbox
    postbox.down()


@pytest.fixture
def app(matches: Matches, tmp_path: Path) -> Matches:
    matches.outbox = MaildirOutbox(str(tmp_path / "confirmations"))
    return matches


def sender(app: Matches, relay: Postbox, reminder_seconds: float = 0) -> NoticeSender:
    return NoticeSender(app, RelayTransport(relay.url), reminder_seconds)


def confirmed(app: Matches, match_id: Any, seat: int, address: str) -> None:
    code = addresses.register_result_address(app.read_models, match_id, seat, address, app.clock())
    addresses.confirm(app.read_models, code, app.clock())


def toy_match(app: Matches, clock: ManualClock, deadline_seconds: int = DAY) -> dict[str, Any]:
    """A started toy match: alice's and the referee's result addresses confirmed, bob's
    registered but never confirmed."""
    new = app.create_match("toy", seed="outbox", deadline_seconds=deadline_seconds)
    alice, bob = app.join(new.match_id, "alice"), app.join(new.match_id, "bob")
    confirmed(app, new.match_id, alice.seat, "alice@players.test")
    confirmed(app, new.match_id, REFEREE_SEAT, "referee@players.test")
    addresses.register_result_address(
        app.read_models, new.match_id, bob.seat, "bob@players.test", clock()
    )
    clock.advance(1)
    app.start(new.match_id, new.referee_token)
    return {"id": new.match_id, "referee": new.referee_token, "alice": alice, "bob": bob}


def play_movement(app: Matches, match: dict[str, Any]) -> None:
    """Both seats order: movement 1 resolves at once (every seat ordered)."""
    app.submit_order(match["id"], match["alice"].token, "1")
    app.submit_order(match["id"], match["bob"].token, "2")


def header(message: EmailMessage, name: str) -> str:
    """Returns a header unfolded (a long subject is folded on the wire)."""
    return " ".join(str(message[name]).split())


def text_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content()).replace("\r\n", "\n")  # CRLF lines, as on the wire


def logged(app: Matches, match: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in app.event_log(match["id"], match["referee"]) if e["type"] == kind]


def test_each_confirmed_seat_and_the_referee_get_the_result_of_a_movement_once(
    app: Matches, clock: ManualClock, relay: Postbox
) -> None:
    match = toy_match(app, clock)
    play_movement(app, match)

    done = sender(app, relay).run()

    assert (done.sent, done.deferred, done.failed) == (2, 0, 0)
    [resolved] = logged(app, match, "MovementResolved")
    [opened] = [e for e in logged(app, match, "DeadlineSet") if e["data"]["movement"] == 2]
    [result] = relay.to("alice@players.test")
    message_id = f"<result-{resolved['version']}-1.{match['id'].hex}@drts.localhost>"
    assert header(result, "Message-ID") == message_id
    assert (
        header(result, "Subject")
        == f"drts: match {match['id']} resolved, orders now for movement 2"
    )
    text = text_of(result)
    assert "  1. seat 1 picks 1 (TOY-1)" in text
    assert "  seat 1: 1" in text and "  seat 2: 3" in text
    assert f"Next: movement 2, deadline {opened['data']['deadline']}" in text
    # the head after the resolution's whole write: the next movement's DeadlineSet
    assert f"version {opened['version']}, chain {opened['chain']}" in text
    assert app.display(match["id"], 1) in text  # the Public Display after movement 1
    assert match["alice"].token not in result.as_string()
    [copy] = relay.to("referee@players.test")
    assert text_of(copy) == text
    assert relay.to("bob@players.test") == []  # never confirmed: nothing but the confirmation
    assert sender(app, relay).run().sent == 0


def test_a_rebuilt_outbox_records_and_sends_nothing_again(
    app: Matches, clock: ManualClock, relay: Postbox
) -> None:
    match = toy_match(app, clock)
    play_movement(app, match)
    sender(app, relay).run()
    clock.advance(1)
    confirmed(app, match["id"], match["bob"].seat, "bob@players.test")  # after the resolution

    app.read_models.rebuild("mail_outbox")

    assert sender(app, relay).run().sent == 0
    assert len(relay.to("alice@players.test")) == 1
    assert relay.to("bob@players.test") == []  # not confirmed when movement 1 resolved


def test_a_relay_down_for_a_while_gets_every_notice_once_it_is_back(
    app: Matches, clock: ManualClock, relay: Postbox
) -> None:
    match = toy_match(app, clock)
    play_movement(app, match)
    relay.down()

    first = sender(app, relay).run()
    again = sender(app, relay).run()  # too soon: the notices wait for their next attempt
    relay.up()
    clock.advance(31)
    back = sender(app, relay).run()
    after = sender(app, relay).run()

    assert (first.deferred, again.deferred, again.sent) == (2, 0, 0)
    assert (back.sent, after.sent, after.deferred) == (2, 0, 0)
    assert len(relay.to("alice@players.test")) == 1
    assert len(relay.to("referee@players.test")) == 1
    rows = app.read_models.view("mail_outbox").query("SELECT * FROM {mail_notices}")
    assert {(row["attempts"], row["last_error"]) for row in rows} == {(2, None)}


def test_a_crash_between_recording_and_sending_doubles_nothing(
    app: Matches, clock: ManualClock, relay: Postbox, database_url: str
) -> None:
    match = toy_match(app, clock)
    play_movement(app, match)
    app.read_models.catch_up(["mail_outbox"])  # recorded; the process dies before sending
    restarted = Matches(env=Settings(database_url).event_store_env(), clock=clock)
    try:
        passes = [sender(restarted, relay).run(), sender(app, relay).run()]
    finally:
        restarted.close()

    assert sum(p.sent for p in passes) == 2
    assert len(relay.to("alice@players.test")) == 1
    assert len(relay.to("referee@players.test")) == 1


class DiesAfterSending(RelayTransport):
    """A sender that dies between the relay's 250 and marking the notice sent."""

    def send(self, message: EmailMessage) -> None:
        super().send(message)
        raise SystemExit("killed")


def test_a_sender_killed_after_the_relay_took_a_notice_sends_the_same_message_again(
    app: Matches, clock: ManualClock, relay: Postbox
) -> None:
    match = toy_match(app, clock)
    play_movement(app, match)
    with pytest.raises(SystemExit):
        NoticeSender(app, DiesAfterSending(relay.url), 0).run()
    soon = sender(app, relay).run()  # alice's; the dead sender's claim on the referee's holds
    clock.advance(LEASE.total_seconds() + 1)
    later = sender(app, relay).run()

    assert (soon.sent, later.sent) == (1, 1)
    assert sender(app, relay).run().sent == 0
    first, second = relay.to("referee@players.test")  # the referee's came first
    assert first.as_bytes() == second.as_bytes()  # same Message-ID, same bytes
    assert len(relay.to("alice@players.test")) == 1


def test_a_seat_that_owes_an_order_gets_one_reminder_before_the_deadline(
    app: Matches, clock: ManualClock, relay: Postbox
) -> None:
    match = toy_match(app, clock, deadline_seconds=3600)
    confirmed(app, match["id"], match["bob"].seat, "bob@players.test")
    app.submit_order(match["id"], match["alice"].token, "1")  # alice has ordered

    early = sender(app, relay, reminder_seconds=600).run()  # the deadline is an hour away
    clock.advance(3000)
    due = sender(app, relay, reminder_seconds=600).run()
    clock.advance(60)
    again = sender(app, relay, reminder_seconds=600).run()

    assert (early.sent, due.sent, again.sent) == (0, 1, 0)
    [reminder] = relay.to("bob@players.test")
    assert header(reminder, "Message-ID") == f"<reminder-1-2.{match['id'].hex}@drts.localhost>"
    assert "Seat 2 has not ordered yet for movement 1" in text_of(reminder)
    assert relay.to("alice@players.test") == []
    assert match["bob"].order_address not in reminder.as_string()


def test_the_referee_gets_every_dispute_notice(
    app: Matches, clock: ManualClock, relay: Postbox
) -> None:
    match = toy_match(app, clock)
    play_movement(app, match)
    app.file_dispute(match["id"], match["bob"].token, [2], "my pick was lost")
    app.rule_dispute(match["id"], match["referee"], 1, "dismissed", "it is in the log")

    sender(app, relay).run()

    subjects = [header(m, "Subject") for m in relay.to("referee@players.test")]
    assert subjects[1:] == [
        f"drts: dispute 1 of match {match['id']} filed",
        f"drts: dispute 1 of match {match['id']} ruled",
    ]
    filed, ruled = relay.to("referee@players.test")[1:]
    assert "filed by seat 2" in text_of(filed) and "my pick was lost" in text_of(filed)
    assert "dismissed by referee" in text_of(ruled) and "it is in the log" in text_of(ruled)
    assert [header(m, "Subject") for m in relay.to("alice@players.test")] == [subjects[0]]


def test_upgrading_to_the_outbox_mails_no_movement_resolved_before(
    app: Matches, clock: ManualClock, relay: Postbox, database_url: str
) -> None:
    """Migration 0011 starts the projection at the log's head: no flood of old results."""
    match = toy_match(app, clock)
    play_movement(app, match)
    schema.downgrade(Settings(database_url), "0010")  # the store as it was before the outbox
    schema.upgrade(Settings(database_url))

    head = app.store.recorder.max_notification_id()
    assert app.read_models.view("mail_outbox").position(app.store.name) == head
    assert sender(app, relay).run().sent == 0
    app.submit_order(match["id"], match["alice"].token, "3")
    app.submit_order(match["id"], match["bob"].token, "3")  # movement 2 resolves
    assert sender(app, relay).run().sent == 2
    assert [header(m, "Subject") for m in relay.to("alice@players.test")] == [
        f"drts: match {match['id']} resolved, orders now for movement 3"
    ]


def test_a_reminder_the_relay_could_not_take_before_the_deadline_is_never_sent(
    app: Matches, clock: ManualClock, relay: Postbox
) -> None:
    toy_match(app, clock, deadline_seconds=3600)  # alice owes movement 1, unordered
    clock.advance(3300)
    relay.down()
    down = sender(app, relay, reminder_seconds=600).run()
    relay.up()
    clock.advance(400)  # past the deadline (nobody resolved the movement yet)
    late = sender(app, relay, reminder_seconds=600).run()

    assert (down.deferred, late.sent, late.failed) == (1, 0, 1)
    assert relay.to("alice@players.test") == []
    [row] = app.read_models.view("mail_outbox").query("SELECT * FROM {mail_notices}")
    assert row["failed_at"] is not None and "deadline passed" in row["last_error"]
