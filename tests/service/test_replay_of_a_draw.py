"""DW-5: a District War match drawn on every size is replayed as a new match, linked both ways."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.errors import NotYourSeatError

SCENARIOS = Path(__file__).parents[1] / "scenarios/district_war"
DRAW = SCENARIOS / "dw5_all_equal_is_a_draw_to_be_replayed.json"


def play_to_a_draw(matches):
    """Plays the orders of the DW-5 draw scenario; returns (match id, referee, seat tokens)."""
    scenario = json.loads(DRAW.read_text())
    new = matches.create_match("district_war", seed=scenario["seed"])
    tokens = {1: matches.join(new.match_id, "ada").token, 2: matches.join(new.match_id, "bo").token}
    matches.start(new.match_id, new.referee_token)
    last = None
    for movement in scenario["movements"]:
        for seat, orders in movement["orders"].items():
            for order in orders:
                last = matches.submit_order(new.match_id, tokens[int(seat)], order)
    return new, tokens, last


def test_a_draw_on_every_size_creates_a_started_replay_with_the_same_seats(matches):
    new, _, last = play_to_a_draw(matches)
    replay_id = last.closing.replay_id
    assert last.closing.finished and replay_id is not None and replay_id != new.match_id
    drawn, replay = matches.summary(new.match_id), matches.summary(replay_id)
    assert drawn["outcome"]["result"] == "draw" and drawn["outcome"]["replay"] is True
    assert drawn["replay_id"] == str(replay_id) and replay["replay_of"] == str(new.match_id)
    assert replay["status"] == "started" and replay["movement"] == 1
    assert [s["name"] for s in replay["seats"]] == ["ada", "bo"]
    assert replay["config"] == drawn["config"]
    assert replay["seed_commitment"] != drawn["seed_commitment"]


def test_the_players_tokens_and_the_referee_token_still_work_in_the_replay(matches):
    new, tokens, last = play_to_a_draw(matches)
    replay_id = last.closing.replay_id
    matches.extend_deadline(replay_id, new.referee_token, seconds=30)
    with pytest.raises(NotYourSeatError):  # DW-2: only the DMO (seat 2) chooses first
        matches.submit_order(replay_id, tokens[1], "first 1")
    receipt = matches.submit_order(replay_id, tokens[2], "first 1")
    assert receipt.seat == 2 and receipt.closing.resolved


def test_asking_again_finds_the_same_replay_and_creates_no_other(matches):
    new, _, last = play_to_a_draw(matches)
    before = len(list(matches.match_ids()))
    assert matches.replay_if_drawn(new.match_id) == last.closing.replay_id
    assert len(list(matches.match_ids())) == before


def test_both_chains_verify_and_name_the_link_events(matches):
    new, _, last = play_to_a_draw(matches)
    replay_id = last.closing.replay_id
    assert matches.verify_chain(new.match_id).ok and matches.verify_chain(replay_id).ok
    assert "ReplayLinked" in [e["type"] for e in matches.event_log(new.match_id)]
    assert [e["type"] for e in matches.event_log(replay_id)][:2] == ["Created", "ReplayOf"]


def test_a_won_match_gets_no_replay(matches):
    new = matches.create_match("toy", {"rounds": 1}, seed="won")
    a, b = matches.join(new.match_id, "a"), matches.join(new.match_id, "b")
    matches.start(new.match_id, new.referee_token)
    matches.submit_order(new.match_id, a.token, "3")
    closing = matches.submit_order(new.match_id, b.token, "1").closing
    assert closing.finished and closing.replay_id is None
    assert matches.replay_if_drawn(new.match_id) is None
