"""Players and ratings through the Matches application (issue 45), on SQLite and
PostgreSQL: names unique in any case, keys shown once and reissued, seats naming their
player by its key, and the ratings rebuilt from the finished rated matches."""

from __future__ import annotations

import email
import email.policy
import re
from uuid import UUID

import pytest

from domain.errors import SeatTakenError, WrongConfirmationCodeError, WrongPlayerKeyError
from domain.player import player_id
from service.channels.mail.outbox import MaildirOutbox
from service.errors import (
    MissingTokenError,
    NotOperatorError,
    PlayerNameTakenError,
    PlayerNotFoundError,
    UnknownPlayerError,
)
from service.limits import LimitError
from service.matches import Matches
from service.queries.ratings import MatchRatings, RatedMatch, rate
from service.settings import Settings
from service.usecases.players import NewPlayer

OPERATOR = "operator-secret"


@pytest.fixture
def operated(database_url: str, clock, toy_rulesets) -> Matches:  # type: ignore[no-untyped-def]
    app = Matches(
        env=Settings(database_url).event_store_env(), clock=clock, operator_token=OPERATOR
    )
    yield app
    app.close()


def finished(
    app: Matches, winner: NewPlayer, loser: NewPlayer, rated: bool = True, ruleset: str = "toy"
) -> UUID:
    """Plays a rated two-seat match to its end: the loser's seat forfeits."""
    new = app.create_match(ruleset, {"rounds": 3}, rated=rated)
    app.join(new.match_id, "w", player=winner.name, player_key=winner.key)
    app.join(new.match_id, "l", player=str(loser.player_id), player_key=loser.key)
    app.start(new.match_id, new.referee_token)
    app.act(new.match_id, new.referee_token, "forfeit", {"seat": 2}, "test")
    assert app.get_match(new.match_id).finished
    return new.match_id


def test_a_player_is_found_by_its_id_or_its_name_in_any_case(operated):
    players = operated.players
    new = players.create("Alice")
    assert new.player_id == player_id("alice")
    for ref in (new.player_id, str(new.player_id), "alice", "ALICE"):
        assert players.show(ref).name == "Alice"
    with pytest.raises(PlayerNotFoundError, match="nobody"):
        players.show("nobody")


def test_a_name_taken_in_any_case_is_refused(operated):
    players = operated.players
    players.create("Alice")
    with pytest.raises(PlayerNameTakenError, match="'ALICE' is taken"):
        players.create("ALICE")
    with pytest.raises(LimitError):
        players.create(" Alice")


def test_the_operator_reissues_a_key_and_the_old_one_stops(operated):
    players = operated.players
    new = players.create("Alice")
    players.authenticate("alice", new.key)
    with pytest.raises(NotOperatorError):
        players.reissue("not-the-operator", "alice")
    key = players.reissue(OPERATOR, "alice", "lost")
    assert key != new.key
    players.authenticate("alice", key)
    with pytest.raises(WrongPlayerKeyError):
        players.authenticate("alice", new.key)


def test_an_address_is_set_with_the_key_mailed_a_code_and_confirmed_by_it(operated, tmp_path):
    operated.outbox = MaildirOutbox(str(tmp_path / "outbox"))
    players = operated.players
    new = players.create("Alice")
    with pytest.raises(WrongPlayerKeyError):
        players.set_address("alice", "wrong", "alice@example.org")
    players.set_address("alice", new.key, "alice@EXAMPLE.org")
    (mail,) = (tmp_path / "outbox" / "new").iterdir()
    letter = email.message_from_bytes(mail.read_bytes(), policy=email.policy.default)
    assert letter["To"] == "alice@example.org"
    body = letter.get_body()
    assert body is not None
    (code,) = re.findall(r"\b[a-z2-7]{32}\b", body.get_content())
    assert players.get("alice").confirmed_address is None
    with pytest.raises(WrongConfirmationCodeError):
        players.confirm_address("alice", new.key, "a" * 32)
    assert players.confirm_address("alice", new.key, code) == "alice@example.org"
    assert players.get("alice").confirmed_address == "alice@example.org"
    assert "alice@example.org" not in repr(players.show("alice"))  # the public view


def test_a_seat_names_its_player_only_with_its_key(operated):
    players = operated.players
    alice = players.create("Alice")
    new = operated.create_match("toy")
    with pytest.raises(WrongPlayerKeyError):
        operated.join(new.match_id, "a", player="alice", player_key="wrong")
    with pytest.raises(MissingTokenError):
        operated.join(new.match_id, "a", player="alice")
    with pytest.raises(UnknownPlayerError):
        operated.join(new.match_id, "a", player="nobody", player_key="x")
    operated.join(new.match_id, "a", player="alice", player_key=alice.key)
    with pytest.raises(SeatTakenError, match="already holds seat 1"):
        operated.join(new.match_id, "b", player="ALICE", player_key=alice.key)
    operated.join(new.match_id, "b")  # a seat without a player, as before
    seats = operated.get_match(new.match_id).seats
    assert [s.player_id for s in seats] == [str(alice.player_id), None]


def test_a_rated_match_is_rated_and_an_unrated_one_is_not(operated):
    players = operated.players
    alice, bob = players.create("Alice"), players.create("Bob")
    rated = finished(operated, alice, bob)
    finished(operated, bob, alice, rated=False)
    table = players.ratings("toy")
    assert [row.player_id for row in table.table.players] == [
        str(alice.player_id),
        str(bob.player_id),
    ]
    assert table.names == {str(alice.player_id): "Alice", str(bob.player_id): "Bob"}
    (change,) = table.table.players[0].history
    assert change.match_id == rated and change.mu_after == 27.635389
    own = players.ratings_of("bob")
    assert [(t.ruleset, t.version, r.mu) for t, r in own.ratings] == [("toy", 1, 22.364611)]


def test_a_match_with_a_seat_naming_no_player_is_not_rated(operated):
    players = operated.players
    alice = players.create("Alice")
    new = operated.create_match("toy", rated=True)
    operated.join(new.match_id, "a", player="alice", player_key=alice.key)
    operated.join(new.match_id, "b")
    operated.start(new.match_id, new.referee_token)
    operated.act(new.match_id, new.referee_token, "forfeit", {"seat": 2}, "test")
    assert players.ratings("toy").table.players == ()


def test_the_rebuild_folds_the_matches_in_the_order_they_finished(operated, database_url):
    players = operated.players
    alice, bob = players.create("Alice"), players.create("Bob")
    first = operated.create_match("toy", {"rounds": 3}, rated=True)
    later = finished(operated, bob, alice)  # created after `first`, finished before it
    operated.join(first.match_id, "w", player="alice", player_key=alice.key)
    operated.join(first.match_id, "l", player="bob", player_key=bob.key)
    operated.start(first.match_id, first.referee_token)
    operated.act(first.match_id, first.referee_token, "forfeit", {"seat": 2}, "test")
    ratings = MatchRatings(operated.store)
    assert ratings.finish_order() == [later, first.match_id]
    a, b = str(alice.player_id), str(bob.player_id)
    expected = rate(
        [
            RatedMatch(later, "toy", 1, ((b,), (a,)), (1, 2)),
            RatedMatch(first.match_id, "toy", 1, ((a,), (b,)), (1, 2)),
        ]
    )
    assert ratings.tables() == expected
    reopened = Matches(env=Settings(database_url).event_store_env())
    try:
        assert MatchRatings(reopened.store).tables() == expected  # another process, the same table
    finally:
        reopened.close()


def test_a_stored_match_keeps_its_rated_flag_and_its_seats_players(operated, database_url):
    players = operated.players
    alice = players.create("Alice")
    new = operated.create_match("toy", rated=True)
    operated.join(new.match_id, "a", player="alice", player_key=alice.key)
    plain = operated.create_match("toy")
    reopened = Matches(env=Settings(database_url).event_store_env())
    try:
        match = reopened.get_match(new.match_id)
        assert match.rated and match.seats[0].player_id == str(alice.player_id)
        assert not reopened.get_match(plain.match_id).rated
    finally:
        reopened.close()


def test_a_snapshot_keeps_the_rated_flag_and_the_seats_players(operated, database_url):
    players = operated.players
    alice = players.create("Alice")
    new = operated.create_match("toy", rated=True)
    operated.join(new.match_id, "a", player="alice", player_key=alice.key)
    operated.store.take_snapshot(new.match_id)
    snapshots = list(operated.store.snapshots.get(new.match_id))  # type: ignore[union-attr]
    assert snapshots and snapshots[-1].state["rated"] is True
    reopened = Matches(env=Settings(database_url).event_store_env())
    try:
        match = reopened.get_match(new.match_id)
        assert match.rated and match.seats[0].player_id == str(alice.player_id)
    finally:
        reopened.close()


def test_a_match_id_is_not_a_player(operated):
    new = operated.create_match("toy")
    with pytest.raises(PlayerNotFoundError):
        operated.players.show(str(new.match_id))
