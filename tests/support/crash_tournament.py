"""Advances a tournament and dies (os._exit) at a crash window, as a worker killed there.

Usage: python -m tests.support.crash_tournament DATABASE_URL WINDOW TOURNAMENT_ID

WINDOW is where the process dies: `complete` (the round's results are recorded and
saved, its RoundCompleted never is), `pair` (RoundCompleted is saved, the next round's
RoundPaired never is). Exits CRASHED when it died there, 0 if it never got there.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from domain.tournament import Tournament
from service.matches import Matches
from service.scheduling import NoScheduler
from service.settings import Settings
from service.tournaments import Tournaments

CRASHED = 70
WINDOWS = {"complete": "complete_round", "pair": "pair_round"}


def die(*_: Any, **__: Any) -> Any:
    os._exit(CRASHED)


def main(url: str, window: str, tournament_id: str) -> None:
    setattr(Tournament, WINDOWS[window], die)
    matches = Matches(env=Settings(url).event_store_env(), scheduler=NoScheduler())
    Tournaments(matches).advance(tournament_id)
    sys.exit(0)


if __name__ == "__main__":
    main(*sys.argv[1:])
