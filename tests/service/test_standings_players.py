"""Standings count players, not names (issue 45), on SQLite and PostgreSQL: a seat that
names a player identity counts for that player whatever its seat name; a seat naming
none counts under its name as before; a correction moves a player's result; upgrading
from 0012 rebuilds the standings of the stored matches by player."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from service import schema
from service.matches import Matches
from service.settings import Settings
from service.usecases.players import NewPlayer
from tests.service.readmodel_support import snapshots

pytestmark = pytest.mark.usefixtures("toy_rulesets")

Seat = tuple[str, NewPlayer | None]  # the seat's name, and the player it names (or none)


def join(matches: Matches, match_id: UUID, seat: Seat) -> str:
    name, player = seat
    if player is None:
        return matches.join(match_id, name).token
    return matches.join(match_id, name, player=player.name, player_key=player.key).token


def won(matches: Matches, winner: Seat, loser: Seat) -> UUID:
    """Plays a toy match to its end: the loser's seat (seat 2) is forfeited."""
    new = matches.create_match("toy", {"rounds": 3})
    for seat in (winner, loser):
        join(matches, new.match_id, seat)
    matches.start(new.match_id, new.referee_token)
    matches.act(new.match_id, new.referee_token, "forfeit", {"seat": 2}, "test")
    assert matches.get_match(new.match_id).finished
    return new.match_id


def rows(matches: Matches) -> dict[tuple[str, str | None], dict[str, Any]]:
    """Returns the toy standings by (name shown, player id)."""
    items = matches.standings(ruleset="toy", limit=500).items
    return {(r["player"], r["player_id"]): r for r in items}


def record(row: dict[str, Any]) -> tuple[int, int, int, int, int]:
    return row["played"], row["wins"], row["draws"], row["losses"], row["points"]


def test_two_players_seated_under_one_name_are_two_rows(matches):
    ann, bo = matches.players.create("Ann"), matches.players.create("Bo")
    won(matches, ("sam", ann), ("x", None))
    won(matches, ("y", None), ("sam", bo))
    standings = rows(matches)
    assert set(standings) == {
        ("Ann", str(ann.player_id)),
        ("Bo", str(bo.player_id)),
        *((name, None) for name in ("x", "y")),
    }
    assert record(standings["Ann", str(ann.player_id)]) == (1, 1, 0, 0, 3)
    assert record(standings["Bo", str(bo.player_id)]) == (1, 0, 0, 1, 0)


def test_one_player_under_two_seat_names_is_one_row(matches):
    ann = matches.players.create("Ann")
    won(matches, ("ann the first", ann), ("x", None))
    won(matches, ("x", None), ("ann again", ann))
    [row] = [r for r in rows(matches).values() if r["player_id"] is not None]
    assert (row["player"], row["player_id"]) == ("Ann", str(ann.player_id))
    assert record(row) == (2, 1, 0, 1, 3)


def test_seats_naming_no_player_count_under_their_name_as_before(matches):
    won(matches, ("alice", None), ("bob", None))
    won(matches, ("bob", None), ("alice", None))
    won(matches, ("alice", None), ("carol", None))
    standings = matches.standings(ruleset="toy").items
    assert [(r["player"], r["player_id"], record(r)) for r in standings] == [
        ("alice", None, (3, 2, 0, 1, 6)),
        ("bob", None, (2, 1, 0, 1, 3)),
        ("carol", None, (1, 0, 0, 1, 0)),
    ]


def test_a_seat_name_equal_to_a_players_name_is_not_that_player(matches):
    ann = matches.players.create("Ann")
    won(matches, ("Ann", ann), ("x", None))
    won(matches, ("y", None), ("Ann", None))  # a seat typing the player's name, no key
    standings = rows(matches)
    assert record(standings["Ann", str(ann.player_id)]) == (1, 1, 0, 0, 3)
    assert record(standings["Ann", None]) == (1, 0, 0, 1, 0)


def test_a_correction_moves_a_players_result(matches):
    ann, bo = matches.players.create("Ann"), matches.players.create("Bo")
    new = matches.create_match("toy", {"rounds": 1})
    tokens = [join(matches, new.match_id, seat) for seat in (("a", ann), ("b", bo))]
    matches.start(new.match_id, new.referee_token)
    matches.submit_order(new.match_id, tokens[0], "3")  # Ann 3 (+1?), Bo 1 (+1?): Ann wins
    matches.submit_order(new.match_id, tokens[1], "1")
    before = rows(matches)
    assert record(before["Ann", str(ann.player_id)]) == (1, 1, 0, 0, 3)
    changes = [{"seat": 1, "order": "1"}, {"seat": 2, "order": "3"}]
    matches.correct(new.match_id, new.referee_token, 1, changes, "the picks were swapped")
    after = rows(matches)
    assert record(after["Ann", str(ann.player_id)]) == (1, 0, 0, 1, 0)
    assert record(after["Bo", str(bo.player_id)]) == (1, 1, 0, 0, 3)
    followed = snapshots(matches.read_models)["standings"]
    matches.read_models.rebuild("standings")
    assert snapshots(matches.read_models)["standings"] == followed


def test_upgrading_from_0012_rebuilds_the_stored_matches_standings_by_player(
    empty_url, clock, toy_rulesets
):
    settings = Settings(empty_url)
    schema.upgrade(settings)
    app = Matches(env=settings.event_store_env(), clock=clock)
    try:
        ann = app.players.create("Ann")
        won(app, ("ann one", ann), ("bob", None))
        won(app, ("bob", None), ("ann two", ann))
        expected = app.standings(limit=500).items
        head = app.store.recorder.max_notification_id()
        name = app.store.name
    finally:
        app.close()
    schema.downgrade(settings, "0012")
    old_rows = (  # what the code of 0012 had counted: by seat name
        ("ann one", 1, 1, 0, 0, 3),
        ("ann two", 1, 0, 0, 1, 0),
        ("bob", 2, 1, 0, 1, 3),
    )
    engine = schema.make_engine(settings)
    try:
        with engine.begin() as connection:
            for row in old_rows:
                connection.exec_driver_sql(
                    "INSERT INTO standings (ruleset, player, played, wins, draws, losses, "
                    f"points) VALUES ('toy', '{row[0]}', {', '.join(map(str, row[1:]))})"
                )
            connection.exec_driver_sql(f"INSERT INTO standings_tracking VALUES ('{name}', {head})")
    finally:
        engine.dispose()
    schema.upgrade(settings)
    assert schema.current(settings) == schema.head()  # 0014 and every later one
    reopened = Matches(env=settings.event_store_env(), clock=clock)
    try:
        assert reopened.read_models.view("standings").position(name) == 0
        assert reopened.standings(limit=500).items == expected
        by_player = [r for r in expected if r["player_id"] is not None]
        assert [(r["player"], r["played"]) for r in by_player] == [("Ann", 2)]
    finally:
        reopened.close()
