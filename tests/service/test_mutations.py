"""The mutation suite of issue 16: finished matches of District War and DRTS Team 23,
tampered with in the database's own rows (SQLite and PostgreSQL), then verified three
ways (docs/integrity.md, What each check catches):

- "rows": only the event rows were changed (the read model and snapshots left as the
  service wrote them), verified without receipts or heads;
- "careful": the tamperer also deleted the match's snapshots and rebuilt the match
  list read model from the tampered log, verified without receipts or heads;
- "evidence": the careful tamperer's store, verified with every seat's receipts and
  every result's head.

EXPECTED is the table the lead's note quotes: whether each mutation is detected in
each way. With the evidence, each one is named by a receipt or head (or by the chain
itself, which names the event).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.rules.rng import Rng
from service.errors import TamperedLogError
from service.matches import Matches
from service.results import Closing, OrderReceipt
from service.scenarios.driver import ManualClock
from service.settings import Settings
from tests.corpus.plays import DRTS_PLAYERS, Desk
from tests.support.mutations import Rows, flip_text, rechain_from
from tests.support.postgres import new_pg_database, pg_url

# mutation -> detected (rows only, careful tamperer, careful tamperer with the evidence)
EXPECTED: dict[str, tuple[bool, bool, bool]] = {
    "payload byte": (True, True, True),
    "sealed order": (True, True, True),
    "salt": (True, True, True),
    "seed": (True, True, True),
    "timestamp": (True, True, True),
    "token hash": (True, True, True),
    "swap two events": (True, True, True),
    "delete the first event": (True, True, True),
    "delete a middle event": (True, True, True),
    "delete the last event": (True, False, True),
    "delete the last three": (True, False, True),
    "truncate past a snapshot": (True, False, True),
    "edit then re-chain": (True, False, True),
    "edit a snapshot": (True, True, True),
    "append a copy": (True, True, True),
}


@dataclass
class Played:
    """A finished match in a store that is copied for each mutation."""

    backend: str
    base: str  # the SQLite file, or the PostgreSQL database name
    match_id: UUID
    receipts: list[dict[str, Any]]
    heads: list[dict[str, Any]]
    token_hashes: list[str]


def edit(key: str, change: Callable[[dict[str, Any]], None]) -> Callable[[Rows, Matches], None]:
    """Returns a mutation changing the JSON of the first event of a type."""

    def mutate(rows: Rows, matches: Matches) -> None:
        version = rows.first(key)
        topic, data = rows.row(version)
        change(data)
        rows.write(version, topic, data)

    return mutate


def set_in(path: tuple[str, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value

    return change


def swap(rows: Rows, matches: Matches) -> None:
    a = rows.first("OrderSubmitted", 1)
    (ta, da), (tb, db) = rows.row(a), rows.row(a + 1)
    rows.write(a, tb, db)
    rows.write(a + 1, ta, da)


def middle(rows: Rows, matches: Matches) -> None:
    versions = rows.versions()
    rows.delete(versions[len(versions) // 2])


def past_snapshot(rows: Rows, matches: Matches) -> None:
    last_snapshot = rows.versions(rows.snapshots)[-1]
    rows.delete(*[v for v in rows.versions() if v > last_snapshot - 5])


def rechained(rows: Rows, matches: Matches) -> None:
    version = rows.first("StepApplied", 1)
    topic, data = rows.row(version)
    flip_text(data)
    rows.write(version, topic, data)
    rechain_from(rows, matches, version)


def edit_snapshot(rows: Rows, matches: Matches) -> None:
    version = rows.versions(rows.snapshots)[-1]
    topic, data = rows.row(version, rows.snapshots)
    seat = data["state"]["seats"][0]
    seat["_data_"]["token_hash"] = "0" * 64  # whoever holds a token hashing to it: seat 1
    rows.write(version, topic, data, rows.snapshots)


MUTATIONS: dict[str, Callable[[Rows, Matches], None]] = {
    "payload byte": edit("StepApplied", flip_text),
    "sealed order": edit("OrderSubmitted", set_in(("sealed", "order"), {"forged": 1})),
    "salt": edit("OrderSubmitted", set_in(("sealed", "salt"), "0" * 32)),
    "seed": edit("Created", set_in(("sealed", "seed"), "forged seed")),
    "timestamp": edit(
        "MovementResolved",
        set_in(("timestamp",), {"_type_": "datetime_iso", "_data_": "2031-01-01T00:00:00+00:00"}),
    ),
    "token hash": edit("SeatJoined", set_in(("token_hash",), "0" * 64)),
    "swap two events": swap,
    "delete the first event": lambda rows, matches: rows.delete(1),
    "delete a middle event": middle,
    "delete the last event": lambda rows, matches: rows.delete(rows.versions()[-1]),
    "delete the last three": lambda rows, matches: rows.delete(*rows.versions()[-3:]),
    "truncate past a snapshot": past_snapshot,
    "edit then re-chain": rechained,
    "edit a snapshot": edit_snapshot,
    "append a copy": lambda rows, matches: rows.append_copy(),
}


# -- playing the matches ----------------------------------------------------------------


class Keeper:
    """What the seats and the results hand out: receipts, and the heads of results."""

    def __init__(self) -> None:
        self.receipts: list[dict[str, Any]] = []
        self.heads: list[dict[str, Any]] = []

    def receipt(self, receipt: OrderReceipt) -> None:
        self.receipts.append(receipt.to_json())
        self.closing(receipt.closing)

    def closing(self, closing: Closing | None) -> None:
        if closing is not None and closing.head is not None:
            self.heads.append(closing.head.to_json())


def play_district_war(matches: Matches, clock: Any, keeper: Keeper) -> UUID:
    desk = Desk.create(matches, clock, "district_war", ("ada", "bo"), "mutations-dw")
    desk.start()
    while not desk.finished():
        movement, (seat,) = desk.match().movement, desk.owing()
        keeper.receipt(desk.order(seat, desk.bot_order(seat, Rng("mutations-dw", movement))))
    return desk.id


def play_drts(matches: Matches, clock: Any, keeper: Keeper) -> UUID:
    desk = Desk.create(
        matches, clock, "drts_team23", DRTS_PLAYERS, "mutations-drts", {"movements": 3}
    )
    desk.start()
    while not desk.finished():
        movement = desk.match().movement
        bots = Rng("mutations-drts", movement)
        for seat in desk.owing():
            keeper.receipt(desk.order(seat, desk.bot_order(seat, bots), 1))
        match = desk.match()
        if match.movement == movement and match.deadline is not None:
            clock.reach(match.deadline)
            keeper.closing(matches.resolve(desk.id, movement))
    return desk.id


PLAYS = {"district_war": play_district_war, "drts_team23": play_drts}


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def stores(
    backend: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Played]]:
    """Both games played to the end once per backend, in stores copied per mutation."""
    with ExitStack() as stack:
        played = {}
        for game, play in PLAYS.items():
            if backend == "sqlite":
                template = request.getfixturevalue("sqlite_template")
                base = str(tmp_path_factory.mktemp(game) / "base.sqlite")
                shutil.copyfile(template, base)
                url = f"sqlite:///{base}"
            else:
                base = stack.enter_context(
                    new_pg_database("drts_mut", template=request.getfixturevalue("pg_template"))
                )
                url = pg_url(base)
            clock, keeper = ManualClock(), Keeper()
            matches = Matches(env=Settings(url).event_store_env(), clock=clock)
            match_id = play(matches, clock, keeper)
            assert matches.verify_chain(match_id).ok
            hashes = [seat.token_hash for seat in matches.get_match(match_id).seats]
            matches.close()
            played[game] = Played(backend, base, match_id, keeper.receipts, keeper.heads, hashes)
        yield played


@pytest.fixture
def copy_of(tmp_path: Path) -> Iterator[Callable[[Played], str]]:
    """Returns a function giving the URL of a fresh copy of a played store."""
    with ExitStack() as stack:

        def copy(played: Played) -> str:
            if played.backend == "sqlite":
                target = tmp_path / "copy.sqlite"
                shutil.copyfile(played.base, target)
                return f"sqlite:///{target}"
            return pg_url(stack.enter_context(new_pg_database("drts_mc", template=played.base)))

        yield copy


def detected(matches: Matches, match_id: UUID, played: Played | None = None) -> bool:
    """Returns whether verify finds the match unsound (with the evidence when given), and
    checks that each problem names its evidence."""
    if played is None:
        report = matches.verify_chain(match_id)
    else:
        report = matches.verify_chain(
            match_id,
            [(f"receipt {i}", r) for i, r in enumerate(played.receipts)],
            [(f"head {i}", h) for i, h in enumerate(played.heads)],
        )
    for problem in report.problems:
        assert problem.source and problem.message and str(problem.version) in problem.message
    return not report.ok


def careful(matches: Matches, match_id: UUID, url: str, keep_snapshots: bool) -> None:
    """Does what a careful tamperer does next: deletes the match's snapshots and rebuilds
    the match list read model from the tampered log."""
    if not keep_snapshots:
        rows = Rows(url, match_id)
        rows.sql(f"DELETE FROM {rows.snapshots} WHERE originator_id = ?", rows.key)
        rows.close()
    matches.read_models.rebuild("match_list")


def reads_answer(matches: Matches, match_id: UUID) -> None:
    """Every read of the tampered match answers, or refuses as tampered_log: never else."""
    for read in (matches.replay, matches.state, matches.summary, matches.event_log):
        try:
            read(match_id)
        except TamperedLogError as error:
            assert error.code == "tampered_log" and error.details["version"] >= 1
        except Exception as error:  # pragma: no cover - the failure says what leaked
            if "no match with id" not in str(error):
                raise AssertionError(f"{read.__name__} raised {error!r}") from error


@pytest.mark.parametrize("game", list(PLAYS))
@pytest.mark.parametrize("mutation", list(MUTATIONS))
def test_every_mutation_is_detected_as_the_table_says(
    stores: dict[str, Played], copy_of: Callable[[Played], str], game: str, mutation: str
) -> None:
    played = stores[game]
    url = copy_of(played)
    matches = Matches(env=Settings(url).event_store_env())
    try:
        matches.read_models.catch_up()
        rows = Rows(url, played.match_id)
        MUTATIONS[mutation](rows, matches)
        rows.close()
        fresh = Matches(env=Settings(url).event_store_env())  # nothing checked in memory
        try:
            reads_answer(fresh, played.match_id)
            seen = [detected(fresh, played.match_id)]
            careful(fresh, played.match_id, url, keep_snapshots=mutation == "edit a snapshot")
            seen += [detected(fresh, played.match_id), detected(fresh, played.match_id, played)]
            if mutation == "edit a snapshot":  # never served: the match loads from its events
                seats = fresh.get_match(played.match_id).seats
                assert [seat.token_hash for seat in seats] == played.token_hashes
        finally:
            fresh.close()
    finally:
        matches.close()
    assert tuple(seen) == EXPECTED[mutation], f"{mutation} on {game}: detected {seen}"


@pytest.mark.parametrize("game", list(PLAYS))
def test_the_untampered_match_verifies_with_all_its_evidence(
    stores: dict[str, Played], copy_of: Callable[[Played], str], game: str
) -> None:
    played = stores[game]
    matches = Matches(env=Settings(copy_of(played)).event_store_env())
    try:
        assert played.receipts and played.heads
        assert not detected(matches, played.match_id, played)
        report = matches.verify_chain(played.match_id)
        assert report.ok and report.version == max(h["version"] for h in played.heads)
    finally:
        matches.close()
