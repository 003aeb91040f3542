"""A drawn District War match of a single elimination is replayed by its own rematch
(issue 45; DW-5: the drawn match creates its replay, same seats), linked to its table as
the next attempt with no match of the tournament's own; a table drawn again after
`max_replays` replays sends the higher seed on, recorded as `by: "seed"`. On SQLite and
PostgreSQL, through the Tournaments facade."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from service.matches import Matches
from service.settings import Settings
from service.tournaments import Tournaments
from tests.support.tournament_games import (
    OPERATOR,
    entered,
    forfeit,
    latest_matches,
    play_draw,
)


@pytest.fixture
def app(database_url: str, clock: Any) -> Iterator[Matches]:
    matches = Matches(
        env=Settings(database_url).event_store_env(), clock=clock, operator_token=OPERATOR
    )
    yield matches
    matches.close()


def _bracket(app: Matches, **options: Any) -> tuple[Tournaments, UUID, dict[str, Any]]:
    tournaments = Tournaments(app)
    tid = tournaments.create(
        "Knockout", "elimination", "district_war", options=options or None
    ).tournament_id
    made = entered(tournaments, tid, ("ada", "bo", "cy", "di"))
    tournaments.advance(tid)
    return tournaments, tid, made


def _completed(tournaments: Tournaments, tid: UUID, number: int) -> list[dict[str, Any]]:
    items = tournaments.items(tid)
    done = [i["data"] for i in items if i["type"] == "RoundCompleted"]
    return next(d["advancing"] for d in done if d["round"] == number)


def test_a_drawn_district_war_match_is_replayed_by_its_own_rematch(app):  # type: ignore[no-untyped-def]
    """DW-5: the draw's rematch is the table's attempt 2; no other match is made."""
    tournaments, tid, made = _bracket(app)
    first, second = latest_matches(tournaments, tid)  # 1 v 4, 2 v 3
    play_draw(tournaments, tid, first, made)
    forfeit(app, second)
    steps = tournaments.advance(tid)
    rematch = app.get_match(first).rematch_id
    assert any(step.startswith(f"rematch {rematch} of match {first}") for step in steps)
    record = tournaments.get(tid).rounds[0]
    assert record["links"][0] == [first, rematch] and not record["completed"]
    replay = app.get_match(rematch)
    assert replay.rematch_of == first and replay.started
    assert [s.player_id for s in replay.seats] == [s.player_id for s in app.get_match(first).seats]
    assert len(list(app.match_ids())) == 3  # the two tables' and the rematch
    forfeit(app, rematch, seat=1)  # the lower seed wins the replay
    tournaments.advance(tid)
    lower = str(app.get_match(first).seats[1].player_id)
    assert {"player_id": lower, "table": 1, "by": "result"} in _completed(tournaments, tid, 1)


def test_a_rematch_a_crash_left_missing_is_created_and_linked(app, monkeypatch):  # type: ignore[no-untyped-def]
    """A crash between the draw and its ReplayLinked (DW-5) leaves no rematch: the
    tournament's advance creates it, once, and links it."""
    tournaments, tid, made = _bracket(app)
    first, second = latest_matches(tournaments, tid)
    with monkeypatch.context() as patched:
        patched.setattr(app.resolution, "create_rematch_if_due", lambda *_, **__: None)
        play_draw(tournaments, tid, first, made, rematch=False)
    forfeit(app, second)
    tournaments.advance(tid)
    rematch = app.get_match(first).rematch_id
    assert rematch is not None and app.get_match(rematch).rematch_of == first
    assert tournaments.get(tid).rounds[0]["links"][0] == [first, rematch]
    assert tournaments.advance(tid) == [] and len(list(app.match_ids())) == 3


def test_a_table_drawn_again_after_three_replays_sends_the_higher_seed_on(app):  # type: ignore[no-untyped-def]
    """The issue: at most three replays, then the higher seed advances, recorded."""
    tournaments, tid, made = _bracket(app)
    first, second = latest_matches(tournaments, tid)
    forfeit(app, second)
    chain = [first]
    for _ in range(4):  # the match and its three replays, all drawn
        play_draw(tournaments, tid, chain[-1], made)
        tournaments.advance(tid)
        linked = tournaments.get(tid).rounds[0]["links"][0]
        if len(chain) < 4:
            chain.append(str(app.get_match(chain[-1]).rematch_id))
        assert linked == chain
    higher = str(app.get_match(first).seats[0].player_id)
    assert {"player_id": higher, "table": 1, "by": "seed"} in _completed(tournaments, tid, 1)
    assert len(tournaments.get(tid).rounds) == 2  # the final is paired
    final = latest_matches(tournaments, tid)[0]
    forfeit(app, final)
    tournaments.advance(tid)
    report = tournaments.verify(tid)
    assert report.ok and report.pairings_derived, report.divergence


def test_max_replays_zero_sends_the_higher_seed_on_at_the_first_draw(app):  # type: ignore[no-untyped-def]
    tournaments, tid, made = _bracket(app, max_replays=0)
    first, second = latest_matches(tournaments, tid)
    play_draw(tournaments, tid, first, made)
    forfeit(app, second)
    tournaments.advance(tid)
    assert tournaments.get(tid).rounds[0]["links"][0] == [first]
    higher = str(app.get_match(first).seats[0].player_id)
    assert {"player_id": higher, "table": 1, "by": "seed"} in _completed(tournaments, tid, 1)
