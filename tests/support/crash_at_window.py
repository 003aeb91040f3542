"""Submits one order and dies (os._exit) at a crash window, as a killed process would.

Usage: python -m tests.support.crash_at_window DATABASE_URL WINDOW MATCH_ID TOKEN ORDER_JSON

WINDOW is where the process dies: `resolve` (the order that made its movement
ready is saved, its resolution never runs), `link` (the drawn match's Finished
is saved, its ReplayLinked is not), `rematch` (ReplayLinked is saved, the
rematch itself is not). Exits CRASHED when it died there, 0 if it never got there.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from domain.match import Match
from service.matches import Matches
from service.scheduling import NoScheduler
from service.settings import Settings
from service.usecases.resolution import Resolution

CRASHED = 70


def die(*_: Any, **__: Any) -> Any:
    os._exit(CRASHED)


def main(url: str, window: str, match_id: str, token: str, order: str) -> None:
    if window == "resolve":
        Resolution.resolve = die  # type: ignore[method-assign]
    elif window == "link":
        Resolution.create_rematch_if_due = die  # type: ignore[method-assign]
    elif window == "rematch":
        Match.rematch = die  # type: ignore[method-assign, assignment]
    matches = Matches(env=Settings(url).event_store_env(), scheduler=NoScheduler())
    matches.submit_order(match_id, token, json.loads(order))
    sys.exit(0)


if __name__ == "__main__":
    main(*sys.argv[1:])
