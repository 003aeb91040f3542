"""The boards of the pages: one module per game, each a pure function from the game's
state JSON (as the API serves it, docs/games/*.md) to an SVG string. Drawing is the
pages' business, never the domain's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from api.pages.boards import b_chess, district_war, dris_et_tessa, drts_team23, shades

Drawing = Callable[[dict[str, Any], str], str]
DRAWINGS: dict[str, Drawing] = {
    "district_war": district_war.draw,
    "drts_team23": drts_team23.draw,
    "shades": shades.draw,
    "dris_et_tessa": dris_et_tessa.draw,
    "b_chess": b_chess.draw,
}


def draw(ruleset: str, state: Any, title: str) -> str | None:
    """Returns the SVG board of a state of `ruleset` titled `title`, or None for a game
    without a drawing (or no state yet: a match not started)."""
    drawing = DRAWINGS.get(ruleset)
    if drawing is None or not isinstance(state, dict):
        return None
    return drawing(state, title)
