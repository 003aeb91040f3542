"""A tournament seat's token and order address by mail over real SMTP (issue 45,
docs/mail.md#tournament-seats): when round 1 is paired, each seat whose player has a
confirmed address gets one letter from the real worker through the test's relay, and
plays by mail with it; an unconfirmed address gets nothing; a pairing retried after a
crash sends one letter, whose token works."""

from __future__ import annotations

import re
import time
import uuid
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

import pytest

from domain.match import Match
from domain.tournament import Tournament
from service.channels.mail.notices import SEND_NOTICES
from service.matches import Matches
from service.scheduling import producer_app
from service.tournaments import Tournaments
from service.usecases.players import NewPlayer
from tests.mail.conftest import DOMAIN, Postal, mail, wait_for
from tests.support.mail import body, player

LETTER = "drts: your seat"


@dataclass(frozen=True)
class Entrant:
    """A player of the test, its key and its address."""

    new: NewPlayer
    address: str


@dataclass(frozen=True)
class Letter:
    """What a seat letter told its player."""

    message: EmailMessage
    seat: int
    match_id: str
    token: str
    order_address: str


def send_notices(postal: Postal) -> None:
    """Asks the worker for a pass of the outbox (beat does it every DRTS_SWEEP_SECONDS)."""
    producer_app(postal.settings).send_task(SEND_NOTICES)


def entrant(postal: Postal, service: Matches, name: str, confirm: bool) -> Entrant:
    """Creates a player with an address, confirmed with the mailed code if `confirm`."""
    new = service.players.create(f"{name}-{uuid.uuid4().hex[:6]}")
    address = player(name)
    service.players.set_address(new.name, new.key, address)
    confirmation = wait_for(lambda: postal.relay.to(address), what="the confirmation")[0]
    (code,) = re.findall(r"\b[a-z2-7]{32}\b", body(confirmation))
    if confirm:
        service.players.confirm_address(new.name, new.key, code)
    return Entrant(new, address)


def letters_to(postal: Postal, address: str) -> list[EmailMessage]:
    return [m for m in postal.relay.to(address) if str(m["Subject"]).startswith(LETTER)]


def letter_of(postal: Postal, address: str) -> Letter:
    """Waits for the seat letter to `address` and reads it."""
    message = wait_for(lambda: letters_to(postal, address), what=f"{address}'s letter")[0]
    text = body(message)
    seat, match_id = re.search(r"You play seat (\d+) of match ([0-9a-f-]{36})", text).groups()  # type: ignore[union-attr]
    token = re.search(r"Seat token: +(\S+)", text).group(1)  # type: ignore[union-attr]
    order = re.search(r"Order address: +(\S+)", text).group(1)  # type: ignore[union-attr]
    return Letter(message, int(seat), match_id, token, order)


def tournament(service: Matches, *entrants: Entrant) -> tuple[Tournaments, Any]:
    """A round robin of Dris et Tessa (24-hour turns) with the entrants registered."""
    tournaments = Tournaments(service)
    tid = tournaments.create("Postal cup", "round_robin", "dris_et_tessa").tournament_id
    for one in entrants:
        tournaments.register(tid, one.new.name, one.new.key)
    return tournaments, tid


def quiet_passes(postal: Postal) -> None:
    """Runs two more passes of the outbox and waits for them to find nothing more."""
    send_notices(postal)
    send_notices(postal)
    time.sleep(3)


def test_a_confirmed_player_gets_its_seat_token_when_round_1_is_paired_and_orders_by_mail(
    postal: Postal,
) -> None:
    service = postal.matches()
    alice = entrant(postal, service, "alice", confirm=True)
    bob = entrant(postal, service, "bob", confirm=False)
    tournaments, tid = tournament(service, alice, bob)

    steps = tournaments.advance(tid)
    send_notices(postal)

    assert "round 1 paired" in steps
    got = letter_of(postal, alice.address)
    (match_id,) = tournaments.get(tid).rounds[0]["links"][0]
    assert got.match_id == match_id
    assert got.message["Message-ID"] == f"<seat-{got.seat}.{uuid.UUID(match_id).hex}@{DOMAIN}>"
    assert "First deadline: " in body(got.message) and "(movement 1)" in body(got.message)
    assert service.store.seat_of(match_id, got.token) == got.seat  # the token is the seat's
    seat = service.get_match(match_id).seats[got.seat - 1]
    assert seat.player_id == str(alice.new.player_id)
    quiet_passes(postal)
    assert len(letters_to(postal, alice.address)) == 1
    assert letters_to(postal, bob.address) == []  # unconfirmed: only the confirmation came
    assert len(postal.relay.to(bob.address)) == 1
    if got.seat == 2:  # bob's seat places first (DT-2): his player key gets him a token
        bobs = tournaments.seat_token(tid, bob.new.name, bob.new.key)["token"]
        service.submit_order(match_id, bobs, "a1")
    sent = mail(alice.address, got.order_address, "g7")

    code, text = postal.send(sent)

    assert code == 250 and text.startswith(b"2.0.0 stored: order digest"), text
    answer = postal.relay.answer_to(sent["Message-ID"])  # to her address, the seat's now
    assert answer["To"] == alice.address
    assert got.token not in answer.as_string()
    events = service.event_log(match_id, None)
    assert got.token not in str(events) and alice.address not in str(events)
    assert got.token not in str(tournaments.items(tid))


@pytest.mark.parametrize("crash", ["before the seats joined", "before the match was linked"])
def test_a_pairing_retried_after_a_crash_mails_one_letter_whose_token_works(
    postal: Postal, monkeypatch: pytest.MonkeyPatch, crash: str
) -> None:
    service = postal.matches()
    alice = entrant(postal, service, "alice", confirm=True)
    carol = entrant(postal, service, "carol", confirm=True)
    tournaments, tid = tournament(service, alice, carol)
    saving, crashed = service.store.save, []

    def crashing(*objs: Any, **kwargs: Any) -> Any:
        kind = Match.SeatJoined if crash.endswith("joined") else Tournament.MatchLinked
        if not crashed and any(
            isinstance(e, kind) for obj in objs for e in getattr(obj, "pending_events", [])
        ):
            crashed.append(crash)
            raise ConnectionError(f"the process died {crash}")
        return saving(*objs, **kwargs)

    monkeypatch.setattr(service.store, "save", crashing)
    with pytest.raises(ConnectionError):
        tournaments.advance(tid)  # round 1 paired, then the crash in creating its match
    assert crashed and tournaments.get(tid).rounds[0]["links"] == [[]]
    tournaments.advance(tid)
    tournaments.advance(tid)
    send_notices(postal)

    got = {one.address: letter_of(postal, one.address) for one in (alice, carol)}
    quiet_passes(postal)
    (match_id,) = tournaments.get(tid).rounds[0]["links"][0]
    for one in (alice, carol):
        assert len(letters_to(postal, one.address)) == 1
        assert got[one.address].match_id == match_id
        assert service.store.seat_of(match_id, got[one.address].token) == got[one.address].seat
    first = min(got.values(), key=lambda letter: letter.seat)
    sent = mail("whoever@players.test", first.order_address, "g7")
    code, text = postal.send(sent)
    assert code == 250 and text.startswith(b"2.0.0 stored: order digest"), text
