"""A tournament's archive (issue 45, docs/tournaments.md, Exporting a tournament): its
events and its finished matches' archives, exported by `Tournaments.export_archive`
and checked offline by the page's standalone verifier, run with `python3 -I -S` (no
site packages, no drts) beside the match verifier of docs/archive.md: a sound archive
passes, finished or not, exported from SQLite or PostgreSQL, with a drawn match and its
rematch, with a match corrected after its result; a tampered tournament event, a
tampered match event, a changed result, a result moved to another table, a changed
head, a removed match, a match hidden among the unfinished and a match re-chained by a
forger each fail naming the divergence."""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.clock import ManualClock
from service.matches import Matches
from service.settings import Settings
from service.tournaments import TournamentNotFoundError, Tournaments
from tests.support.archives import rechained as rechained_match
from tests.support.tournament_archives import (
    install_verifiers,
    rechained,
    recorded,
    round_robin,
    run_verifier,
)
from tests.support.tournament_games import (
    entered,
    forfeit,
    latest_matches,
    play_draw,
    seat_tokens,
)

OPERATOR = "operator-secret"
OK, FAILED, UNREADABLE = 0, 1, 2


def _store(template: str, directory: Path) -> Matches:
    url = f"sqlite:///{shutil.copyfile(template, directory / 'drts.sqlite')}"
    return Matches(
        env=Settings(url).event_store_env(), clock=ManualClock(), operator_token=OPERATOR
    )


@pytest.fixture(scope="module")
def finished(sqlite_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A round robin of four played to its end: (its archive, the application)."""
    app = _store(sqlite_template, tmp_path_factory.mktemp("finished"))
    tid = round_robin(app, OPERATOR)
    yield Tournaments(app).export_archive(tid), app
    app.close()


@pytest.fixture(scope="module")
def unfinished(sqlite_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A round robin of four with round 1 played and round 2 paired: (its archive, the
    versions of its matches before the export, after it)."""
    app = _store(sqlite_template, tmp_path_factory.mktemp("unfinished"))
    tid = round_robin(app, OPERATOR, rounds_played=1)
    linked = [m for r in Tournaments(app).get(tid).rounds for links in r["links"] for m in links]
    before = {m: app.get_match(m).version for m in linked}
    archive = Tournaments(app).export_archive(tid)
    after = {m: app.get_match(m).version for m in linked}
    yield archive, before, after
    app.close()


@pytest.fixture(scope="module")
def knockout(sqlite_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """An elimination of four played to its end, its first table a District War match
    played to the DW-5 draw and replayed by its rematch: its archive."""
    app = _store(sqlite_template, tmp_path_factory.mktemp("knockout"))
    tournaments = Tournaments(app)
    tid = tournaments.create("Knockout", "elimination", "district_war").tournament_id
    made = entered(tournaments, tid, ("ada", "bo", "cy", "di"))
    tournaments.advance(tid)
    first, second = latest_matches(tournaments, tid)
    play_draw(tournaments, tid, first, made)
    forfeit(app, second)
    tournaments.advance(tid)
    forfeit(app, app.get_match(first).rematch_id, seat=1)
    tournaments.advance(tid)
    forfeit(app, latest_matches(tournaments, tid)[0])
    tournaments.advance(tid)
    assert tournaments.get(tid).seed_revealed
    yield tournaments.export_archive(tid)
    app.close()


@pytest.fixture(scope="module")
def auditor(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the two verifiers as the pages print them, and nothing of drts."""
    return install_verifiers(tmp_path_factory.mktemp("auditor"))


def verify(auditor: Path, archive: dict[str, Any], *args: str) -> tuple[int, str]:
    """Writes the archive into the auditor's folder and runs the tournament verifier."""
    (auditor / "cup.json").write_text(json.dumps(archive), encoding="utf-8")
    return run_verifier(auditor, "cup.json", *args)


def test_a_sound_finished_tournament_archive_passes(auditor, finished):
    archive, _app = finished
    assert archive["format"] == "drts-tournament-archive" and archive["finished"]
    assert len(archive["matches"]) == 6 and archive["unfinished"] == []
    created, revealed = archive["events"][0], archive["events"][-1]
    assert revealed["type"] == "SeedRevealed"
    assert created["sealed"]["seed"] == revealed["data"]["seed"]
    status, out = verify(auditor, archive)
    assert status == OK, out
    head = archive["head"]
    assert (
        f"ok      tournament {archive['tournament_id']}: {len(archive['events'])} events, "
        f"head {head['version']}:{head['chain']}\n"
    ) in out
    assert out.count(", verified\n") == 6
    assert "ok      links: 6 matches linked, 0 of them unfinished" in out
    assert out.count("at its head") == 6 and ": as recorded" in out
    assert out.endswith(
        "every check passed (the pairings are re-derived by `drts tournament verify`)\n"
    )


def test_each_match_in_it_is_the_archive_anyone_may_export(finished):
    archive, app = finished
    for match in archive["matches"]:
        alone = app.export_archive(match["match_id"])
        assert {**match, "exported_at": None} == {**alone, "exported_at": None}


def test_a_knockout_with_a_drawn_match_and_its_rematch_passes(auditor, knockout):
    drawn = recorded(knockout, 0)["data"]
    assert sorted(drawn["placements"].values()) == [1, 1]  # the draw ties its two players
    assert len(knockout["matches"]) == 4  # the draw, its rematch, the other table, the final
    status, out = verify(auditor, knockout)
    assert status == OK, out
    assert out.count("at its head") == 4


def test_a_match_corrected_after_its_result_passes_on_its_later_timeline(
    auditor, sqlite_template, tmp_path, toy_rulesets
):
    """The result recorded on timeline 2 is recomputed through the match's Corrected
    event (its restart), at the later head."""
    app = _store(sqlite_template, tmp_path)
    try:
        tournaments = Tournaments(app)
        tid = tournaments.create("Duel", "round_robin", "toy", {"rounds": 1}).tournament_id
        made = entered(tournaments, tid, ("ada", "bo"))
        tournaments.advance(tid)
        (match_id,) = latest_matches(tournaments, tid)
        tokens = seat_tokens(tournaments, tid, match_id, made)
        app.submit_order(match_id, tokens[1], "3")
        app.submit_order(match_id, tokens[2], "1")
        tournaments.advance(tid)
        changes = [{"seat": 1, "order": "1"}, {"seat": 2, "order": "3"}]
        app.correct(match_id, OPERATOR, 1, changes, "the picks were swapped")
        tournaments.advance(tid)
        archive = tournaments.export_archive(tid)
    finally:
        app.close()
    first, second = recorded(archive, 0)["data"], recorded(archive, 1)["data"]
    assert (first["timeline"], second["timeline"]) == (1, 2)
    assert first["points"] != second["points"]
    status, out = verify(auditor, archive)
    assert status == OK, out
    assert f"at its head {second['head']['version']}: as recorded" in out
    data = recorded(archive, 1)["data"]
    data["points"], data["placements"] = first["points"], first["placements"]
    status, out = verify(auditor, rechained(archive))
    assert status == FAILED and "the placements are" in out, out


def test_an_unfinished_tournament_lists_its_unfinished_matches_and_records_nothing(
    auditor, unfinished
):
    archive, before, after = unfinished
    assert not archive["finished"] and "sealed" not in archive["events"][0]
    assert [(u["round"], u["attempt"]) for u in archive["unfinished"]] == [(2, 1), (2, 1)]
    assert len(archive["matches"]) == 2
    assert before == after  # no look recorded in any match
    status, out = verify(auditor, archive)
    assert status == OK, out
    assert "ok      links: 4 matches linked, 2 of them unfinished" in out
    assert out.count("at its head") == 2


def test_a_tampered_tournament_event_fails_at_that_event(auditor, finished):
    forged = copy.deepcopy(finished[0])
    event = recorded(forged, 2)
    event["data"]["scores"] = {player: 9 for player in event["data"]["scores"]}
    status, out = verify(auditor, forged)
    assert status == FAILED, out
    assert (
        f"FAILED  tournament event {event['version']} (ResultRecorded): chain mismatch: "
        "this event or one before it was changed"
    ) in out


def test_a_tampered_match_event_fails_naming_the_match_and_event(auditor, finished):
    forged = copy.deepcopy(finished[0])
    match = forged["matches"][3]
    event = next(e for e in match["events"] if e["type"] == "SeatJoined")
    event["data"]["name"] = "mallory"
    status, out = verify(auditor, forged)
    assert status == FAILED, out
    assert (
        f"FAILED  match {match['match_id']}: event {event['version']} (SeatJoined): chain mismatch"
    ) in out
    assert out.count(", verified\n") == 3  # it stops at the first divergence


def test_a_changed_result_fails_though_the_tournament_is_re_chained(auditor, finished):
    forged = copy.deepcopy(finished[0])
    data = recorded(forged, 1)["data"]
    data["placements"] = {player: 3 - place for player, place in data["placements"].items()}
    status, out = verify(auditor, rechained(forged))
    assert status == FAILED, out
    assert f"FAILED  result of match {data['match_id']}" in out
    assert "the placements are" in out and "the tournament recorded" in out


def test_a_result_moved_to_another_table_fails(auditor, finished):
    forged = copy.deepcopy(finished[0])
    data = recorded(forged, 0)["data"]
    data["table"] = 2 if data["table"] == 1 else 1
    status, out = verify(auditor, rechained(forged))
    assert status == FAILED, out
    assert f"the match is not linked at round {data['round']}, table {data['table']}" in out


def test_a_changed_recorded_head_fails(auditor, finished):
    forged = copy.deepcopy(finished[0])
    data = recorded(forged, 4)["data"]
    data["head"]["chain"] = "0" * 64
    status, out = verify(auditor, rechained(forged))
    assert status == FAILED, out
    assert f"at version {data['head']['version']} the log's chain differs from the " in out
    assert "recorded head's" in out
    data["head"] = {"version": 10_000, "chain": "0" * 64}
    status, out = verify(auditor, rechained(forged))
    assert status == FAILED and "before the recorded head at version 10000" in out, out


def test_a_removed_match_fails(auditor, finished):
    forged = copy.deepcopy(finished[0])
    gone = forged["matches"].pop(2)
    status, out = verify(auditor, forged)
    assert status == FAILED, out
    assert f"FAILED  match {gone['match_id']} is linked, but the archive does not hold it" in out


def test_a_match_with_a_result_cannot_hide_among_the_unfinished(auditor, finished):
    forged = copy.deepcopy(finished[0])
    gone = forged["matches"].pop(0)
    forged["unfinished"].append(
        {"match_id": gone["match_id"], "round": 1, "table": 1, "attempt": 1}
    )
    status, out = verify(auditor, forged)
    assert status == FAILED, out
    assert "the archive lists the match unfinished: it cannot be checked" in out


def test_a_match_re_chained_by_a_forger_fails_at_the_head_the_tournament_holds(auditor, finished):
    forged = copy.deepcopy(finished[0])
    match = forged["matches"][1]
    joined = next(e for e in match["events"] if e["type"] == "SeatJoined")
    joined["data"]["name"] = "mallory"
    forged["matches"][1] = rechained_match(match)
    status, out = verify(auditor, forged)
    assert status == FAILED, out
    assert f"FAILED  result of match {match['match_id']}" in out
    assert "the log's chain differs from the recorded head's" in out


def test_a_tournament_head_held_by_an_auditor_catches_a_cut(auditor, finished):
    archive = finished[0]
    last = archive["events"][-1]
    held = f"--head={last['version']}:{last['chain']}"
    status, out = verify(auditor, archive, held)
    assert status == OK and "on the log" in out, out
    cut = copy.deepcopy(archive)
    cut["events"] = cut["events"][:-1]
    cut["head"] = {"version": len(cut["events"]), "chain": cut["events"][-1]["chain"]}
    status, out = verify(auditor, cut, held)
    assert status == FAILED, out
    assert f"before the head at version {last['version']} that you hold" in out


def test_without_the_match_verifier_the_input_cannot_be_read(auditor, finished):
    status, out = verify(auditor, finished[0], "--match-verifier=nowhere.py")
    assert status == UNREADABLE and "cannot read the input" in out, out


def test_an_archive_exported_from_either_store_passes(auditor, database_url, tmp_path):
    """SQLite and PostgreSQL: a round robin with one round played and one paired."""
    app = Matches(
        env=Settings(database_url).event_store_env(), clock=ManualClock(), operator_token=OPERATOR
    )
    try:
        archive = Tournaments(app).export_archive(round_robin(app, OPERATOR, rounds_played=1))
    finally:
        app.close()
    assert len(archive["matches"]) == 2 and len(archive["unfinished"]) == 2
    status, out = verify(auditor, archive)
    assert status == OK, out


def test_an_unknown_tournament_has_no_archive(finished):
    with pytest.raises(TournamentNotFoundError):
        Tournaments(finished[1]).export_archive("no-such-tournament")
