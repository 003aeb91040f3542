"""The rated matches read model and the ratings folded from it (issue 45), on SQLite and
PostgreSQL: the tables equal a rebuild from the matches loaded from the log
(tests/support/ratings_oracle.py), a corrected match moves to where it finished again,
a voided rematch and matches that do not count have no row, a read with nothing new
folds nothing, and an upgraded database rates the matches finished before the upgrade."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from service import schema
from service.matches import Matches
from service.queries import ratings
from service.settings import Settings
from service.usecases.players import NewPlayer
from tests.support.corrections import TEAMS
from tests.support.draws import DRAW, draw_orders
from tests.support.ratings_oracle import finish_order, rebuilt_tables

OPERATOR = "operator-secret"


@pytest.fixture
def app(database_url: str, clock: Any, toy_rulesets: None) -> Iterator[Matches]:
    made = Matches(
        env=Settings(database_url).event_store_env(), clock=clock, operator_token=OPERATOR
    )
    yield made
    made.close()


def play_toy(
    app: Matches,
    players: list[NewPlayer | None],
    picks: list[str],
    ruleset: str = "toy",
    rated: bool = True,
) -> tuple[UUID, str]:
    """Plays a one-round toy match, a seat per player (None: a seat naming no player)
    sending its pick; returns its id and referee token."""
    new = app.create_match(ruleset, {"rounds": 1}, seats=len(players), rated=rated)
    tokens = [
        app.join(new.match_id, f"seat {n}").token
        if player is None
        else app.join(new.match_id, f"seat {n}", player=player.name, player_key=player.key).token
        for n, player in enumerate(players, 1)
    ]
    app.start(new.match_id, new.referee_token)
    for token, pick in zip(tokens, picks, strict=True):
        app.submit_order(new.match_id, token, pick)
    assert app.get_match(new.match_id).finished
    return new.match_id, new.referee_token


def play_team23(app: Matches, clock: Any, players: list[NewPlayer]) -> UUID:
    """Plays a rated two-movement DRTS Team 23 match of eight players to its end: teams
    formed in movement 1 (green, yellow, blue), seat 4's Water moving in movement 2."""
    config = {"close_early": True, "movements": 2, "max_movements": 2}
    new = app.create_match("drts_team23", config, seats=8, rated=True)
    tokens = [
        app.join(new.match_id, f"s{n}", player=p.name, player_key=p.key).token
        for n, p in enumerate(players, 1)
    ]
    app.start(new.match_id, new.referee_token)
    for orders in ({s: f"team {t}" for s, t in enumerate(TEAMS, 1)}, {4: "water 10>16"}):
        for seat, token in enumerate(tokens, 1):
            clock.advance(1)
            app.submit_order(new.match_id, token, orders.get(seat, "hold"))
    assert app.get_match(new.match_id).finished
    return new.match_id


def rows(app: Matches) -> list[dict[str, Any]]:
    app.read_models.catch_up(["rated_matches"])
    return app.read_models.view("rated_matches").query(
        "SELECT match_id, position, teams, ranks FROM {rated_matches} ORDER BY position"
    )


def test_the_tables_equal_a_rebuild_from_the_matches_loaded_from_the_log(app, clock, database_url):
    ann, bo, cy, di = (app.players.create(name) for name in ("Ann", "Bo", "Cy", "Di"))
    play_toy(app, [ann, bo], ["3", "1"])
    play_toy(app, [bo, cy, di], ["2", "3", "1"])  # free-for-all of three
    play_toy(app, [cy, ann], ["2", "2"])  # the same pick: no score but a bonus
    play_toy(app, [di, ann], ["1", "3"], ruleset="toy_acc")  # another table
    play_team23(app, clock, [app.players.create(f"T{n}") for n in range(1, 9)])
    expected = rebuilt_tables(app)
    assert set(expected) == {("toy", 1), ("toy_acc", 1), ("drts_team23", 2)}
    assert app.players.rating_tables.tables() == expected
    assert app.players.rating_tables.finish_order() == finish_order(app)
    app.read_models.rebuild("rated_matches")
    assert ratings.MatchRatings(app.store).tables() == expected
    reopened = Matches(env=Settings(database_url).event_store_env())
    try:
        assert ratings.MatchRatings(reopened.store).tables() == expected  # another process
    finally:
        reopened.close()


def test_a_corrected_match_moves_to_where_it_finished_again(app):
    ann, bo = app.players.create("Ann"), app.players.create("Bo")
    first, referee = play_toy(app, [ann, bo], ["3", "1"])  # Ann wins
    later, _ = play_toy(app, [bo, ann], ["3", "1"])  # Bo wins
    assert app.players.rating_tables.finish_order() == [first, later]
    assert rows(app)[0]["ranks"] == "[1, 2]"  # Ann won it
    app.correct(first, referee, 1, [{"seat": 1, "order": "1"}, {"seat": 2, "order": "3"}], "x")
    assert app.players.rating_tables.finish_order() == [later, first]
    moved = rows(app)[-1]
    assert moved["teams"] == f'[["{ann.player_id}"], ["{bo.player_id}"]]'  # by seat
    assert moved["match_id"] == first and moved["ranks"] == "[2, 1]"  # Bo won it now
    assert app.players.rating_tables.tables() == rebuilt_tables(app)


def test_a_correction_that_unfinishes_a_match_takes_it_out(app):
    ann, bo = app.players.create("Ann"), app.players.create("Bo")
    first, referee = play_toy(app, [ann, bo], ["3", "1"])
    later, _ = play_toy(app, [bo, ann], ["3", "1"])
    app.players.rating_tables.tables()  # folded with both
    app.correct(first, referee, 1, [{"seat": 2, "order": None}], "bo's order was not his")
    assert not app.get_match(first).finished
    assert [row["match_id"] for row in rows(app)] == [later]
    assert app.players.rating_tables.tables() == rebuilt_tables(app)


def test_a_voided_rematch_takes_its_result_out(app):
    """DW-5: a rated draw's rematch finished (a forfeit), then a correction of the drawn
    match makes it a win and voids the rematch: only the corrected match still counts."""
    ann, bo = app.players.create("Ann"), app.players.create("Bo")
    new = app.create_match("district_war", seed=json.loads(DRAW.read_text())["seed"], rated=True)
    tokens = {
        1: app.join(new.match_id, "ada", player=ann.name, player_key=ann.key).token,
        2: app.join(new.match_id, "bo", player=bo.name, player_key=bo.key).token,
    }
    app.start(new.match_id, new.referee_token)
    for seat, order in draw_orders():
        app.submit_order(new.match_id, tokens[seat], order)  # type: ignore[arg-type]
    rematch = app.get_match(new.match_id).rematch_id
    assert rematch is not None
    app.act(rematch, OPERATOR, "forfeit", {"seat": 2}, "test")
    assert {row["match_id"] for row in rows(app)} == {new.match_id, UUID(str(rematch))}
    app.correct(new.match_id, new.referee_token, 23, [{"seat": 2, "order": "c4"}], "c4")
    assert app.get_match(rematch).voided is not None
    assert [row["match_id"] for row in rows(app)] == [new.match_id]
    assert app.players.rating_tables.tables() == rebuilt_tables(app)


def test_an_unrated_match_and_one_with_a_seat_naming_no_player_have_no_row(app):
    ann, bo = app.players.create("Ann"), app.players.create("Bo")
    play_toy(app, [ann, bo], ["3", "1"], rated=False)
    play_toy(app, [ann, None], ["3", "1"])
    assert len(finish_order(app)) == 2 and rows(app) == []
    assert app.players.ratings("toy").table.players == ()


def test_a_read_with_nothing_new_folds_nothing(app, monkeypatch):
    folds: list[int] = []

    def counted(matches: Any) -> Any:
        folds.append(1)
        return rate(matches)

    rate = ratings.rate
    monkeypatch.setattr(ratings, "rate", counted)
    ann, bo = app.players.create("Ann"), app.players.create("Bo")
    play_toy(app, [ann, bo], ["3", "1"])
    first = app.players.ratings("toy")
    assert app.players.ratings("toy") == first and app.players.ratings_of("ann")
    assert len(folds) == 1
    app.create_match("toy", rated=True)  # events, but no finish: nothing to fold again
    app.players.ratings("toy")
    assert len(folds) == 1
    play_toy(app, [bo, ann], ["3", "1"])
    assert app.players.ratings("toy") != first and len(folds) == 2


def test_an_upgraded_database_rates_the_matches_finished_before_it(app, database_url):
    ann, bo = app.players.create("Ann"), app.players.create("Bo")
    play_toy(app, [ann, bo], ["3", "1"])
    play_toy(app, [bo, ann], ["2", "1"])
    expected = rebuilt_tables(app)
    app.close()
    schema.downgrade(Settings(database_url), "0012")  # as the database stood before 0015
    schema.upgrade(Settings(database_url))
    upgraded = Matches(env=Settings(database_url).event_store_env())
    try:
        assert ratings.MatchRatings(upgraded.store).tables() == expected
        assert len(expected[("toy", 1)].players[0].history) == 2
    finally:
        upgraded.close()
