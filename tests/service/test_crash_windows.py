"""Crash windows close: a process killed between two saves leaves work the next sweep does.

- A movement made ready by its last order (every owing seat ordered, early close)
  whose resolution was lost: the deadlines read model knows it is ready, so it is
  due at once, long before its deadline, and the sweep resolves it.
- A drawn District War match (DW-5) whose rematch was not created, killed before
  ReplayLinked or after it: the match list knows the rematch is due, and the
  sweep creates it.

Each window is hit by a real process (tests/support/crash_at_window.py) that dies
with os._exit at the window, on a SQLite file shared with the test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.matches import Matches
from service.scheduling import NoScheduler
from service.settings import Settings
from tests.support.crash_at_window import CRASHED
from tests.support.draws import draw_orders, new_draw

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(tmp_path):
    url = f"sqlite:///{tmp_path}/crash.sqlite"
    matches = Matches(env=Settings(url).event_store_env(), scheduler=NoScheduler())
    yield url, matches
    matches.close()


def crash_at(url: str, window: str, match_id: object, token: str, order: object) -> None:
    """Submits the order in a process that dies at `window`; fails unless it died there."""
    script = [sys.executable, "-m", "tests.support.crash_at_window"]
    done = subprocess.run(
        [*script, url, window, str(match_id), token, json.dumps(order)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == CRASHED, done.stderr


def test_a_ready_movement_whose_resolution_was_lost_in_a_crash_is_resolved_by_the_next_sweep(
    store,
):
    url, matches = store
    new = matches.create_match("district_war", {"troops": 2}, seed="crash")
    bob = [matches.join(new.match_id, name).token for name in ("alice", "bob")][1]
    matches.start(new.match_id, new.referee_token)
    assert matches.due_movements() == []
    crash_at(url, "resolve", new.match_id, bob, "first 1")  # DW: only seat 2 owes movement 1

    match = matches.get_match(new.match_id)
    assert match.movement == 1 and match.is_ready()  # the order is in, the resolution is not
    assert match.deadline is not None and match.deadline > matches.clock()
    assert [(d.match_id, d.movement) for d in matches.due_movements()] == [(new.match_id, 1)]
    closings = matches.resolve_due()  # what the sweep's resolve tasks do
    assert [(c.match_id, c.movement, c.resolved) for c in closings] == [(new.match_id, 1, True)]
    assert matches.due_movements() == []


@pytest.mark.parametrize("window", ["link", "rematch"])
def test_a_draw_whose_rematch_was_lost_in_a_crash_gets_it_on_the_next_sweep(store, window):
    """DW-5: a drawn match is played again as its rematch, even across a crash."""
    url, matches = store
    new, tokens = new_draw(matches)
    *orders, (last_seat, last_order) = draw_orders()
    for seat, order in orders:
        matches.submit_order(new.match_id, tokens[seat], order)
    crash_at(url, window, new.match_id, tokens[last_seat], last_order)

    drawn = matches.get_match(new.match_id)
    assert drawn.finished and drawn.wants_rematch()
    assert (drawn.rematch_id is None) == (window == "link")
    assert matches.rematches_due() == [new.match_id]
    created = matches.create_missing_rematches()  # what the sweep does
    assert len(created) == 1 and matches.rematches_due() == []
    rematch = matches.summary(created[0])
    assert rematch.rematch_of == str(new.match_id) and rematch.status == "started"
    assert matches.summary(new.match_id).rematch_id == str(created[0])
    assert matches.create_missing_rematches() == []
