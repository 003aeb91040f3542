"""A round robin of four District War players run by a real Celery worker on PostgreSQL
and a real broker (issue 45): the worker pairs each round, whether told by a resolution
task that finds a tournament match finished, by the sweep's backstop, or by duplicated
`advance_tournament` deliveries, and each round is paired exactly once."""

from __future__ import annotations

from uuid import UUID

from service.matches import Matches
from service.scheduling import RESOLVE_MOVEMENT, SWEEP_DUE
from service.tournaments import ADVANCE_TOURNAMENT, Tournaments
from tests.workers.conftest import Cluster, wait_for

OPERATOR = "operator-secret"


def _types(tournaments: Tournaments, tid: UUID) -> list[str]:
    return [item["type"] for item in tournaments.items(tid)]


def _finish_round(app: Matches, tournaments: Tournaments, tid: UUID) -> list[str]:
    """Forfeits the second seat of each match of the latest round; returns their ids."""
    record = tournaments.get(tid).rounds[-1]
    ids = [links[-1] for links in record["links"]]
    for match_id in ids:
        app.act(match_id, OPERATOR, "forfeit", {"seat": 2}, "test")
    return ids


def test_a_worker_runs_a_round_robin_to_the_end(cluster: Cluster) -> None:
    app = Matches(env=cluster.settings.event_store_env(), operator_token=OPERATOR)
    cluster.services.append(app)
    tournaments, players = Tournaments(app), app.players
    tid = tournaments.create("Worker Cup", "round_robin", "district_war").tournament_id
    for name in ("ada", "bo", "cy", "di"):
        made = players.create(name)
        tournaments.register(tid, made.name, made.key)

    def rounds_linked(count: int) -> bool:
        return _types(tournaments, tid).count("MatchLinked") == 2 * count

    with cluster.workers(1):
        for _ in range(3):  # duplicate deliveries of the first advance
            cluster.send(ADVANCE_TOURNAMENT, str(tid))
        wait_for(lambda: rounds_linked(1), timeout=30)
        # round 1's matches finish: the sweep's backstop pairs round 2
        _finish_round(app, tournaments, tid)
        swept = cluster.send(SWEEP_DUE)
        assert swept.get(timeout=30) == 0
        wait_for(lambda: rounds_linked(2), timeout=30)
        # round 2's: a resolution task finding them finished tells the worker
        for match_id in _finish_round(app, tournaments, tid):
            cluster.send(RESOLVE_MOVEMENT, match_id, 1)
        wait_for(lambda: rounds_linked(3), timeout=30)
        _finish_round(app, tournaments, tid)
        for _ in range(2):
            cluster.send(ADVANCE_TOURNAMENT, str(tid))
        wait_for(lambda: tournaments.get(tid).seed_revealed, timeout=30)
    types = _types(tournaments, tid)
    assert types.count("RoundPaired") == 3 and types.count("MatchLinked") == 6
    assert types.count("ResultRecorded") == 6 and types.count("Finished") == 1
    assert len(list(app.match_ids())) == 6
    report = tournaments.verify(tid)
    assert report.ok and report.pairings_derived, report.divergence
    assert len(app.players.ratings("district_war").table.players) == 4
