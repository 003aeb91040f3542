"""Due offers (issue 46; service/usecases/dueoffers.py): a worker draining its held
countdown tasks offers the movements past its first batch, and every draining worker takes
offers, each once, earliest deadline first, on SQLite and PostgreSQL; two workers draining
at once share a burst whichever of them the broker gave the tasks.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import psycopg
import pytest

from service import workpolicy
from service.clock import ManualClock
from service.matches import Matches
from service.results import DueMovement
from service.settings import Settings
from service.usecases import dueoffers
from service.workpolicy import Drained, Due, WorkPolicy
from tests.support.quarantine import started

pytestmark = pytest.mark.usefixtures("toy_rulesets")
AT = datetime(2030, 1, 1, tzinfo=UTC)


def offers(count: int) -> list[DueMovement]:
    """`count` due movements, their deadlines a second apart from AT, latest first."""
    return [
        DueMovement(uuid4(), 1, AT + timedelta(seconds=count - index)) for index in range(count)
    ]


def test_an_offer_is_taken_once_earliest_deadline_first(matches: Matches) -> None:
    made = offers(3)
    matches.offer_due(made, "a")
    matches.offer_due(made[:1], "b")  # offered twice: still one offer, a's
    assert matches.take_offered(2) == [made[2], made[1]]
    assert matches.take_offered(5, offered_by="b") == []
    assert matches.take_offered(5) == [made[0]]
    assert matches.take_offered(5) == []


def test_a_worker_takes_only_its_own_offers_when_it_asks_for_them(matches: Matches) -> None:
    mine, others = offers(2), offers(2)
    matches.offer_due(mine, "me")
    matches.offer_due(others, "other")
    assert matches.take_offered(5, offered_by="me") == [mine[1], mine[0]]
    assert matches.take_offered(5, offered_by="me") == []
    assert sorted(matches.take_offered(5), key=str) == sorted(others, key=str)


@pytest.mark.postgres
def test_a_taker_passes_the_offers_another_is_taking_on_postgres(
    pg_database: str, clock: ManualClock
) -> None:
    """FOR UPDATE SKIP LOCKED: while another worker's take is not committed, a take gets
    the next offers at once, neither waiting for it nor coming back empty."""
    with Matches(env=Settings(pg_database).event_store_env(), clock=clock) as matches:
        made = offers(4)
        matches.offer_due(made, "a")
        table = matches.read_models.view(dueoffers.VIEW).tables["due_offers"]
        with psycopg.connect(pg_database) as other:
            statement = (
                dueoffers.TAKE_POSTGRES.format(where="")
                .format(due_offers=table)
                .replace(":limit", "2")
            )
            taking = other.execute(statement).fetchall()  # its transaction left open
            assert len(taking) == 2
            got: list[list[DueMovement]] = []
            taker = threading.Thread(target=lambda: got.append(matches.take_offered(5)))
            taker.start()
            taker.join(timeout=10)
            assert not taker.is_alive(), "the take waited for the other worker's transaction"
            other.rollback()
        assert got == [[made[1], made[0]]]  # the two the other was not taking


class Interleaved:
    """Worker A's Matches: before its first batch resolves, worker B's countdown task runs
    (as the second worker process would, at the same instant)."""

    def __init__(self, matches: Matches, before_first: Any) -> None:
        self.matches, self.before_first = matches, before_first

    def __getattr__(self, name: str) -> Any:
        return getattr(self.matches, name)

    def resolve_batch(self, batch: list[Any]) -> list[Any]:
        if self.before_first is not None:
            run, self.before_first = self.before_first, None
            run()
        return self.matches.resolve_batch(batch)


def test_two_draining_workers_share_a_burst_held_by_one(
    matches: Matches, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Worker A holds eight of the nine countdown tasks due together, worker B one: A
    resolves its first batch (HELD_BATCH 3) and offers the other five; B, its own movement
    resolved, takes them (BATCH_SIZE 3, then 2); every movement is resolved exactly once."""
    monkeypatch.setattr(workpolicy, "HELD_BATCH", 3)
    monkeypatch.setattr(workpolicy, "BATCH_SIZE", 3)
    ids = [started(matches)[0] for _ in range(9)]
    clock.advance(61)  # every first movement is due
    held_by_a = [(f"a{index}", Due(match_id, 1, None)) for index, match_id in enumerate(ids[:8])]
    policy_a = WorkPolicy(lambda: held_by_a, name="a")
    policy_b = WorkPolicy(lambda: [], name="b")
    drained_b: list[Drained] = []

    def worker_b() -> None:
        drained_b.append(policy_b.resolve_with_held(matches, Due(ids[8], 1, None), "b0"))

    drained_a = policy_a.resolve_with_held(
        Interleaved(matches, worker_b),  # type: ignore[arg-type]
        held_by_a[0][1],
        "a0",
    )
    assert drained_a == Drained(drained_a.closing, held=7, offered=5, resolved=2)
    assert drained_a.closing is not None
    assert drained_b == [Drained(drained_b[0].closing, held=0, offered=0, resolved=5)]
    assert [matches.summary(match_id).movement for match_id in ids] == [2] * 9
    assert [resolved(matches, match_id) for match_id in ids] == [1] * 9
    assert matches.take_offered(10) == []


def resolved(matches: Matches, match_id: UUID) -> int:
    return sum(item["type"] == "MovementResolved" for item in matches.event_log(match_id))
