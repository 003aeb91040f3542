"""The corpus set 2026-12 (tests/corpus/2026-12/README.md): matches of every game and
version stored once by drts as it was on 2026-12-02, which every later version must read
as they are.

On each store (the SQLite file copied, the PostgreSQL dump restored into a new
database), migrated first: every match verifies up to its stored head, replays in
agreement, shows its status, outcome, features and every resolved movement's state,
steps, scores and display as recorded, and re-adjudicates exactly; every page (the
match page, the replay at each movement, each seat's page) answers 200 and shows the
recorded position and scores.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.utils import resolve_topic

from domain.errors import UnknownSeatError
from service import schema
from service.matches import Matches
from service.scenarios.driver import ManualClock
from service.settings import Settings
from tests.corpus.expect_2026_12 import digest, movement_records
from tests.corpus.features import PROMISED, features_of
from tests.corpus.store import CORPUS
from tests.pages.conftest import pages_app
from tests.support.corpus import corpus_copy
from tests.support.pages import csrf_of

SET = CORPUS / "2026-12"
SQLITE_FILE, POSTGRES_DUMP, EXPECTED_FILE = (
    SET / name for name in ("matches.sqlite", "postgres.sql", "expected.json")
)
EXPECTED: dict[str, Any] = json.loads(EXPECTED_FILE.read_text())
MATCHES: list[dict[str, Any]] = EXPECTED["matches"]
KEYS = [entry["key"] for entry in MATCHES]
# SHA-256 of the files as generated: the set is never regenerated nor edited
GENERATED = {
    SQLITE_FILE: "8822db9cb8489ea47a3a25c8ab3401ffc851f2719b011b26ef3b3e5531ec34e2",
    POSTGRES_DUMP: "84871f42a63ce98306fcd21c4279dcc74d2f990dece9e25bce2349b31a36b507",
    EXPECTED_FILE: "470ca4ad1121d172c9015dceae8823f5448a27502a1780484f6709b1489a8156",
}
STORED_AT = "0012"  # the migration revision the set was stored at
DISPLAY = re.compile(r'<pre id="display-text" class="display">(.*?)</pre>', re.DOTALL)
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
SET_FILES = (SQLITE_FILE, POSTGRES_DUMP)


@contextmanager
def opened(url: str) -> Iterator[Matches]:
    """Checks the copy's stored revision, upgrades it and opens the Matches application."""
    assert schema.current(Settings(url)) == STORED_AT
    schema.upgrade(Settings(url))
    clock = ManualClock(datetime.fromisoformat(EXPECTED["generated"]["on"] + "T00:00:00+00:00"))
    app = Matches(env=Settings(url).event_store_env(), clock=clock)
    try:
        yield app
    finally:
        app.close()


@pytest.fixture(scope="module", params=BACKENDS)
def stored(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Matches]:
    """The set on one backend, shared by the tests that only read it (page sessions aside)."""
    directory = tmp_path_factory.mktemp("corpus-2026-12")
    with corpus_copy(request.param, request, directory, SET_FILES) as url, opened(url) as app:
        yield app


def test_the_set_files_are_the_ones_generated_once() -> None:
    for path, sha256 in GENERATED.items():
        assert hashlib.sha256(path.read_bytes()).hexdigest() == sha256, path.name


def test_the_set_holds_every_game_and_version_with_its_features() -> None:
    from domain.rules.registry import all_rulesets

    games = {(entry["game"], entry["ruleset_version"]) for entry in MATCHES}
    assert games == {(r.info.name, r.info.version) for r in all_rulesets()}
    for entry in MATCHES:
        assert set(PROMISED[entry["key"]]) <= set(entry["features"]), entry["key"]
    presets = {e["key"] for e in MATCHES if e["key"].startswith("shades")}
    assert presets == {f"shades{v}-{c}" for v in (1, 2) for c in ("default", "contest")}


def test_every_stored_topic_still_resolves_to_its_class() -> None:
    for topic in EXPECTED["topics"]:
        assert resolve_topic(topic).__qualname__ == topic.split(":", 1)[1], topic


@pytest.mark.parametrize("key", KEYS)
def test_every_match_verifies_replays_and_shows_its_record(stored: Matches, key: str) -> None:
    entry = next(e for e in MATCHES if e["key"] == key)
    match_id = entry["match_id"]
    chain = stored.verify_chain(match_id)
    assert chain.ok and chain.head == entry["head"]["chain"]
    summary = stored.summary(match_id)
    assert (summary.ruleset, summary.ruleset_version) == (entry["game"], entry["ruleset_version"])
    assert (summary.status, summary.movement, summary.seats) == (
        entry["status"],
        entry["movement"],
        entry["seats"],
    )
    assert (summary.version, summary.chain) == (entry["head"]["version"], entry["head"]["chain"])
    assert stored.get_match(match_id).outcome == entry["outcome"]
    assert (summary.rematch_id, summary.rematch_of) == (entry["replay_id"], entry["replay_of"])
    replay = stored.replay(match_id)
    assert {
        "agrees": replay.agrees,
        "events": replay.events,
        "timelines": replay.timelines,
        "state": digest(replay.state),
    } == entry["replay"]
    log = stored.event_log(match_id)
    assert (len(log), features_of(log)) == (entry["events"], entry["features"])
    assert stored.is_imported(match_id) == entry["imported"]
    assert stored.display(match_id) == entry["display"]
    assert movement_records(stored, match_id) == entry["movements"]
    for timeline, records in entry["earlier_timelines"].items():
        assert stored.replay(match_id, timeline=int(timeline)).agrees
        assert movement_records(stored, match_id, int(timeline)) == records


@pytest.mark.parametrize("key", KEYS)
def test_every_stored_state_a_replay_serves_as_it_is_is_the_games_view_of_it(
    stored: Matches, key: str
) -> None:
    """Issue 46: where a game's view is the whole state (`view_is_state`), a replay serves
    each stored state without loading it; the game's view of it is that very state."""
    entry = next(e for e in MATCHES if e["key"] == key)
    ruleset = stored.get_match(entry["match_id"]).rules()
    frames = stored.replay(entry["match_id"]).frames
    assert frames or entry["status"] != "finished"
    for frame in frames if ruleset.view_is_state else ():
        state = ruleset.load_state(frame.state)
        for seat in (None, *range(1, len(entry["seats"]) + 1)):
            try:
                view = ruleset.view(state, seat)
            except UnknownSeatError:  # a B-Chess seat that joined later (BC-5)
                assert entry["game"] == "b_chess" and seat is not None
                continue
            assert digest(view) == digest(frame.state), (frame.movement, seat)


@pytest.mark.parametrize("key", [e["key"] for e in MATCHES if e["audit"] is not None])
def test_every_finished_match_re_adjudicates_as_recorded(stored: Matches, key: str) -> None:
    entry = next(e for e in MATCHES if e["key"] == key)
    report = stored.audit(entry["match_id"])
    assert {
        "exact": report.exact,
        "divergence": None if report.divergence is None else str(report.divergence),
        "movements": report.movements,
        "timelines": len(report.timelines),
    } == entry["audit"]
    assert (report.ruleset, report.ruleset_version) == (entry["game"], entry["ruleset_version"])


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_running_match_re_adjudicates_exactly_for_its_referee(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """On a copy of its own: the referee's audit of an unfinished match records the look."""
    (entry,) = [e for e in MATCHES if e["status"] != "finished"]
    with corpus_copy(backend, request, tmp_path, SET_FILES) as url, opened(url) as app:
        report = app.audit(entry["match_id"], entry["tokens"]["referee"])
        assert report.exact and report.divergence is None
        assert report.movements == len(entry["movements"])
        looked = [
            i["data"] for i in app.event_log(entry["match_id"]) if i["type"] == "SecretViewed"
        ]
        assert looked == [{"viewer": "referee", "what": "audit"}]


@pytest.mark.parametrize("key", KEYS)
def test_every_page_answers_and_shows_the_recorded_position(stored: Matches, key: str) -> None:
    entry = next(e for e in MATCHES if e["key"] == key)
    match_id = entry["match_id"]
    client = pages_app(stored, long_polls=2).test_client()
    page = client.get(f"/ui/matches/{match_id}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert shown_display(text) == entry["display"]
    for seat, score in ((entry["outcome"] or {}).get("scores") or {}).items():
        assert f"<td>{score}</td>" in text, (seat, score)
    for record in entry["movements"]:
        number = record["movement"]
        replay = client.get(f"/ui/matches/{match_id}/replay?movement={number}")
        assert replay.status_code == 200, number
        assert digest(shown_display(replay.get_data(as_text=True))) == record["display"], number
    for seat, token in (entry.get("tokens") or {}).get("seats", {}).items():  # none imported
        form = {"csrf": csrf_of(client), "match": match_id, "token": token}
        assert client.post("/ui/sign-in", data=form).status_code == 303, seat
        desk = client.get(f"/ui/matches/{match_id}/seat")
        assert desk.status_code == 200, seat
        assert f"seat {seat}" in desk.get_data(as_text=True).lower(), seat


def shown_display(page: str) -> str:
    """The Public Display a page shows (its `display-text` block), unescaped."""
    found = DISPLAY.search(page)
    assert found, "the page shows no display text"
    return html.unescape(found.group(1))
