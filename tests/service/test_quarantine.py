"""Projections never stop on one bad event (issue 15), on SQLite and PostgreSQL: the match
whose event fails to apply is left out of that projection and listed, the other matches go
on, and a rebuild clears the list (recording the match again while the cause remains)."""

from __future__ import annotations

import time
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner
from eventsourcing.persistence import Tracking

from cli.main import main
from domain.integrity import commitment
from service.clock import ManualClock
from service.matches import Matches
from service.readmodels.projections import MatchList
from service.readmodels.runner import Follower
from tests.service.readmodel_support import play_random_mix, snapshots

pytestmark = pytest.mark.usefixtures("toy_rulesets")

TOO_BIG = 2**70  # no integer column of either database holds it


def started(matches: Matches, **config: Any) -> tuple[UUID, str, list[str]]:
    new = matches.create_match("toy", {"close_early": False, **config})
    tokens = [matches.join(new.match_id, name).token for name in ("alice", "bob")]
    matches.start(new.match_id, new.referee_token)
    return new.match_id, str(new.referee_token), tokens


def stored_with_an_unprojectable_movement(matches: Matches, clock: ManualClock) -> UUID:
    """Returns a match started at a movement no read-model column holds, stored through
    the aggregate as a store written before the edge limits (service/limits.py) could hold
    it."""
    new = matches.create_match("toy", {"close_early": False})
    for name in ("carol", "dave"):
        matches.join(new.match_id, name)
    match = matches.get_match(new.match_id)
    match.start(commitment(str(new.referee_token)), clock(), None, TOO_BIG)
    matches.store.save(match)
    return new.match_id


def listed(matches: Matches) -> set[str]:
    return {item["match_id"] for item in matches.list_matches(limit=200).items}


def test_a_match_whose_event_fails_to_apply_is_left_out_and_the_others_go_on(matches, clock):
    before, _, _ = started(matches)
    bad = stored_with_an_unprojectable_movement(matches, clock)
    after, _, (alice, _) = started(matches)
    assert listed(matches) == {str(before), str(after)}
    matches.read_models.catch_up()
    pairs = {(q.projection, q.match_id, q.event_type) for q in matches.read_models.quarantined()}
    assert pairs == {("match_list", bad, "Match.Started"), ("deadlines", bad, "Match.DeadlineSet")}
    assert matches.read_models.quarantine_count() == 2
    started_at = next(q for q in matches.read_models.quarantined() if q.projection == "match_list")
    assert started_at.position == 9  # 5 events of the first match, then Created, 2 joins, Started
    assert "integer out of range" in started_at.error or "too large" in started_at.error
    # the other matches keep resolving: their deadlines are still found and resolved
    matches.submit_order(after, alice, "2")
    clock.advance(61)
    resolved = {closing.match_id for closing in matches.resolve_due()}
    assert resolved == {before, after}
    assert {m["movement"] for m in matches.list_matches(status="started").items} == {2}


def test_a_bad_event_in_a_batch_leaves_out_its_match_only_as_event_by_event_would(matches, clock):
    """The batch falls back from its fast path (View.apply_batch) to event by event: its
    other events are applied, and the rows and quarantine equal the per-event path's."""
    play_random_mix(matches, clock, seed=11, count=3)
    bad = stored_with_an_unprojectable_movement(matches, clock)
    after, _, _ = started(matches)
    models = matches.read_models
    models.catch_up()
    batched = snapshots(models), left_out(matches)
    assert {(name, match) for name, match, _, _ in batched[1]} == {
        ("match_list", bad),
        ("deadlines", bad),
    }
    assert str(after) in listed(matches)
    for name, projection in models.projections.items():
        with models.view(name).batch():
            models.view(name).reset(matches.store.name)
        for notification in matches.store.recorder.select_notifications(
            start=1, limit=10_000, topics=projection.topics
        ):
            models.apply(
                projection,
                matches.store.mapper.to_domain_event(notification),
                Tracking(matches.store.name, notification.id),
            )
    assert (snapshots(models), left_out(matches)) == batched


def left_out(matches: Matches) -> set[tuple[str, UUID, int, str]]:
    """Returns (projection, match, log position, event type) for each pair left out."""
    return {
        (q.projection, q.match_id, q.position, q.event_type)
        for q in matches.read_models.quarantined()
    }


def test_later_events_of_a_left_out_match_are_skipped_by_that_projection(matches, monkeypatch):
    victim = matches.create_match("toy", {}).match_id
    failing_for(monkeypatch, "Created", victim)
    matches.read_models.catch_up()
    monkeypatch.undo()
    for name in ("alice", "bob"):  # SeatJoined would add seat rows, were it applied
        matches.join(victim, name)
    matches.read_models.catch_up()
    rows = matches.read_models.view("match_list").query("SELECT match_id FROM {match_seats}")
    assert rows == [] and str(victim) not in listed(matches)
    [left_out] = matches.read_models.quarantined()
    assert (left_out.projection, left_out.event_type) == ("match_list", "Match.Created")
    assert matches.read_models.view("standings").query("SELECT * FROM {standings_seats}")


def test_a_rebuild_clears_the_quarantine_and_records_it_again_while_the_cause_remains(
    matches, clock
):
    bad = stored_with_an_unprojectable_movement(matches, clock)
    good, _, _ = started(matches)
    matches.read_models.catch_up()
    first = {(q.projection, q.match_id): q for q in matches.read_models.quarantined()}
    for name in ("match_list", "deadlines"):
        matches.read_models.rebuild(name)
    again = {(q.projection, q.match_id): q for q in matches.read_models.quarantined()}
    assert again.keys() == first.keys() == {("match_list", bad), ("deadlines", bad)}
    assert listed(matches) == {str(good)}


def test_a_rebuild_after_the_cause_is_fixed_brings_the_match_back(matches, monkeypatch):
    """A handler that raises (a bug, say) leaves the match out; once fixed, a rebuild
    applies the match's events again."""
    victim, _, _ = started(matches)
    bystander, _, _ = started(matches)
    failing_for(monkeypatch, "Started", victim)
    matches.read_models.rebuild("match_list")
    [left_out] = matches.read_models.quarantined()
    assert (left_out.match_id, left_out.error) == (victim, "KeyError: 'a handler bug'")
    assert listed(matches) == {str(bystander)}
    monkeypatch.undo()
    matches.read_models.rebuild("match_list")
    assert matches.read_models.quarantined() == []
    assert listed(matches) == {str(victim), str(bystander)}


def failing_for(monkeypatch: pytest.MonkeyPatch, event_name: str, victim: UUID) -> None:
    """Makes the match list's handler of one event class raise for one match."""
    event_class = next(c for c in MatchList.handlers if c.__name__ == event_name)
    handler = MatchList.handlers[event_class]

    def failing(self: Any, event: Any, tracking: Any) -> Any:
        if event.originator_id == victim:
            raise KeyError("a handler bug")
        return handler(self, event, tracking)

    monkeypatch.setitem(MatchList.handlers, event_class, failing)


def test_projections_status_lists_what_is_left_out(matches, clock, database_url, monkeypatch):
    bad = stored_with_an_unprojectable_movement(matches, clock)
    matches.read_models.catch_up()
    monkeypatch.setenv("DRTS_DATABASE_URL", database_url)
    result = CliRunner().invoke(main, ["projections", "status"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any(line.startswith("match_list: at ") for line in lines)
    left_out = [line for line in lines if str(bad) in line]
    assert len(left_out) == 2
    assert left_out[0].startswith(f"  left out: match {bad} (Match.Started at log position ")
    assert "2 (projection, match) pair(s) left out" in result.output
    rebuilt = CliRunner().invoke(main, ["projections", "rebuild", "match_list"])
    assert rebuilt.exit_code == 0 and "left out again: 1 match(es)" in rebuilt.output


def test_following_the_log_goes_past_a_bad_event(matches, clock, database_url):
    """The live follower (PostgreSQL) or the timer (SQLite) leaves the match out and keeps
    applying the events after it."""
    models = matches.read_models
    models.interval = 0.05
    models.start()
    try:
        if "postgres" in database_url:
            assert isinstance(models._thread, Follower) and models._thread.subscribed.wait(10)
        bad = stored_with_an_unprojectable_movement(matches, clock)
        later = matches.create_match("toy", {}).match_id
        give_up = time.monotonic() + 10
        while not models.view("match_list").query(
            "SELECT match_id FROM {match_list} WHERE match_id = :m", {"m": later}
        ):
            assert time.monotonic() < give_up, "the match list stopped at the bad event"
            time.sleep(0.05)
    finally:
        models.stop()
    assert ("match_list", bad) in {(q.projection, q.match_id) for q in models.quarantined()}
