"""Whole DRTS Team 23 v2 matches with every item (issue 21), played through the Matches
application: 20 movements, 8 seats, random legal orders with Stars, DeathStars,
Blackholes and Generators (meetings happen), a seat silent now and then. Each replays
from its events to identical bytes and re-adjudicates exactly (domain/audit.py
`readjudicate`, through `Matches.audit`)."""

from __future__ import annotations

from collections import Counter
from uuid import UUID

import pytest

from domain.rules.contract import canonical_json
from domain.rules.drts_team23 import RULESET_V2
from domain.rules.rng import Rng
from service.clock import ManualClock
from service.matches import Matches

SEATS = 8
SEEDS = ["v2-audit-0", "v2-audit-1"]


def play_v2_match(matches: Matches, clock: ManualClock, seed: str) -> UUID:
    """Plays a whole v2 match with random orders; one seat in ten stays silent (DRTS-22)."""
    new = matches.create_match("drts_team23", {}, seats=SEATS, seed=seed, version=2)
    tokens = [matches.join(new.match_id, f"bot{n}").token for n in range(1, SEATS + 1)]
    matches.start(new.match_id, new.referee_token)
    bots = Rng(seed, 0, "bots")
    for _ in range(40):
        match = matches.get_match(new.match_id)
        if match.finished:
            return new.match_id
        state, movement = RULESET_V2.load_state(match.state), match.movement
        for seat in RULESET_V2.to_move(state).seats:
            if bots.chance(1, 10):
                continue
            order = RULESET_V2.format_order(RULESET_V2.random_order(state, seat, bots))
            matches.submit_order(new.match_id, tokens[seat - 1], order, source="bot")
        match = matches.get_match(new.match_id)
        assert match.deadline is not None and match.movement == movement
        clock.reach(match.deadline)
        matches.resolve(new.match_id, movement, now=match.deadline)
    raise AssertionError("the v2 match did not finish in 40 movements")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_whole_v2_match_with_every_item_replays_and_re_adjudicates_exactly(
    matches: Matches, clock: ManualClock, seed: str
) -> None:
    """DRTS-11..DRTS-17 in a whole match: replay and audit agree with the stored log."""
    match_id = play_v2_match(matches, clock, seed)
    summary = matches.summary(match_id)
    assert (summary.ruleset, summary.ruleset_version) == ("drts_team23", 2)
    log = matches.event_log(match_id)
    rules = Counter(e["data"]["rule"] for e in log if e["type"] == "StepApplied")
    assert {"DRTS-11", "DRTS-13", "DRTS-15", "DRTS-16", "DRTS-17"} <= set(rules), rules
    resolved = [e for e in log if e["type"] == "MovementResolved"]
    assert len(resolved) >= 20
    replay = matches.replay(match_id)
    assert replay.agrees
    assert canonical_json(replay.state) == canonical_json(matches.get_match(match_id).state)
    report = matches.audit(match_id)
    assert report.divergence is None, report.divergence
    assert report.exact and report.movements == len(resolved)
