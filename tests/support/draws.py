"""The DW-5 draw scenario played on a Matches application: its orders, a new match with
its seed, the whole draw."""

from __future__ import annotations

import json
from pathlib import Path

SCENARIOS = Path(__file__).parents[1] / "scenarios/district_war"


DRAW = SCENARIOS / "dw5_all_equal_is_a_draw_to_be_replayed.json"


def draw_orders() -> list[tuple[int, object]]:
    """Returns the (seat, order) of the DW-5 draw scenario, in order."""
    scenario = json.loads(DRAW.read_text())
    return [
        (int(seat), order)
        for movement in scenario["movements"]
        for seat, orders in movement["orders"].items()
        for order in orders
    ]


def new_draw(matches):
    """Returns (new match, seat tokens) of a started match with the draw scenario's seed."""
    scenario = json.loads(DRAW.read_text())
    new = matches.create_match("district_war", seed=scenario["seed"])
    tokens = {1: matches.join(new.match_id, "ada").token, 2: matches.join(new.match_id, "bo").token}
    matches.start(new.match_id, new.referee_token)
    return new, tokens


def play_to_a_draw(matches):
    """Plays the orders of the DW-5 draw scenario; returns (match id, referee, seat tokens)."""
    new, tokens = new_draw(matches)
    last = None
    for seat, order in draw_orders():
        last = matches.submit_order(new.match_id, tokens[seat], order)
    return new, tokens, last
