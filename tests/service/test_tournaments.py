"""Running tournaments through the Tournaments facade (issue 45), on SQLite and
PostgreSQL: a District War round robin of 4 played to the end, a crash between a
match's creation and its link recovered without a second match, two advances racing
giving one pairing, and the audit catching a pairing or a result changed in the store."""

from __future__ import annotations

import threading
from uuid import UUID

import pytest

from domain.tournament.errors import TournamentPausedError
from service.matches import Matches
from service.settings import Settings
from service.tournaments import NotOrganiserError, Tournaments
from service.tournaments import tables as table_module
from tests.support.tamper import edit_json, tamper
from tests.support.tournament_rows import rewrite

OPERATOR = "operator-secret"


@pytest.fixture
def app(database_url: str, clock) -> Matches:  # type: ignore[no-untyped-def]
    matches = Matches(
        env=Settings(database_url).event_store_env(), clock=clock, operator_token=OPERATOR
    )
    yield matches
    matches.close()


def entered(app: Matches, names=("ada", "bo", "cy", "di"), ruleset="district_war", **kwargs):  # type: ignore[no-untyped-def]
    """Returns (tournaments, new tournament, players) with the players registered."""
    tournaments, players = Tournaments(app), app.players
    new = tournaments.create("Spring Cup", "round_robin", ruleset, **kwargs)
    made = {name: players.create(name) for name in names}
    for player in made.values():
        tournaments.register(new.tournament_id, player.name, player.key)
    return tournaments, new, made


def current_matches(tournaments: Tournaments, tournament_id: UUID) -> list[str]:
    record = tournaments.get(tournament_id).rounds[-1]
    return [links[-1] for links in record["links"]]


def play_round(app: Matches, tournaments: Tournaments, tournament_id: UUID, made) -> None:  # type: ignore[no-untyped-def]
    """Finishes each match of the round: the second seat's player gets its token by its
    key and sends orders; then the referee (the operator) forfeits the second seat."""
    by_id = {str(p.player_id): p for p in made.values()}
    for match_id in current_matches(tournaments, tournament_id):
        match = app.get_match(match_id)
        assert match.started and match.rated
        second = by_id[str(match.seats[1].player_id)]
        seat = tournaments.seat_token(tournament_id, second.name, second.key)
        assert seat["match_id"] == match_id and seat["seat"] == 2
        assert app.open_orders(match_id, seat["token"]) is not None
        app.act(match_id, OPERATOR, "forfeit", {"seat": 2}, "test")
        assert app.get_match(match_id).finished


def test_a_round_robin_of_four_is_played_to_the_end(app):  # type: ignore[no-untyped-def]
    tournaments, new, made = entered(app)
    tid = new.tournament_id
    steps = tournaments.advance(tid)
    assert steps[0] == "round 1 paired" and len(current_matches(tournaments, tid)) == 2
    assert tournaments.advance(tid) == []  # idempotent while the matches are played
    for number in (1, 2, 3):
        assert len(tournaments.get(tid).rounds) == number
        play_round(app, tournaments, tid, made)
        tournaments.advance(tid)
    tournament = tournaments.get(tid)
    assert tournament.finished and tournament.seed_revealed
    assert len({m for r in tournament.rounds for links in r["links"] for m in links}) == 6
    standing = tournament.standing
    assert [entry["rank"] for entry in standing] == [1, 2, 3, 4]
    assert sum(entry["points"] for entry in standing) == 12  # six games, 2 points each
    assert tournaments.standings(tid)[0].player_id == standing[0]["player_id"]
    table = app.players.ratings("district_war").table
    assert len(table.players) == 4
    assert sum(len(p.history) for p in table.players) == 12
    report = tournaments.verify(tid)
    assert report.ok, report.divergence
    assert report.pairings_derived and report.rounds == 3 and report.results == 6


def test_before_the_finish_verify_says_pairings_wait_for_the_seed(app):  # type: ignore[no-untyped-def]
    tournaments, new, _made = entered(app)
    tournaments.advance(new.tournament_id)
    report = tournaments.verify(new.tournament_id)
    assert report.ok and not report.pairings_derived
    assert "once the seed is revealed" in report.notes[0]


def test_a_crash_between_creating_a_match_and_linking_it_is_recovered(app, monkeypatch):  # type: ignore[no-untyped-def]
    tournaments, new, _made = entered(app)
    real = table_module.table_match
    calls = []

    def crashing(*args, **kwargs):  # type: ignore[no-untyped-def]
        match_id = real(*args, **kwargs)
        calls.append(match_id)
        raise RuntimeError("the worker died before MatchLinked")

    monkeypatch.setattr("service.tournaments.running.table_match", crashing)
    with pytest.raises(RuntimeError):
        tournaments.advance(new.tournament_id)
    monkeypatch.setattr("service.tournaments.running.table_match", real)
    tournaments.advance(new.tournament_id)
    linked = current_matches(tournaments, new.tournament_id)
    assert str(calls[0]) == linked[0]
    created = [m for m in app.match_ids()]
    assert len(created) == 2  # one match per table, none twice


def test_two_advances_racing_give_one_pairing(database_url, clock):  # type: ignore[no-untyped-def]
    first = Matches(env=Settings(database_url).event_store_env(), clock=clock)
    second = Matches(env=Settings(database_url).event_store_env(), clock=clock)
    try:
        tournaments, new, _made = entered(first)
        barrier = threading.Barrier(2)
        errors: list[BaseException] = []

        def run(app: Matches) -> None:
            barrier.wait()
            try:
                Tournaments(app).advance(new.tournament_id)
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=run, args=(a,)) for a in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        items = tournaments.items(new.tournament_id)
        assert [i["type"] for i in items].count("RoundPaired") == 1
        assert [i["type"] for i in items].count("MatchLinked") == 2
        assert len(list(first.match_ids())) == 2
    finally:
        first.close()
        second.close()


def test_pause_and_withdraw_need_the_organiser(app):  # type: ignore[no-untyped-def]
    tournaments, new, _made = entered(app)
    with pytest.raises(NotOrganiserError):
        tournaments.pause(new.tournament_id, "not the token")
    tournaments.pause(new.tournament_id, new.organiser_token, "lunch")
    assert tournaments.advance(new.tournament_id) == []
    with pytest.raises(TournamentPausedError):
        tournaments.get(new.tournament_id).pair_round(1, [], [], app.clock())
    tournaments.resume(new.tournament_id, new.organiser_token)
    tournaments.withdraw(new.tournament_id, "di", new.organiser_token, "ill")
    tournaments.advance(new.tournament_id)
    assert tournaments.get(new.tournament_id).rounds[0]["byes"] != []


def finished_tournament(app: Matches):  # type: ignore[no-untyped-def]
    tournaments, new, made = entered(app)
    tid = new.tournament_id
    tournaments.advance(tid)
    for _ in range(3):
        play_round(app, tournaments, tid, made)
        tournaments.advance(tid)
    assert tournaments.verify(tid).ok
    return tournaments, tid


def _version_of(tournaments: Tournaments, tid: UUID, type_name: str) -> int:
    return next(i["version"] for i in tournaments.items(tid) if i["type"] == type_name)


def test_verify_catches_a_pairing_changed_in_the_store(app, database_url):  # type: ignore[no-untyped-def]
    tournaments, tid = finished_tournament(app)
    version = _version_of(tournaments, tid, "RoundPaired")

    def swap(data):  # type: ignore[no-untyped-def]
        data["tables"][0].reverse()

    tamper(database_url, tid, version, edit_json(swap))
    report = _audit(database_url, tid)
    assert not report.ok and "chain breaks at event" in str(report.divergence)


def test_verify_catches_a_result_changed_in_the_store_by_its_chain(app, database_url):  # type: ignore[no-untyped-def]
    tournaments, tid = finished_tournament(app)
    version = _version_of(tournaments, tid, "ResultRecorded")
    items = tournaments.items(tid)
    recorded = items[version - 1]["data"]
    winner = next(p for p, pts in recorded["points"].items() if pts == 2)
    loser = next(p for p in recorded["points"] if p != winner)

    def flip(data):  # type: ignore[no-untyped-def]
        data["points"] = {winner: 0, loser: 2}

    tamper(database_url, tid, version, edit_json(flip))
    fresh = Matches(env=Settings(database_url).event_store_env())
    try:
        report = Tournaments(fresh).verify(tid)
    finally:
        fresh.close()
    assert not report.ok and f"event {version}" in str(report.divergence)


def _audit(database_url: str, tid: UUID):  # type: ignore[no-untyped-def]
    fresh = Matches(env=Settings(database_url).event_store_env())
    try:
        return Tournaments(fresh).verify(tid)
    finally:
        fresh.close()


def test_verify_catches_a_pairing_changed_and_rechained_in_the_store(app, database_url):  # type: ignore[no-untyped-def]
    tournaments, tid = finished_tournament(app)
    version = [i["version"] for i in tournaments.items(tid) if i["type"] == "RoundPaired"][1]

    def swap(data):  # type: ignore[no-untyped-def]
        data["tables"][0].reverse()

    rewrite(database_url, tid, version, swap)
    report = _audit(database_url, tid)
    assert not report.ok
    assert "round 2 was recorded as" in str(report.divergence), report.divergence


def test_verify_catches_a_result_changed_and_rechained_in_the_store(app, database_url):  # type: ignore[no-untyped-def]
    tournaments, tid = finished_tournament(app)
    version = _version_of(tournaments, tid, "ResultRecorded")
    recorded = tournaments.items(tid)[version - 1]["data"]
    winner = next(p for p, pts in recorded["points"].items() if pts == 2)
    loser = next(p for p in recorded["points"] if p != winner)

    def flip(data):  # type: ignore[no-untyped-def]
        data["points"] = {winner: 0, loser: 2}

    rewrite(database_url, tid, version, flip)
    report = _audit(database_url, tid)
    assert not report.ok
    assert "the tournament recorded" in str(report.divergence), report.divergence


def test_a_match_corrected_later_gives_its_new_result_on_the_later_timeline(app, toy_rulesets):  # type: ignore[no-untyped-def]
    tournaments, new, made = entered(app, ("ada", "bo"), "toy", config={"rounds": 1})
    tid = new.tournament_id
    tournaments.advance(tid)
    (match_id,) = current_matches(tournaments, tid)
    seats = {}
    for player in made.values():
        seat = tournaments.seat_token(tid, player.name, player.key)
        seats[seat["seat"]] = seat["token"]
    app.submit_order(match_id, seats[1], "3")
    app.submit_order(match_id, seats[2], "1")
    assert app.get_match(match_id).finished
    tournaments.advance(tid)
    first = tournaments.get(tid).results[match_id]
    assert first["timeline"] == 1 and tournaments.get(tid).seed_revealed
    changes = [{"seat": 1, "order": "1"}, {"seat": 2, "order": "3"}]
    app.correct(match_id, OPERATOR, 1, changes, "the picks were swapped")
    assert app.get_match(match_id).timeline == 2
    assert tournaments.advance(tid) == [f"result of match {match_id} recorded"]
    second = tournaments.get(tid).results[match_id]
    assert second["timeline"] == 2 and second["points"] != first["points"]
    assert second["head"]["version"] > first["head"]["version"]
    assert tournaments.verify(tid).ok
    winner = next(p for p, pts in second["points"].items() if pts == 2)
    assert tournaments.standings(tid)[0].player_id == winner


def test_verify_catches_a_final_standing_changed_and_rechained_in_the_store(app, database_url):  # type: ignore[no-untyped-def]
    tournaments, tid = finished_tournament(app)
    version = _version_of(tournaments, tid, "Finished")

    def reorder(data):  # type: ignore[no-untyped-def]
        first, second = data["standing"][0], data["standing"][1]
        first["player_id"], second["player_id"] = second["player_id"], first["player_id"]

    rewrite(database_url, tid, version, reorder)
    report = _audit(database_url, tid)
    assert not report.ok
    assert "the final standing was recorded as" in str(report.divergence), report.divergence


def finished_elimination(app: Matches):  # type: ignore[no-untyped-def]
    tournaments = Tournaments(app)
    new = tournaments.create("Knockout", "elimination", "district_war")
    for name in ("ada", "bo", "cy", "di"):
        player = app.players.create(f"ko-{name}")
        tournaments.register(new.tournament_id, player.name, player.key)
    for _ in range(6):
        tournaments.advance(new.tournament_id)
        for match_id in current_matches(tournaments, new.tournament_id):
            if not app.get_match(match_id).finished:
                app.act(match_id, OPERATOR, "forfeit", {"seat": 2}, "test")
    assert tournaments.get(new.tournament_id).seed_revealed
    assert tournaments.verify(new.tournament_id).ok
    return tournaments, new.tournament_id


def test_verify_catches_an_elimination_advance_changed_and_rechained(app, database_url):  # type: ignore[no-untyped-def]
    tournaments, tid = finished_elimination(app)
    version = _version_of(tournaments, tid, "RoundCompleted")
    loser = next(
        player
        for table in tournaments.get(tid).rounds[0]["tables"]
        for player in table[1:]  # the second seat was forfeited
    )

    def promote(data):  # type: ignore[no-untyped-def]
        data["advancing"][0]["player_id"] = loser

    rewrite(database_url, tid, version, promote)
    report = _audit(database_url, tid)
    assert not report.ok
    assert "round 1 recorded" in str(report.divergence), report.divergence
