"""A tournament seat's letter through the outbox (issue 45, docs/mail.md#tournament-seats):
NoticeSender mails it through an aiosmtpd relay in a real SMTP exchange, on SQLite and
PostgreSQL, with a hand-driven clock. A pass before the seat joined waits for it; a
token reissued before the letter went makes the letter fail for good; a sent letter's
secret is cleared."""

from __future__ import annotations

import email
import email.policy
import re
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from domain.match import Match
from service.channels.mail import seatletters
from service.channels.mail.notices import BACKOFF_SECONDS, NoticeSender
from service.channels.mail.outbox import MaildirOutbox, RelayTransport
from service.clock import ManualClock
from service.matches import Matches
from service.tournaments import Tournaments
from service.usecases.players import NewPlayer
from tests.mail.conftest import Relay, free_port
from tests.support.mail import body
from tests.support.tournament_games import play_draw

ADDRESS = "ada@players.test"


class Postbox:
    """The relay of one test, capturing what it is given."""

    def __init__(self) -> None:
        self.port, self.capture = free_port(), Relay()
        self.controller = Controller(self.capture, hostname="127.0.0.1", port=self.port)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def to(self, address: str) -> list[EmailMessage]:
        return self.capture.to(address)


@pytest.fixture
def relay() -> Iterator[Postbox]:
    postbox = Postbox()
    postbox.controller.start()
    yield postbox
    postbox.controller.stop()


@pytest.fixture
def app(matches: Matches, tmp_path: Any) -> Matches:
    matches.outbox = MaildirOutbox(str(tmp_path / "confirmations"))
    return matches


def confirmed_player(app: Matches, tmp_path: Any, name: str, address: str) -> NewPlayer:
    new = app.players.create(name)
    app.players.set_address(name, new.key, address)
    (sent,) = (tmp_path / "confirmations" / "new").iterdir()
    letter = email.message_from_bytes(sent.read_bytes(), policy=email.policy.default)
    (code,) = re.findall(r"\b[a-z2-7]{32}\b", letter.get_body().get_content())  # type: ignore[union-attr]
    app.players.confirm_address(name, new.key, code)
    sent.unlink()
    return new


def paired(app: Matches, tmp_path: Any) -> tuple[Tournaments, Any, NewPlayer]:
    """A toy round robin of ada (confirmed address) and bo, registered, not yet advanced."""
    ada = confirmed_player(app, tmp_path, "ada", ADDRESS)
    bo = app.players.create("bo")
    tournaments = Tournaments(app)
    tid = tournaments.create("Letters", "round_robin", "toy").tournament_id
    for one in (ada, bo):
        tournaments.register(tid, one.name, one.key)
    return tournaments, tid, ada


def letter_rows(app: Matches) -> list[dict[str, Any]]:
    return list(
        app.read_models.view("mail_outbox").query(
            "SELECT * FROM {mail_notices} WHERE kind = :kind", {"kind": seatletters.SEAT}
        )
    )


def test_a_pass_before_the_seat_joined_waits_and_the_retried_join_gets_the_letter_mailed(
    app: Matches,
    clock: ManualClock,
    relay: Postbox,
    tmp_path: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournaments, tid, ada = paired(app, tmp_path)
    saving = app.store.save

    def dying(*objs: Any, **kwargs: Any) -> Any:
        if any(isinstance(e, Match.SeatJoined) for o in objs for e in o.pending_events):
            raise ConnectionError("the process died before the seats joined")
        return saving(*objs, **kwargs)

    monkeypatch.setattr(app.store, "save", dying)
    with pytest.raises(ConnectionError):
        tournaments.advance(tid)
    sender = NoticeSender(app, RelayTransport(relay.url), 0)
    assert sender.run().deferred == 1 and relay.to(ADDRESS) == []  # not seated yet
    monkeypatch.setattr(app.store, "save", saving)
    tournaments.advance(tid)
    clock.advance(BACKOFF_SECONDS)

    assert sender.run().sent == 1
    (letter,) = relay.to(ADDRESS)
    token = re.search(r"Seat token: +(\S+)", body(letter)).group(1)  # type: ignore[union-attr]
    (match_id,) = tournaments.get(tid).rounds[0]["links"][0]
    seat = app.store.seat_of(match_id, token)
    assert app.get_match(match_id).seats[seat - 1].player_id == str(ada.player_id)
    (row,) = letter_rows(app)
    assert row["sent_at"] is not None and row["secret"] is None  # the token is gone
    assert sender.run().sent == 0


def test_a_token_reissued_before_the_letter_went_makes_it_fail_for_good(
    app: Matches,
    relay: Postbox,
    tmp_path: Any,
) -> None:
    tournaments, tid, ada = paired(app, tmp_path)
    tournaments.advance(tid)
    tournaments.seat_token(tid, ada.name, ada.key)  # the player took a new token

    done = NoticeSender(app, RelayTransport(relay.url), 0).run()

    assert (done.sent, done.failed) == (0, 1) and relay.to(ADDRESS) == []
    (row,) = letter_rows(app)
    assert row["failed_at"] is not None and row["secret"] is None
    assert "reissued" in row["last_error"]


def drawn_final(app: Matches, tmp_path: Any) -> tuple[Tournaments, Any, NewPlayer, str]:
    """A District War final of ada (confirmed address) and bo whose match was drawn
    (DW-5): the tournament has not linked its rematch yet."""
    ada = confirmed_player(app, tmp_path, "ada", ADDRESS)
    bo = app.players.create("bo")
    tournaments = Tournaments(app)
    tid = tournaments.create("Final", "elimination", "district_war").tournament_id
    for one in (ada, bo):
        tournaments.register(tid, one.name, one.key)
    tournaments.advance(tid)
    (drawn,) = tournaments.get(tid).rounds[0]["links"][0]
    play_draw(tournaments, tid, drawn, {str(p.player_id): p for p in (ada, bo)})
    return tournaments, tid, ada, drawn


def test_a_rematch_linked_as_the_replay_mails_its_seat_a_letter(
    app: Matches, relay: Postbox, tmp_path: Any
) -> None:
    tournaments, tid, ada, drawn = drawn_final(app, tmp_path)
    tournaments.advance(tid)
    links = tournaments.get(tid).rounds[0]["links"][0]
    assert links[0] == drawn and len(links) == 2
    rematch = links[1]

    done = NoticeSender(app, RelayTransport(relay.url), 0).run()

    letters = [m for m in relay.to(ADDRESS) if rematch in str(m["Subject"])]
    assert done.sent >= 1 and len(letters) == 1
    token = re.search(r"Seat token: +(\S+)", body(letters[0])).group(1)  # type: ignore[union-attr]
    seat = app.store.seat_of(rematch, token)
    assert app.get_match(rematch).seats[seat - 1].player_id == str(ada.player_id)


def test_a_rematch_letter_waits_for_its_seats_token_and_is_mailed_once(
    app: Matches,
    clock: ManualClock,
    relay: Postbox,
    tmp_path: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournaments, tid, _, drawn = drawn_final(app, tmp_path)
    rematch = str(app.get_match(drawn).rematch_id)
    saving = app.store.save

    def dying(*objs: Any, **kwargs: Any) -> Any:
        if any(isinstance(e, Match.SeatTokenReissued) for o in objs for e in o.pending_events):
            raise ConnectionError("the process died before the rematch's token was saved")
        return saving(*objs, **kwargs)

    monkeypatch.setattr(app.store, "save", dying)
    with pytest.raises(ConnectionError):
        tournaments.advance(tid)
    sender = NoticeSender(app, RelayTransport(relay.url), 0)
    sender.run()
    (row,) = [r for r in letter_rows(app) if str(r["match_id"]) == rematch]
    assert row["failed_at"] is None and "awaits" in row["last_error"]  # not stale: waiting
    monkeypatch.setattr(app.store, "save", saving)
    tournaments.advance(tid)
    assert tournaments.get(tid).rounds[0]["links"][0] == [drawn, rematch]
    clock.advance(BACKOFF_SECONDS)
    sender.run()
    letters = [m for m in relay.to(ADDRESS) if rematch in str(m["Subject"])]
    assert len(letters) == 1
    token = re.search(r"Seat token: +(\S+)", body(letters[0])).group(1)  # type: ignore[union-attr]
    assert app.store.seat_of(rematch, token) in (1, 2)
