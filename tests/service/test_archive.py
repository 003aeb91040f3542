"""Match archives (issue 16, docs/archive.md): a match exported as one document is
imported into another store only after verifying it, its events rebuilt exactly, and
is read-only there; an unfinished match is exported only to its referee, a recorded
look. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from uuid import UUID

import pytest

from domain.errors import NotRefereeError
from domain.rules.rng import Rng
from service import schema
from service.clock import ManualClock
from service.errors import (
    InvalidArchiveError,
    MatchExistsError,
    MatchImportedError,
    MissingTokenError,
    TamperedArchiveError,
)
from service.health import check_overdue
from service.matches import Matches
from service.settings import Settings
from service.usecases.archive import LOOK
from tests.corpus.store import EXPECTED_FILE, SQLITE_FILE
from tests.support.archives import (
    another_store,
    event_at,
    finished_district_war,
    finished_drts,
    opened,
    rechained,
    unfinished_district_war,
)

pytestmark = pytest.mark.usefixtures("toy_rulesets")
CORPUS: list[dict[str, Any]] = json.loads(EXPECTED_FILE.read_text())["matches"]


@pytest.fixture
def target(
    database_url: str, request: pytest.FixtureRequest, tmp_path: Any, clock: ManualClock
) -> Iterator[Matches]:
    """A second store on the same kind of database, where archives are imported."""
    with another_store(database_url, request, tmp_path) as url:
        app = opened(url, clock)
        yield app
        app.close()


def through_json(archive: dict[str, Any]) -> Any:
    """Returns the archive as a file gives it back (JSON text, parsed again)."""
    return json.loads(json.dumps(archive))


def assert_rebuilt_exactly(source: Matches, target: Matches, archive: dict[str, Any]) -> None:
    """The target stores every event with the same attributes, and verifies to the head."""
    match_id = UUID(archive["match_id"])
    assert [vars(e) for e in target.events.get(match_id)] == [
        vars(e) for e in source.events.get(match_id)
    ]
    report = target.verify_chain(match_id)
    assert report.ok and report.head == archive["head"]["chain"]
    assert report.events == archive["head"]["version"]
    assert target.replay(match_id).agrees


# -- round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize("play", [finished_district_war, finished_drts], ids=["dw", "drts"])
def test_a_finished_match_goes_to_another_store_event_for_event(matches, target, clock, play):
    desk = play(matches, clock)
    archive = matches.export_archive(desk.id)
    assert (archive["format"], archive["format_version"], archive["form"]) == (
        "drts-match-archive",
        1,
        "public",
    )
    assert archive["events"] == matches.event_log(desk.id)  # the public form, every seal shown
    done = target.import_archive(through_json(archive))
    assert done.stored and done.events == len(archive["events"]) and done.head == archive["head"]
    assert_rebuilt_exactly(matches, target, archive)
    assert target.event_log(desk.id) == archive["events"]
    assert target.summary(desk.id) == matches.summary(desk.id)
    assert target.state(desk.id).state == matches.state(desk.id).state
    assert target.scoreboard(desk.id) == matches.scoreboard(desk.id)  # the read models caught up
    [listed] = target.list_matches().items
    assert (listed["match_id"], listed["status"]) == (str(desk.id), "finished")
    assert target.export_archive(desk.id)["events"] == archive["events"]


def test_a_match_with_disputes_after_its_finish_goes_to_another_store(matches, target, clock):
    desk = finished_district_war(matches, clock)
    finished = next(e for e in matches.event_log(desk.id) if e["type"] == "Finished")
    matches.file_dispute(desk.id, desk.tokens[1], [finished["version"], 3], "a late dispute")
    matches.file_dispute(desk.id, desk.referee, [2], "the referee's own")
    matches.rule_dispute(desk.id, desk.referee, 1, "upheld", "noted (issue 18)")
    archive = matches.export_archive(desk.id)
    assert [e["type"] for e in archive["events"][-3:]] == [
        "DisputeFiled",
        "DisputeFiled",
        "DisputeRuled",
    ]
    target.import_archive(through_json(archive))
    assert_rebuilt_exactly(matches, target, archive)
    assert target.disputes(desk.id) == matches.disputes(desk.id)
    assert target.audit(desk.id).exact
    [listed] = target.list_matches(disputes="open").items
    assert listed["disputes"] == {"open": 1, "ruled": 1}


def test_an_unfinished_match_in_its_full_form_is_rebuilt_exactly(matches, target, clock):
    desk = unfinished_district_war(matches, clock)
    archive = matches.export_archive(desk.id, desk.referee)
    assert archive["form"] == "full"
    target.import_archive(through_json(archive))
    assert_rebuilt_exactly(matches, target, archive)
    assert target.summary(desk.id).status == "started"


# -- export ---------------------------------------------------------------------------------


def test_an_unfinished_match_is_exported_only_to_its_referee_and_the_look_is_recorded(
    matches, clock
):
    desk = unfinished_district_war(matches, clock)
    with pytest.raises(MissingTokenError, match="only its referee may export it"):
        matches.export_archive(desk.id)
    with pytest.raises(NotRefereeError, match="not a seat"):
        matches.export_archive(desk.id, desk.tokens[1])
    before = matches.get_match(desk.id).version
    archive = matches.export_archive(desk.id, desk.referee)
    look = archive["events"][-1]
    assert look["version"] == before + 1 and look["type"] == "SecretViewed"
    assert look["data"] == {"viewer": "referee", "what": LOOK}
    assert archive["head"] == {"version": look["version"], "chain": look["chain"]}
    assert archive["events"][0]["sealed"]["seed"]  # the seed, not revealed yet
    assert all("sealed" in e for e in archive["events"] if e["type"] == "OrderSubmitted")


def test_a_finished_match_is_exported_to_anyone_and_records_nothing(matches, clock):
    desk = finished_district_war(matches, clock)
    version = matches.get_match(desk.id).version
    assert matches.export_archive(desk.id) == matches.export_archive(desk.id, desk.tokens[2])
    assert matches.get_match(desk.id).version == version


# -- verification before anything is written ---------------------------------------------


@pytest.fixture
def archive(dw_archive_text: str) -> dict[str, Any]:
    """The archive of a finished District War match, for one test to change."""
    return json.loads(dw_archive_text)


def assert_nothing_stored(target: Matches, archive: dict[str, Any]) -> None:
    assert target.store.recorder.select_events(archive["match_id"]) == []
    assert not target.is_imported(archive["match_id"])


def test_a_tampered_archive_is_refused_naming_the_event(target, archive):
    step = event_at(archive, "StepApplied", 2)
    step["data"]["text"] = "seat 1 wins everything"
    with pytest.raises(TamperedArchiveError, match=rf"^event {step['version']} \(StepApplied\): "):
        target.import_archive(archive)
    assert_nothing_stored(target, archive)


def test_a_sealed_order_changed_is_refused_naming_its_event(target, archive):
    order = event_at(archive, "OrderSubmitted", 4)
    order["sealed"]["order"] = event_at(archive, "OrderSubmitted", 5)["sealed"]["order"]
    with pytest.raises(
        TamperedArchiveError,
        match=rf"^event {order['version']} \(OrderSubmitted\): the sealed order and salt",
    ):
        target.import_archive(archive)
    assert_nothing_stored(target, archive)


def test_an_archive_cut_short_below_its_head_is_refused(target, archive):
    short = copy.deepcopy(archive)
    del short["events"][-3:]
    version = archive["head"]["version"]
    with pytest.raises(TamperedArchiveError, match=f"head is at version {version}, its events end"):
        target.import_archive(short)
    assert_nothing_stored(target, archive)


def test_an_archive_naming_another_ruleset_than_its_match_is_refused(target, archive):
    with pytest.raises(TamperedArchiveError, match=r"^event 1 \(Created\): the match is"):
        target.import_archive({**archive, "ruleset": "drts_team23"})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda a: a.update(format="zip"), "not a match archive"),
        (lambda a: a.update(format_version=2), "this drts reads version 1"),
        (lambda a: a.update(match_id="not-a-uuid"), "is not a match id"),
        (lambda a: a.update(form="secret"), "is not public or full"),
        (lambda a: a["head"].update(chain="x"), "is not a chain value"),
        (lambda a: a.update(events=[]), "non-empty list"),
        (lambda a: a["events"][3].update(extra=1), r"events\[3\] has unknown keys"),
    ],
)
def test_a_document_that_is_no_archive_is_refused_saying_what_is_wrong(
    target, archive, change, message
):
    change(archive)
    with pytest.raises(InvalidArchiveError, match=message):
        target.import_archive(archive)


def test_an_archive_without_its_sealed_values_is_refused(target, archive):
    order = event_at(archive, "OrderSubmitted", 1)
    del order["sealed"]  # outside the chain: it still verifies
    with pytest.raises(
        InvalidArchiveError, match=rf"^event {order['version']} \(OrderSubmitted\) lacks its sealed"
    ):
        target.import_archive(archive)
    assert_nothing_stored(target, archive)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda e: e["data"].update(bogus=1), "has a field 'bogus' that DeadlineSet does not have"),
        (lambda e: e["data"].update(movement="1"), "has movement = '1', not a int"),
        (lambda e: e["data"].update(deadline="tomorrow"), "not an instant in UTC"),
        (lambda e: e.update(type="Deleted"), "is not an event drts stores"),
        (lambda e: e["data"].pop("reason"), r"lacks the field\(s\) reason"),
    ],
)
def test_a_well_chained_forgery_drts_cannot_store_exactly_is_refused(
    target, archive, edit, message
):
    edit(event_at(archive, "DeadlineSet", 1))
    with pytest.raises(InvalidArchiveError, match=message):
        target.import_archive(rechained(archive))
    assert_nothing_stored(target, archive)


# -- a match already there ----------------------------------------------------------------


def test_the_same_match_imported_again_is_a_no_op(target, archive):
    assert target.import_archive(archive).stored
    notifications = target.store.recorder.max_notification_id()
    again = target.import_archive(archive)
    assert not again.stored and again.head == archive["head"]
    assert target.store.recorder.max_notification_id() == notifications


def test_an_archive_into_the_store_it_came_from_is_a_no_op_and_leaves_the_match_writable(
    matches, clock
):
    desk = unfinished_district_war(matches, clock)
    archive = through_json(matches.export_archive(desk.id, desk.referee))
    assert not matches.import_archive(archive).stored
    assert not matches.is_imported(desk.id)
    (seat,) = desk.owing()
    receipt = desk.order(seat, desk.bot_order(seat, Rng("archive-dw-bots", 9)))
    assert matches.get_match(desk.id).version > archive["head"]["version"] and receipt.digest


def test_a_match_id_already_there_with_other_events_is_refused(matches, target, clock):
    desk = unfinished_district_war(matches, clock)
    first = through_json(matches.export_archive(desk.id, desk.referee))
    target.import_archive(first)
    later = through_json(matches.export_archive(desk.id, desk.referee))  # one more look
    with pytest.raises(MatchExistsError, match=f"with {len(first['events'])} events"):
        target.import_archive(later)
    rewritten = copy.deepcopy(first)
    event_at(rewritten, "SeatJoined", 1)["data"]["name"] = "eve"
    with pytest.raises(MatchExistsError, match=r"differs from the archive at event 3 \(SeatJoined"):
        target.import_archive(rechained(rewritten))


# -- read-only ------------------------------------------------------------------------------


@pytest.fixture
def imported(matches, target, clock):
    """An unfinished District War match imported into the target, and its desk."""
    desk = unfinished_district_war(matches, clock)
    target.import_archive(through_json(matches.export_archive(desk.id, desk.referee)))
    return desk


def test_an_imported_match_refuses_every_write(target, imported):
    desk = imported
    (seat,) = desk.owing()
    writes = [
        lambda: target.submit_order(desk.id, desk.tokens[seat], "d4"),
        lambda: target.join(desk.id, "eve"),
        lambda: target.start(desk.id, desk.referee),
        lambda: target.extend_deadline(desk.id, desk.referee, seconds=60),
        lambda: target.reissue_seat_token(desk.id, desk.referee, 1),
        lambda: target.act(desk.id, desk.referee, "grant", {}, "a probe"),
        lambda: target.retry(desk.id, desk.referee),
        lambda: target.resolve(desk.id, desk.match().movement),
        lambda: target.create_rematch_if_due(desk.id),
    ]
    version = target.get_match(desk.id).version
    for write in writes:
        with pytest.raises(MatchImportedError, match="imported from an archive and is read-only"):
            write()
    assert target.get_match(desk.id).version == version


def test_the_sweep_and_health_never_count_an_imported_match_due(target, imported, database_url):
    match = target.get_match(imported.id)
    later = match.deadline + timedelta(days=30)
    assert target.due_movements(later) == []
    assert target.resolve_due(later) == []
    assert check_overdue(target, Settings(database_url), later)["oldest"] is None
    with pytest.raises(MatchImportedError):  # a task sent by hand: refused, not counted
        target.resolve_isolated(imported.id, match.movement, later)
    assert target.quarantined_matches() == []
    assert target.get_match(imported.id).version == match.version


# -- the frozen corpus (read from a copy) ---------------------------------------------------


@pytest.fixture
def corpus(tmp_path: Any, clock: ManualClock) -> Iterator[Matches]:
    """A copy of the frozen corpus's SQLite store, migrated (tests/corpus/README.md)."""
    url = f"sqlite:///{shutil.copyfile(SQLITE_FILE, tmp_path / 'corpus.sqlite')}"
    schema.upgrade(Settings(url))
    app = opened(url, clock)
    yield app
    app.close()


def test_every_corpus_match_goes_to_another_store_event_for_event(corpus, target):
    for entry in CORPUS:
        token = (entry.get("tokens") or {}).get("referee")  # the unfinished: full form
        archive = through_json(corpus.export_archive(entry["match_id"], token))
        assert archive["form"] == ("public" if entry["status"] == "finished" else "full")
        assert target.import_archive(archive).stored
        assert_rebuilt_exactly(corpus, target, archive)
    listed = {item["match_id"]: item["status"] for item in target.list_matches().items}
    assert listed == {entry["match_id"]: entry["status"] for entry in CORPUS}


def test_an_imported_draw_asks_the_sweep_for_no_rematch(corpus, target):
    """DW-5: a drawn match asks for a rematch; imported without it, it is read-only."""
    [draw] = [entry for entry in CORPUS if entry["key"] == "dw-draw"]
    target.import_archive(through_json(corpus.export_archive(draw["match_id"])))
    assert target.summary(draw["match_id"]).outcome["rematch"]
    assert target.rematches_due() == []
    assert target.create_missing_rematches() == []


def test_looks_at_an_imported_match_are_not_recorded(target, imported):
    version = target.get_match(imported.id).version
    log = target.event_log(imported.id, imported.referee)
    assert all("sealed" in e for e in log if e["type"] == "OrderSubmitted")
    assert target.referee_seed(imported.id, imported.referee)
    assert target.export_archive(imported.id, imported.referee)["form"] == "full"
    assert target.get_match(imported.id).version == version
