"""The referee extends an open deadline: a DeadlineSet with reason "referee", never earlier."""

from __future__ import annotations

from datetime import timedelta

import pytest

from domain.errors import (
    InvalidDeadlineError,
    InvalidTokenError,
    MatchNotStartedError,
    MovementClosedError,
)
from tests.support.match_events import ALICE, REFEREE, T0, fold, new_match, started

pytestmark = pytest.mark.usefixtures("toy_rulesets")


def test_the_referee_extends_the_open_deadline_with_an_event():
    match = started({"deadline_seconds": 60})
    later = T0 + timedelta(seconds=300)
    match.extend_deadline(REFEREE, 1, later, T0 + timedelta(seconds=10))
    last = match.pending_events[-1]
    assert type(last).__name__ == "DeadlineSet"
    assert (last.movement, last.deadline, last.reason) == (1, later, "referee")
    assert match.deadline == later and not match.is_due(T0 + timedelta(seconds=61))
    replayed = fold(match.collect_events())
    assert replayed.deadline == later and replayed.chain == match.chain


def test_a_deadline_is_never_moved_earlier():
    match = started({"deadline_seconds": 60})
    with pytest.raises(InvalidDeadlineError, match="not later than the current one"):
        match.extend_deadline(REFEREE, 1, T0 + timedelta(seconds=60), T0)


def test_only_the_referee_extends_a_deadline():
    match = started()
    with pytest.raises(InvalidTokenError):
        match.extend_deadline(ALICE, 1, T0 + timedelta(hours=1), T0)


def test_only_the_open_movement_of_a_started_match_has_a_deadline_to_extend():
    match = new_match()
    with pytest.raises(MatchNotStartedError):
        match.extend_deadline(REFEREE, 1, T0 + timedelta(hours=1), T0)
    match.start(REFEREE, T0)
    with pytest.raises(MovementClosedError, match=r"movement 2 .* is not open"):
        match.extend_deadline(REFEREE, 2, T0 + timedelta(hours=1), T0)


def test_a_deadline_years_away_is_refused():
    match = started()
    with pytest.raises(InvalidDeadlineError, match="seconds away"):
        match.extend_deadline(REFEREE, 1, T0 + timedelta(days=400), T0)
