"""A random 300-turn, 4-seat Shades match on a 20x20 map, played through the Matches
application on SQLite: it replays from its events to identical bytes, and it re-adjudicates
exactly from what its public event log records.

Re-adjudication here is the auditor's path, done by hand until the official `drts match
audit` (issue 17) exists: from the log alone (the Created config with the map's content,
the seat count, the seed revealed at the end, each movement's revealed orders) the pure
ruleset plays the match again, and every step and state hash must be the stored one.
"""

from __future__ import annotations

import shutil
from collections import defaultdict
from typing import Any

import pytest

from domain.rules.contract import JSON, Step, canonical_json, state_hash
from domain.rules.registry import get_ruleset
from domain.rules.rng import Rng
from domain.rules.shades import RULESET
from domain.table import Table
from service.clock import ManualClock
from service.matches import Matches
from service.settings import Settings

SEATS = 4
SEED = "three-hundred-turns"


@pytest.fixture
def sqlite_matches(sqlite_template: str, tmp_path: Any) -> Any:
    path = shutil.copyfile(sqlite_template, tmp_path / "drts.sqlite")
    app = Matches(env=Settings(f"sqlite:///{path}").event_store_env(), clock=ManualClock())
    yield app
    app.close()


def play_random_match(matches: Matches) -> Any:
    """Plays a whole match with random legal orders from every seat alive; returns its id."""
    new = matches.create_match("shades", {"map": "river"}, seats=SEATS, seed=SEED)
    tokens = [matches.join(new.match_id, f"bot{n}").token for n in range(1, SEATS + 1)]
    matches.start(new.match_id, new.referee_token)
    match = matches.get_match(new.match_id)
    while not match.finished:
        state = RULESET.load_state(match.state)
        bots = Rng(SEED, match.movement, "bots")
        for seat in RULESET.to_move(state).seats:
            order = RULESET.dump_order(RULESET.random_order(state, seat, bots))
            matches.submit_order(new.match_id, tokens[seat - 1], order, source="bot")
        match = matches.get_match(new.match_id)
    return new.match_id


def readjudicate(log: list[dict[str, JSON]]) -> list[str]:
    """Plays the logged match again on the pure ruleset; returns every divergence found."""
    by_type: dict[str, list[dict[str, JSON]]] = defaultdict(list)
    for item in log:
        by_type[item["type"]].append(item)
    created, started = by_type["Created"][0]["data"], by_type["Started"][0]["data"]
    seed = by_type["Finished"][0]["data"]["seed"]
    ruleset = get_ruleset(created["ruleset"], created["ruleset_version"])
    table = Table.start(ruleset, created["config"], started["seats"], seed)
    problems = []
    if [step.to_json() for step in ruleset.initial_steps(table.state)] != started["steps"]:
        problems.append("start: the draws' steps differ")  # SH-2, SH-8
    if state_hash(ruleset.dump_state(table.state)) != started["state_hash"]:
        problems.append("start: state hash differs")
    steps: dict[int, list[JSON]] = defaultdict(list)
    for item in by_type["StepApplied"]:
        data = item["data"]
        steps[data["movement"]].append(Step(data["rule"], data["text"], data["data"]).to_json())
    for closed, resolved in zip(
        by_type["MovementClosed"], by_type["MovementResolved"], strict=True
    ):
        movement = closed["data"]["movement"]
        for order in closed["data"]["orders"]:
            if order["used"]:
                table.submit(order["seat"], order["order"])
        again = [step.to_json() for step in table.close().steps]
        if again != steps[movement]:
            problems.append(f"movement {movement}: steps differ")
        if state_hash(ruleset.dump_state(table.state)) != resolved["data"]["state_hash"]:
            problems.append(f"movement {movement}: state hash differs")
    return problems


def test_a_300_turn_4_seat_match_replays_to_identical_bytes_and_re_adjudicates(sqlite_matches):
    matches = sqlite_matches
    match_id = play_random_match(matches)
    match = matches.get_match(match_id)
    final = RULESET.load_state(match.state)
    assert final.turn == 300 and match.outcome["reason"].startswith("the turn limit")

    report = matches.replay(match_id)
    assert report.agrees and len(report.frames) == 300
    assert canonical_json(report.state) == canonical_json(match.state)
    assert matches.verify_chain(match_id).ok

    log = matches.event_log(match_id)
    assert readjudicate(log) == []
    tampered = [dict(item) for item in log]
    step = next(i for i, item in enumerate(tampered) if item["type"] == "StepApplied")
    tampered[step] = {**tampered[step], "data": {**tampered[step]["data"], "text": "forged"}}
    assert readjudicate(tampered) == ["movement 1: steps differ"]
    started = next(i for i, item in enumerate(log) if item["type"] == "Started")
    drawn = log[started]["data"]["steps"]
    assert [step["rule"] for step in drawn] == ["SH-2", "SH-8"]
    forged = [dict(item) for item in log]
    forged[started] = {**log[started], "data": {**log[started]["data"], "steps": drawn[:1]}}
    assert readjudicate(forged) == ["start: the draws' steps differ"]
