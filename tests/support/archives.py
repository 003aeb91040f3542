"""Matches to archive, and the forger's tools: played District War and DRTS Team 23
matches, a second store beside the test's own, and a log edited then chained again
(what a dishonest operator would do, and what only heads and receipts catch).
"""

from __future__ import annotations

import copy
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from domain.errors import DrtsError
from domain.integrity import genesis, next_chain
from domain.rules.rng import Rng
from service.clock import ManualClock
from service.matches import Matches
from service.settings import Settings
from tests.corpus.plays import DRTS_PLAYERS, Desk
from tests.support.postgres import new_pg_database, pg_url


def finished_district_war(matches: Matches, clock: ManualClock) -> Desk:
    """Returns a District War match played to its end by bots, one refused order in it."""
    desk = Desk.create(matches, clock, "district_war", ("ada", "bo"), "archive-dw")
    desk.start()
    while not desk.finished():
        movement, (seat,) = desk.match().movement, desk.owing()
        if movement == 3:
            desk.refused(seat, "z9", DrtsError)
        desk.order(seat, desk.bot_order(seat, Rng("archive-dw-bots", movement)), 4)
    return desk


def finished_drts(matches: Matches, clock: ManualClock) -> Desk:
    """Returns a DRTS Team 23 match of two movements played to its end by bots; seat 8
    stays silent in the first (it closes at its deadline), and seat 1 replaces an order."""
    config = {"movements": 2, "close_early": True}
    desk = Desk.create(matches, clock, "drts_team23", DRTS_PLAYERS, "archive-drts", config)
    desk.start()
    while not desk.finished():
        movement = desk.match().movement
        bots = Rng("archive-drts-bots", movement)
        for seat in desk.owing():
            if movement == 1 and seat == 8:
                continue
            desk.order(seat, desk.bot_order(seat, bots), 1)
            if seat == 1:
                desk.order(seat, desk.bot_order(seat, bots), 1)
        if desk.match().movement == movement and not desk.finished():
            desk.pass_deadline()
    return desk


def unfinished_district_war(matches: Matches, clock: ManualClock) -> Desk:
    """Returns a District War match in its third movement, with its deadline open."""
    desk = Desk.create(matches, clock, "district_war", ("ada", "bo"), "archive-dw-open")
    desk.start()
    while desk.match().movement < 3:
        (seat,) = desk.owing()
        desk.order(seat, desk.bot_order(seat, Rng("archive-dw-bots", 0)), 4)
    return desk


def open_drts(matches: Matches, clock: ManualClock) -> Desk:
    """Returns a DRTS Team 23 match whose first movement is open with seats 1 to 3's
    orders in, still sealed."""
    desk = Desk.create(matches, clock, "drts_team23", DRTS_PLAYERS, "archive-drts-open")
    desk.start()
    for seat in (1, 2, 3):
        desk.order(seat, desk.bot_order(seat, Rng("archive-drts-bots", 1)), 1)
    return desk


def rechained(archive: dict[str, Any], id_field: str = "match_id") -> dict[str, Any]:
    """Returns the archive with every chain link computed again from its (edited) events,
    and its head moved to its last event: a forgery that verifies on its own. `id_field`
    names its aggregate's id (a tournament's archive: "tournament_id")."""
    forged = copy.deepcopy(archive)
    chain = genesis(archive[id_field])
    for event in forged["events"]:
        body = {key: event[key] for key in ("type", "version", "timestamp", "data")}
        chain = event["chain"] = next_chain(chain, body)
    last = forged["events"][-1]
    forged["head"] = {"version": last["version"], "chain": last["chain"]}
    return forged


def cut(archive: dict[str, Any], version: int) -> dict[str, Any]:
    """Returns the archive cut short after `version`, its head moved there."""
    short = copy.deepcopy(archive)
    short["events"] = short["events"][:version]
    short["head"] = {"version": version, "chain": short["events"][-1]["chain"]}
    return short


def event_at(archive: dict[str, Any], type_name: str, nth: int = 0) -> dict[str, Any]:
    """Returns the archive's `nth` event of a type (from 0)."""
    return [e for e in archive["events"] if e["type"] == type_name][nth]


@contextmanager
def another_store(
    database_url: str, request: pytest.FixtureRequest, directory: Path
) -> Iterator[str]:
    """Yields the URL of a second, migrated store on the same kind of database."""
    if database_url.startswith("sqlite"):
        template = request.getfixturevalue("sqlite_template")
        yield f"sqlite:///{shutil.copyfile(template, directory / 'target.sqlite')}"
        return
    with new_pg_database("drts_t", template=request.getfixturevalue("pg_template")) as name:
        yield pg_url(name)


def opened(url: str, clock: ManualClock) -> Matches:
    """Returns the Matches application on a store (close it)."""
    return Matches(env=Settings(url).event_store_env(), clock=clock)
