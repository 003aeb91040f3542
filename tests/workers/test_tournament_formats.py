"""Each tournament format run by a real Celery worker on PostgreSQL and a Redis broker
(issue 45), beside the round robin of tests/workers/test_tournaments.py: a Swiss of nine
with its byes, a single elimination of eight whose drawn District War match is replayed
by its DW-5 rematch, two rounds of a DRTS Team 23 table of eight, and a Shades table
played by bot programs. The test process plays the matches (forfeits, orders, bots); the
worker records their results and pairs every next round, told by a resolution task that
finds a match finished, by an `advance_tournament`, or by the sweep's backstop. Last, a
process killed between a round's results and the next pairing, then duplicated
deliveries to two workers: the next round is paired once."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from cli.bots.runner import MatchPlan, Program
from service.matches import Matches
from service.scheduling import RESOLVE_MOVEMENT, SWEEP_DUE
from service.tournaments import ADVANCE_TOURNAMENT, Tournaments
from tests.support.crash_tournament import CRASHED
from tests.support.team23_orders import TEAM23_FIRST
from tests.support.tournament_games import (
    OPERATOR,
    entered,
    forfeit,
    latest_matches,
    play_draw,
    play_with_bots,
    seat_tokens,
)
from tests.workers.conftest import Cluster, wait_for

pytestmark = pytest.mark.parametrize("broker", ["redis"], indirect=True)

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "examples" / "bots"
TIMEOUT = 60


def _service(cluster: Cluster) -> tuple[Matches, Tournaments]:
    app = Matches(env=cluster.settings.event_store_env(), operator_token=OPERATOR)
    cluster.services.append(app)
    return app, Tournaments(app)


def _data(tournaments: Tournaments, tid: UUID, kind: str) -> list[dict[str, Any]]:
    return [i["data"] for i in tournaments.items(tid) if i["type"] == kind]


def _linked(tournaments: Tournaments, tid: UUID, count: int) -> Callable[[], bool]:
    return lambda: len(_data(tournaments, tid, "MatchLinked")) >= count


def _finished(tournaments: Tournaments, tid: UUID) -> Callable[[], bool]:
    return lambda: tournaments.get(tid).seed_revealed


def _tell_worker(cluster: Cluster, match_ids: list[str]) -> None:
    """A resolution task per finished match: finding it finished, the worker advances its
    tournament (workers.tasks.tournaments_after)."""
    for match_id in match_ids:
        cluster.send(RESOLVE_MOVEMENT, match_id, 1)


def test_a_worker_runs_a_swiss_of_nine_with_a_bye_each_round(cluster: Cluster) -> None:
    """Swiss (docs/tournaments.md): 4 rounds of 9 (ceil(log2 9)), each with one bye to a
    player who had none; the earlier registered wins every game; the standing by points,
    Buchholz and Sonneborn-Berger as recomputed here from the recorded results."""
    app, tournaments = _service(cluster)
    tid = tournaments.create("Swiss Nine", "swiss", "district_war").tournament_id
    made = entered(tournaments, tid, [f"s{n}" for n in range(1, 10)])
    order = list(made)
    with cluster.workers(1):
        cluster.send(ADVANCE_TOURNAMENT, str(tid))
        for number in range(1, 5):
            wait_for(_linked(tournaments, tid, 4 * number), timeout=TIMEOUT)
            ids = latest_matches(tournaments, tid)
            for match_id in ids:
                seats = app.get_match(match_id).seats
                later = max(seats, key=lambda s: order.index(str(s.player_id)))
                forfeit(app, match_id, later.number)
            _tell_worker(cluster, ids)
        wait_for(_finished(tournaments, tid), timeout=TIMEOUT)
    paired = _data(tournaments, tid, "RoundPaired")
    assert [len(r["tables"]) for r in paired] == [4, 4, 4, 4]
    byes = [bye for r in paired for bye in r["byes"]]
    assert len(byes) == 4 and len(set(byes)) == 4
    meetings = Counter(frozenset(t) for r in paired for t in r["tables"])
    assert set(meetings.values()) == {1}  # rule 1: no two met twice
    results = _data(tournaments, tid, "ResultRecorded")
    assert len(results) == 16 and len(list(app.match_ids())) == 16
    points = Counter({player: 0 for player in order})
    for result in results:
        points.update(result["points"])
    points.update({bye: 2 for bye in byes})  # a bye scores a win
    standing = _data(tournaments, tid, "Finished")[0]["standing"]
    for entry in standing:
        player = entry["player_id"]
        mine = [r["points"] for r in results if player in r["points"]]
        opponents = [next(p for p in r if p != player) for r in mine]
        assert entry["points"] == points[player]
        assert entry["tie_breaks"]["buchholz"] == sum(points[o] for o in opponents)
        assert entry["tie_breaks"]["sonneborn_berger"] == sum(
            r[player] * points[o] for r, o in zip(mine, opponents, strict=True)
        )
    keys = [(e["points"], e["tie_breaks"]["buchholz"]) for e in standing]
    assert keys == sorted(keys, reverse=True)
    assert standing[0]["player_id"] == order[0] and standing[0]["points"] == 8
    report = tournaments.verify(tid)
    assert report.ok and report.pairings_derived and report.rounds == 4, report.divergence


def test_a_worker_runs_an_elimination_of_eight_replaying_a_draw_by_its_rematch(
    cluster: Cluster,
) -> None:
    """Elimination (docs/tournaments.md): 1 v 8 is drawn (DW-5) and replayed by the
    match's own rematch, linked as the table's second attempt with no other match; seed
    8 wins the replay and goes on; the bracket is played to its final."""
    app, tournaments = _service(cluster)
    tid = tournaments.create("Knockout", "elimination", "district_war").tournament_id
    made = entered(tournaments, tid, [f"k{n}" for n in range(1, 9)])
    seeds = list(made)
    with cluster.workers(1):
        cluster.send(ADVANCE_TOURNAMENT, str(tid))
        wait_for(_linked(tournaments, tid, 4), timeout=TIMEOUT)
        drawn, *others = latest_matches(tournaments, tid)  # table 1: seeds 1 v 8
        play_draw(tournaments, tid, drawn, made)
        for match_id in others:
            forfeit(app, match_id)  # the higher seed wins
        _tell_worker(cluster, [drawn, *others])
        wait_for(_linked(tournaments, tid, 5), timeout=TIMEOUT)
        rematch = str(app.get_match(drawn).rematch_id)
        assert tournaments.get(tid).rounds[0]["links"][0] == [drawn, rematch]
        assert len(list(app.match_ids())) == 5  # no match of the tournament's own beside it
        forfeit(app, rematch, seat=1)  # seed 8 wins the replay
        _tell_worker(cluster, [rematch])
        for linked in (7, 8):  # the semi-finals, the final
            wait_for(_linked(tournaments, tid, linked), timeout=TIMEOUT)
            for match_id in latest_matches(tournaments, tid):
                seats = [str(s.player_id) for s in app.get_match(match_id).seats]
                forfeit(app, match_id, 1 if seats[1] == seeds[7] else 2)  # 8 goes on
            cluster.send(ADVANCE_TOURNAMENT, str(tid))
        wait_for(_finished(tournaments, tid), timeout=TIMEOUT)
    links = _data(tournaments, tid, "MatchLinked")
    assert [(link["round"], link["table"], link["attempt"]) for link in links][:5] == [
        (1, 1, 1),
        (1, 2, 1),
        (1, 3, 1),
        (1, 4, 1),
        (1, 1, 2),
    ]
    assert links[4]["match_id"] == rematch and app.get_match(rematch).rematch_of == drawn
    first = _data(tournaments, tid, "RoundCompleted")[0]["advancing"]
    assert {"player_id": seeds[7], "table": 1, "by": "result"} in first
    assert len(list(app.match_ids())) == 8  # 4 + the rematch + 2 + the final
    paired = _data(tournaments, tid, "RoundPaired")
    assert [len(r["tables"]) for r in paired] == [4, 2, 1]
    assert seeds[7] in paired[1]["tables"][0]  # 8 meets the winner of 4 v 5
    assert _data(tournaments, tid, "Finished")[0]["standing"][0]["player_id"] == seeds[7]
    report = tournaments.verify(tid)
    assert report.ok and report.pairings_derived and report.rounds == 3, report.divergence


def test_a_worker_runs_two_rounds_of_a_drts_team23_table(cluster: Cluster) -> None:
    """Tables (docs/tournaments.md) of DRTS Team 23, one movement a match: each round a
    table of 8, scored by placement: the team's result first (DRTS-22), then the seat's
    own score; the seats turn, so no player sits in the same seat twice."""
    app, tournaments = _service(cluster)
    config = {"movements": 1, "max_movements": 1, "close_early": True}
    tid = tournaments.create(
        "Team Night", "tables", "drts_team23", config=config, rounds=2
    ).tournament_id
    made = entered(tournaments, tid, [f"t{n}" for n in range(1, 9)])
    with cluster.workers(1):
        cluster.send(ADVANCE_TOURNAMENT, str(tid))
        for number in (1, 2):
            wait_for(_linked(tournaments, tid, number), timeout=TIMEOUT)
            (match_id,) = latest_matches(tournaments, tid)
            tokens = seat_tokens(tournaments, tid, match_id, made)
            for seat, order in enumerate(TEAM23_FIRST, 1):
                app.submit_order(match_id, tokens[seat], order)
            assert app.get_match(match_id).finished
            _tell_worker(cluster, [match_id])
        wait_for(_finished(tournaments, tid), timeout=TIMEOUT)
    paired = _data(tournaments, tid, "RoundPaired")
    first, second = (r["tables"][0] for r in paired)
    assert sorted(first) == sorted(made) and all(a != b for a, b in zip(first, second, strict=True))
    for record, result in zip(paired, _data(tournaments, tid, "ResultRecorded"), strict=True):
        seated = record["tables"][0]
        places = [result["placements"][player] for player in seated]
        # seat 1 (green, its team alone and 1 point) first, seat 2 (yellow) second, the
        # seats of no team by their own score: 0 for five, seat 3 last at -1
        assert places == [1, 2, 8, 3, 3, 3, 3, 3]
        assert [result["scores"][player] for player in seated][:3] == [1, 0, -1]
    standing = _data(tournaments, tid, "Finished")[0]["standing"]
    assert {e["player_id"] for e in standing[:2]} == {first[0], second[0]}
    assert all("total_score" in e["tie_breaks"] for e in standing)
    report = tournaments.verify(tid)
    assert report.ok and report.pairings_derived and report.rounds == 2, report.divergence


def test_a_worker_runs_a_shades_table_played_by_bots(cluster: Cluster, tmp_path: Path) -> None:
    """Tables of Shades: four bot programs (examples/bots) play the round's table through
    the bot runner with their players' seat tokens; the sweep's backstop records the
    result by placement (SH-9: by score) and finishes the tournament."""
    app, tournaments = _service(cluster)
    config = {"map": "small", "turns": 8, "turn_seconds": 10}
    tid = tournaments.create("Bot Night", "tables", "shades", config=config, rounds=1).tournament_id
    made = entered(tournaments, tid, ["random-1", "greedy-1", "random-2", "greedy-2"])
    programs = tuple(
        Program(f"{sys.executable} {BOTS / name}")
        for name in ("random_bot.py 3", "greedy_bot.py", "random_bot.py 4", "greedy_bot.py")
    )
    with cluster.workers(1):
        cluster.send(ADVANCE_TOURNAMENT, str(tid))
        wait_for(_linked(tournaments, tid, 1), timeout=TIMEOUT)
        (match_id,) = latest_matches(tournaments, tid)
        plan = MatchPlan(programs, map="small", turn_seconds=10, log_dir=tmp_path)
        played = play_with_bots(tournaments, tid, match_id, made, plan)
        assert played.turns > 0 and app.get_match(match_id).finished
        cluster.send(SWEEP_DUE).get(timeout=TIMEOUT)
        wait_for(_finished(tournaments, tid), timeout=TIMEOUT)
    events = app.event_log(match_id)
    assert {e["data"]["source"] for e in events if e["type"] == "OrderSubmitted"} == {"bot"}
    (result,) = _data(tournaments, tid, "ResultRecorded")
    match = app.get_match(match_id)
    scores = {str(s.player_id): match.outcome["scores"][str(s.number)] for s in match.seats}
    assert result["scores"] == scores
    by_score = sorted(scores, key=lambda p: -scores[p])
    places = [result["placements"][p] for p in by_score]
    assert places == sorted(places) and places[0] == 1
    report = tournaments.verify(tid)
    assert report.ok and report.pairings_derived and report.results == 1, report.divergence


@pytest.mark.parametrize("window", ["complete", "pair"])
def test_a_worker_killed_between_a_result_and_the_next_pairing_leaves_one_next_round(
    cluster: Cluster, window: str
) -> None:
    """A process advancing the tournament dies after round 1's results are saved: before
    RoundCompleted (`complete`) or before round 2's RoundPaired (`pair`). Then two
    workers get duplicated `advance_tournament`s, a resolution task and a sweep at once:
    round 2 is paired exactly once, with one match a table."""
    app, tournaments = _service(cluster)
    tid = tournaments.create("Crash Cup", "round_robin", "district_war").tournament_id
    entered(tournaments, tid, ["ada", "bo", "cy", "di"])
    tournaments.advance(tid)  # round 1 paired and linked
    round_one = latest_matches(tournaments, tid)
    for match_id in round_one:
        forfeit(app, match_id)
    script = [sys.executable, "-m", "tests.support.crash_tournament"]
    died = subprocess.run(
        [*script, cluster.settings.database_url, window, str(tid)], cwd=ROOT, timeout=TIMEOUT
    )
    assert died.returncode == CRASHED
    assert len(_data(tournaments, tid, "ResultRecorded")) == 2
    assert len(_data(tournaments, tid, "RoundCompleted")) == (window == "pair")
    assert len(_data(tournaments, tid, "RoundPaired")) == 1
    with cluster.workers(2):
        sent = [cluster.send(ADVANCE_TOURNAMENT, str(tid)) for _ in range(4)]
        sent += [cluster.send(RESOLVE_MOVEMENT, round_one[0], 1), cluster.send(SWEEP_DUE)]
        for result in sent:
            result.get(timeout=TIMEOUT)
    types = [item["type"] for item in tournaments.items(tid)]
    assert types.count("RoundCompleted") == 1 and types.count("RoundPaired") == 2
    assert types.count("MatchLinked") == 4 and len(list(app.match_ids())) == 4
    assert [r["round"] for r in _data(tournaments, tid, "RoundPaired")] == [1, 2]
    report = tournaments.verify(tid)
    assert report.ok, report.divergence
