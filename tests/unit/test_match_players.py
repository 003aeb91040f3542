"""The Match's player fields (issue 45): a seat names its player, a match is created
rated or not, both chained like every field, kept by a rematch, and absent from old
events, whose default says what they meant."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain.errors import SeatTakenError
from domain.integrity import first_broken_link
from domain.match import Match
from service.eventjson import public_item
from tests.support.match_events import ALICE, BOB, REFEREE, T0

pytestmark = pytest.mark.usefixtures("toy_rulesets")


def test_a_seat_names_its_player_and_one_player_holds_one_seat():
    match = Match.create(uuid4(), "toy", {}, "s", REFEREE, T0, rated=True)
    match.join("alice", ALICE, T0, "player-a")
    with pytest.raises(SeatTakenError, match="player player-a already holds seat 1"):
        match.join("other", BOB, T0, "player-a")
    match.join("bob", BOB, T0)
    assert [s.player_id for s in match.seats] == ["player-a", None]
    events = match.collect_events()
    assert events[0].rated is True
    assert [e.player_id for e in events[1:]] == ["player-a", None]
    items = [public_item(e, with_sealed=False) for e in events]
    assert items[0]["data"]["rated"] is True and items[2]["data"]["player_id"] is None
    assert first_broken_link(match.id, items) is None  # the new fields are chained


def test_a_match_is_not_rated_unless_created_so():
    match = Match.create(uuid4(), "toy", {}, "s", REFEREE, T0)
    assert match.rated is False and match.pending_events[0].rated is False


def test_an_old_seat_joined_without_a_player_means_none():
    assert Match.SeatJoined.player_id is None and Match.SeatAdded.player_id is None
    assert Match.Created.rated is False


def test_the_rematch_keeps_its_seats_players_and_its_rating():
    original = Match.create(uuid4(), "toy", {"rounds": 1}, "s", REFEREE, T0, rated=True)
    original.join("alice", ALICE, T0, "player-a")
    original.join("bob", BOB, T0, "player-b")
    original.start(REFEREE, T0)
    rematch = Match.rematch(original, uuid4(), "rematch-seed", T0)
    assert rematch.rated is True
    assert [s.player_id for s in rematch.seats] == ["player-a", "player-b"]
