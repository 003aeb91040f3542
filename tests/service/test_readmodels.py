"""The read models (match list, deadlines, scoreboards, standings) on SQLite and PostgreSQL:
their contents, rebuilds, crashes and concurrent catch-ups, and how they follow the log."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from eventsourcing.persistence import Tracking

from service.errors import MatchNotFoundError
from service.matches import Matches
from service.readmodels import runner
from service.readmodels.queries import open_disputes
from service.readmodels.runner import Follower, Timer, UnknownProjectionError
from service.settings import Settings
from tests.service.readmodel_support import play_random_mix, snapshot, snapshots

pytestmark = pytest.mark.usefixtures("toy_rulesets")


def started(
    matches: Matches, ruleset: str = "toy", names: tuple[str, ...] = ("alice", "bob"), **config: Any
) -> tuple[Any, list[str]]:
    new = matches.create_match(ruleset, config, seed="read-models")
    tokens = [matches.join(new.match_id, name).token for name in names]
    matches.start(new.match_id, new.referee_token)
    return new, tokens


def deadline_rows(matches: Matches, columns: str) -> list[dict[str, Any]]:
    matches.read_models.catch_up(["deadlines"])
    return matches.read_models.view("deadlines").query(
        f"SELECT {columns} FROM {{deadlines}} ORDER BY movement"
    )


@pytest.fixture
def other(database_url: str, clock: Any) -> Iterator[Matches]:
    """A second Matches application on the same store: another process."""
    app = Matches(env=Settings(database_url).event_store_env(), clock=clock)
    yield app
    app.close()


def test_the_match_list_shows_seats_status_clock_and_movement(matches, clock):
    waiting = matches.create_match("toy", {}, seats=3)
    matches.join(waiting.match_id, "carol")
    new, (alice, bob) = started(matches, rounds=1)
    playing = matches.list_matches(status="started").items
    assert [item["match_id"] for item in playing] == [str(new.match_id)]
    assert playing[0]["seats"] == [{"seat": 1, "name": "alice"}, {"seat": 2, "name": "bob"}]
    assert playing[0]["deadline"] == (clock.now + timedelta(seconds=60)).isoformat()
    assert playing[0]["movement"] == 1 and playing[0]["started_at"] is not None
    matches.submit_order(new.match_id, alice, "3")
    matches.submit_order(new.match_id, bob, "1")
    [done] = matches.list_matches(status="finished").items
    assert (done["result"], done["deadline"], done["movement"]) == ("win", None, 2)
    assert done["finished_at"] is not None
    [open_] = matches.list_matches(status="open").items
    assert open_["seats"] == [{"seat": 1, "name": "carol"}]
    assert open_["seat_limits"] == {"min": 3, "max": 3} and open_["started_at"] is None


def test_due_movements_come_from_the_deadlines_table(matches, clock):
    new, _ = started(matches, close_early=False)
    deadline = clock.advance(60)
    assert matches.due_movements(clock.advance(-1)) == []
    [due] = matches.due_movements(deadline)
    assert (due.match_id, due.movement, due.deadline) == (new.match_id, 1, deadline)
    deadlines = matches.read_models.view("deadlines")
    with deadlines.batch():
        deadlines.reset("nobody")  # the rows go; the tracking row of "Matches" stays
    assert matches.due_movements() == []  # the log still says it is due: the table rules


def test_a_resolved_movement_closes_its_deadline_and_an_extension_moves_it(matches, clock):
    new, (alice, _, carol) = started(
        matches, names=("alice", "bob", "carol"), silence="strike", close_early=False
    )
    matches.submit_order(new.match_id, alice, "1")
    matches.submit_order(new.match_id, carol, "2")
    assert matches.resolve(new.match_id, 1, clock.advance(60)).strikes == (2,)
    rows = deadline_rows(matches, "movement, extensions, closed, due_at")
    assert rows == [{"movement": 1, "extensions": 1, "closed": False, "due_at": clock.advance(30)}]
    assert matches.resolve(new.match_id, 1, clock.now).eliminated == (2,)
    rows = deadline_rows(matches, "movement, closed")
    assert rows == [{"movement": 1, "closed": True}, {"movement": 2, "closed": False}]


def test_the_scoreboard_has_each_movements_scores_per_seat(matches):
    new, (alice, bob) = started(matches, rounds=2)
    for _ in range(2):
        matches.submit_order(new.match_id, alice, "3")
        matches.submit_order(new.match_id, bob, "1")
    board = matches.scoreboard(new.match_id)
    outcomes = [
        item["data"]["outcome"]
        for item in matches.event_log(new.match_id)
        if item["type"] == "MovementResolved"
    ]
    assert [m["movement"] for m in board.movements] == [1, 2]
    for movement, outcome in zip(board.movements, outcomes, strict=True):
        assert {str(s["seat"]): s["score"] for s in movement["seats"]} == outcome["scores"]
        assert [s["seat"] for s in movement["seats"]] == outcome["ranking"]
        assert movement["teams"] == []
    assert board.seats == [{"seat": 1, "name": "alice"}, {"seat": 2, "name": "bob"}]
    with pytest.raises(MatchNotFoundError):
        matches.scoreboard("00000000-0000-4000-8000-000000000000")


def test_the_scoreboard_has_team_scores_where_the_game_has_teams(matches, clock):
    names = tuple(f"p{i}" for i in range(1, 9))
    new, _ = started(matches, "drts_team23", names, movements=1, max_movements=1)
    clock.advance(21)
    matches.resolve_due()
    [movement] = matches.scoreboard(new.match_id).movements
    assert {team["team"] for team in movement["teams"]} == set(
        matches.summary(new.match_id).outcome["team_scores"]
    )
    assert len(movement["seats"]) == 8


def test_standings_count_wins_draws_and_losses_per_player_and_ruleset(matches):
    def play(first: str, second: str, picks: tuple[str, str]) -> None:
        new, tokens = started(matches, names=(first, second), rounds=1)
        for token, pick in zip(tokens, picks, strict=True):
            matches.submit_order(new.match_id, token, pick)

    play("alice", "bob", ("3", "1"))  # seat 1 scores 3 (+ maybe the bonus): alice wins
    play("bob", "alice", ("2", "2"))  # nobody scores; the bonus decides
    rows = {(r["player"], r["ruleset"]): r for r in matches.standings(ruleset="toy").items}
    assert set(rows) == {("alice", "toy"), ("bob", "toy")}
    for row in rows.values():
        assert row["played"] == 2 == row["wins"] + row["draws"] + row["losses"]
        assert row["points"] == 3 * row["wins"] + row["draws"]
    assert rows["alice", "toy"]["wins"] >= 1
    assert matches.standings(ruleset="district_war").items == []
    first = matches.standings(limit=1)
    assert len(first.items) == 1 and first.next is not None
    assert matches.standings(limit=1, cursor=first.next).items[0]["player"] == "bob"


def test_projections_equal_a_rebuild_from_scratch_after_a_random_mix(matches, clock):
    play_random_mix(matches, clock, seed=20301, count=7, catch_up_every=5)
    matches.read_models.catch_up()
    followed = snapshots(matches.read_models)
    assert followed["match_list"]["match_list"] and followed["standings"]["standings"]
    rebuilt = {name: matches.read_models.rebuild(name) for name in matches.read_models.projections}
    assert all(rebuilt.values())
    assert snapshots(matches.read_models) == followed
    finished = [
        item for item in matches.list_matches(limit=100).items if item["status"] == "finished"
    ]
    seats = sum(len(item["seats"]) for item in finished)
    assert sum(row["played"] for row in matches.standings(limit=1000).items) == seats


def test_a_projection_that_crashes_halfway_resumes_without_double_counting(
    matches, clock, monkeypatch
):
    play_random_mix(matches, clock, seed=7, count=6)
    models = matches.read_models
    models.catch_up()
    expected = {name: snapshot(models, name) for name in ("standings", "match_list")}
    for name in expected:  # start again from nothing, then crash after 10 events
        with models.view(name).batch():
            models.view(name).reset(matches.store.name)
    monkeypatch.setattr(runner, "BATCH", 4)
    view = models.view("standings")
    calls, apply = [0], view.apply

    def crashing(tracking: Tracking, *event: Any) -> bool:
        calls[0] += 1
        if calls[0] == 11:  # the process dies: not an event that fails to apply
            raise RuntimeError("the power went out")
        return apply(tracking, *event)

    monkeypatch.setattr(view, "apply", crashing)
    with pytest.raises(RuntimeError, match="power"):
        models.catch_up(["standings"])
    assert view.position(matches.store.name) > 0  # two batches of four landed, the third did not
    monkeypatch.setattr(view, "apply", apply)
    models.catch_up()
    assert {name: snapshot(models, name) for name in expected} == expected


def test_a_catch_up_writes_each_tracking_row_once_per_batch(matches, clock, monkeypatch):
    """The fast path (View.apply_batch): one tracking write a batch, not one an event."""
    play_random_mix(matches, clock, seed=5, count=4)
    models = matches.read_models
    models.catch_up()
    expected = snapshots(models)
    view = models.view("match_list")
    with view.batch():
        view.reset(matches.store.name)
    monkeypatch.setattr(runner, "BATCH", 10)
    writes: list[int] = []
    track = view._track

    def counted(cursor: Any, tracking: Tracking) -> None:
        writes.append(tracking.notification_id)
        track(cursor, tracking)

    monkeypatch.setattr(view, "_track", counted)
    applied = models.catch_up(["match_list"])["match_list"]
    assert applied > 30 and len(writes) == -(-applied // 10)  # one write per batch of 10
    assert (
        writes[-1]
        == view.position(matches.store.name)
        == matches.store.recorder.max_notification_id()
    )
    assert snapshots(models) == expected


def test_a_batch_skips_the_events_another_process_already_applied(matches, clock, monkeypatch):
    play_random_mix(matches, clock, seed=6, count=3)
    models = matches.read_models
    models.catch_up()
    expected = snapshots(models)
    position = models.view("standings").position(matches.store.name)
    writes: list[Any] = []
    monkeypatch.setattr(models.view("standings"), "_track", lambda *args: writes.append(args))
    assert models._apply_from(models.projection("standings"), 0) > 0  # all at or before it
    assert writes == [] and snapshots(models) == expected  # standings would count twice
    assert models.view("standings").position(matches.store.name) == position


def test_an_event_applied_again_changes_nothing(matches):
    new, (alice, bob) = started(matches, rounds=1)
    matches.submit_order(new.match_id, alice, "3")
    matches.submit_order(new.match_id, bob, "1")
    models = matches.read_models
    models.catch_up()
    before = snapshots(models)
    for notification in matches.store.recorder.select_notifications(start=1, limit=100):
        for projection in models.projections.values():
            if notification.topic in projection.topics:
                models.apply(
                    projection,
                    matches.store.mapper.to_domain_event(notification),
                    Tracking(matches.store.name, notification.id),
                )
    assert snapshots(models) == before


def test_two_processes_catching_up_at_once_apply_each_event_once(matches, other, clock):
    play_random_mix(matches, clock, seed=99, count=4)
    matches.read_models.catch_up()
    expected = snapshots(matches.read_models)
    for name in matches.read_models.projections:
        with matches.read_models.view(name).batch():
            matches.read_models.view(name).reset(matches.store.name)
    threads = [threading.Thread(target=app.read_models.catch_up) for app in (matches, other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert snapshots(matches.read_models) == expected


def test_a_rebuild_racing_other_processes_and_new_events_misses_nothing(matches, other, clock):
    play_random_mix(matches, clock, seed=3, count=3)
    writer = threading.Thread(target=lambda: [other.create_match("toy", {}) for _ in range(20)])
    catching = threading.Thread(target=lambda: [other.read_models.catch_up() for _ in range(20)])
    writer.start()
    catching.start()
    for name in matches.read_models.projections:
        matches.read_models.rebuild(name)
    writer.join(timeout=60)
    catching.join(timeout=60)
    matches.read_models.catch_up()
    raced = snapshots(matches.read_models)
    for name in matches.read_models.projections:
        matches.read_models.rebuild(name)
    assert snapshots(matches.read_models) == raced
    # 3 played + 20 created, and the replay of any District War match drawn (DW-5)
    assert len(raced["match_list"]["match_list"]) == len(list(matches.match_ids())) >= 23


def test_the_read_models_follow_the_log_without_being_asked(matches, other, database_url):
    models = matches.read_models
    models.interval = 0.05
    models.start()
    try:
        thread = models._thread
        if "postgres" in database_url:  # live: the match is written once it is listening
            assert isinstance(thread, Follower) and thread.subscribed.wait(10)
        else:
            assert isinstance(thread, Timer)  # SQLite has no subscriptions
        new = other.create_match("toy", {})
        give_up = time.monotonic() + 10
        while not models.view("match_list").query(
            "SELECT match_id FROM {match_list} WHERE match_id = :m", {"m": new.match_id}
        ):
            assert time.monotonic() < give_up, "the match list never saw the new match"
            time.sleep(0.05)
    finally:
        models.stop()


def listed(models: runner.ReadModels, match_id: Any) -> bool:
    """Whether the match list holds the match, read without catching up."""
    query = "SELECT match_id FROM {match_list} WHERE match_id = :m"
    return bool(models.view("match_list").query(query, {"m": match_id}))


def wait_until(condition: Any, what: str) -> None:
    give_up = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < give_up, what
        time.sleep(0.05)


@pytest.fixture
def two_processes(pg_database: str, clock: Any) -> Iterator[tuple[Matches, Matches]]:
    """Two Matches applications on one PostgreSQL store: two API processes."""
    apps = [Matches(env=Settings(pg_database).event_store_env(), clock=clock) for _ in "ab"]
    yield apps[0], apps[1]
    for app in apps:
        app.close()


@pytest.mark.postgres
def test_one_process_follows_the_log_and_another_takes_over_when_it_stops(two_processes):
    """On PostgreSQL one process per database does the projections' work (an advisory
    lock): the second waits, and leads once the first stops."""
    matches, other = two_processes
    first, second = matches.read_models, other.read_models
    first.interval = second.interval = 0.05
    first.start()
    try:
        assert isinstance(first._thread, Follower) and first._thread.subscribed.wait(10)
        second.start()
        time.sleep(0.5)  # ten tries for the lead
        assert isinstance(second._thread, Follower) and not second._thread.subscribed.is_set()
        new = other.create_match("toy", {})
        wait_until(lambda: listed(second, new.match_id), "the leader never applied the match")
    finally:
        first.stop()
    try:
        assert second._thread.subscribed.wait(10), "the second process never took the lead"
        later = matches.create_match("toy", {})
        wait_until(lambda: listed(second, later.match_id), "the new leader applied nothing")
    finally:
        second.stop()


@pytest.mark.postgres
def test_the_follower_waits_while_its_process_drains_a_burst(two_processes):
    """Issue 46: while a block of `deferring` runs (a worker draining a burst of
    deadlines), the follower of that process applies nothing new, and it applies what it
    missed once the block ends; a read still catches up what it reads first."""
    matches, other = two_processes
    with leading(matches.read_models) as models:
        with models.deferring():
            new = other.create_match("toy", {})
            time.sleep(1.0)  # twenty pauses of the follower
            assert not listed(models, new.match_id)
        wait_until(lambda: listed(models, new.match_id), "the follower never caught up after")
        with models.deferring():
            later = other.create_match("toy", {})
            assert str(later.match_id) in [i["match_id"] for i in matches.list_matches().items]


@contextlib.contextmanager
def leading(models: runner.ReadModels) -> Iterator[runner.ReadModels]:
    """Starts the read models' follower, waits until it leads, and stops it after."""
    models.interval = 0.05
    models.start()
    try:
        assert isinstance(models._thread, Follower) and models._thread.subscribed.wait(10)
        yield models
    finally:
        models.stop()


def test_deferring_counts_its_blocks(matches):
    models = matches.read_models
    assert models.undeferred.is_set()
    with models.deferring():
        with models.deferring():
            assert not models.undeferred.is_set()
        assert not models.undeferred.is_set()  # the outer block still runs
    assert models.undeferred.is_set()


@pytest.mark.postgres
def test_the_follower_catches_up_anyway_after_the_longest_deferral(two_processes, monkeypatch):
    """A block that never ends (a stuck drain) holds the read models back at most
    Follower.MAX_DEFERRAL seconds."""
    monkeypatch.setattr(Follower, "MAX_DEFERRAL", 0.3)
    matches, other = two_processes
    with leading(matches.read_models) as models, models.deferring():
        new = other.create_match("toy", {})
        wait_until(lambda: listed(models, new.match_id), "the deferral never ran out")


def test_an_unknown_projection_is_refused_by_name(matches):
    with pytest.raises(UnknownProjectionError, match="'leaderboard'"):
        matches.read_models.rebuild("leaderboard")


def test_an_in_memory_store_has_read_models_too(clock):
    app = Matches(env=Settings("memory://").event_store_env(), clock=clock)
    try:
        new, _ = started(app)
        assert [i["match_id"] for i in app.list_matches().items] == [str(new.match_id)]
        clock.advance(61)
        assert [d.match_id for d in app.due_movements()] == [new.match_id]
    finally:
        app.close()


def test_the_match_list_counts_disputes_and_equals_a_rebuild(matches, clock):
    new, (alice, _) = started(matches)
    quiet, _ = started(matches)
    matches.file_dispute(new.match_id, alice, [1], "one")
    matches.file_dispute(new.match_id, new.referee_token, [2], "two")
    matches.rule_dispute(new.match_id, new.referee_token, 2, "dismissed", "no case")
    [listed] = matches.list_matches(disputes="open").items
    assert listed["match_id"] == str(new.match_id)
    assert listed["disputes"] == {"open": 1, "ruled": 1}
    [other] = [i for i in matches.list_matches().items if i["match_id"] == str(quiet.match_id)]
    assert other["disputes"] == {"open": 0, "ruled": 0}
    assert open_disputes(matches.read_models) == (1, [{"match_id": str(new.match_id), "open": 1}])
    followed = snapshot(matches.read_models, "match_list")
    assert matches.read_models.rebuild("match_list")
    assert snapshot(matches.read_models, "match_list") == followed
    matches.rule_dispute(new.match_id, new.referee_token, 1, "upheld", "noted")
    assert matches.list_matches(disputes="open").items == []
    assert open_disputes(matches.read_models) == (0, [])  # what /health reports
