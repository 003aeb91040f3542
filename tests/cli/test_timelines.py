"""A corrected match from the command line (issue 40): `drts match correct` says where
the match stands after it, and `state`, `movement`, `scores` and `display` read every
timeline (--timeline), as replay, audit, verify and export do."""

from __future__ import annotations

import json

from tests.support.cli import created


def finished_then_corrected(drts) -> tuple[str, str]:
    """Returns (match id, the correction's output) of a District War match of two troops
    each, finished, whose movement 3 the referee corrected (bob's b4 became c4)."""
    match_id, referee, alice, bob = created(drts)
    drts("start", match_id, "--referee-token", referee)
    drts("order", match_id, "first 1", "--token", bob)
    for seat, cell in ((alice, "e4"), (bob, "b4"), (alice, "g4"), (bob, "g1")):
        drts("order", match_id, cell, "--token", seat)
    out = drts(
        "correct", match_id, "3", "--order", "2", "c4", "--reason", "c4",
        "--referee-token", referee,
    ).output  # fmt: skip
    return match_id, out


def test_correcting_a_finished_match_says_it_is_finished_not_that_a_movement_is_open(drts):
    """Issue 40: it printed "movement 6 is open" for a match that had finished again."""
    _, out = finished_then_corrected(drts)
    assert "movement 3 corrected: timeline 2" in out
    assert "is open" not in out and "the match is finished again (" in out


def test_state_movement_scores_and_display_read_each_timeline(drts):
    match_id, _ = finished_then_corrected(drts)
    for timeline in ((), ("--timeline", "1"), ("--timeline", "2")):
        phase = json.loads(
            drts("state", match_id, "--movement", "3", "--phase", "1", *timeline).output
        )
        record = json.loads(drts("movement", match_id, "3", "--json", *timeline).output)
        assert phase["state"] == record["state_after"], timeline
    old = json.loads(
        drts("state", match_id, "--movement", "3", "--phase", "1", "--timeline", "1").output
    )
    new = json.loads(drts("state", match_id, "--movement", "3", "--phase", "1").output)
    assert ("b4" in old["state"]["cells"], "c4" in new["state"]["cells"]) == (True, True)
    assert old["timeline"] == 1 and new["timeline"] == 2
    assert ", timeline 1 " in drts("movement", match_id, "3", "--timeline", "1").output
    assert (
        "Position after movement 5"
        in drts("display", match_id, "--movement", "5", "--timeline", "1").output
    )
    scores = json.loads(drts("scores", match_id, "--timeline", "1").output)
    assert scores["outcome"]["finished"]
    refused = drts("state", match_id, "--timeline", "3", ok=False).output
    assert "unknown_timeline" in refused
