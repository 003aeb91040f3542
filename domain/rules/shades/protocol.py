"""The contest's bot protocol messages (SH-11), built from a Shades state.

The names are the contest's own, from the game it re-skins (ant = shade,
hill = tomb, food = human). `init_message` is what a bot reads before turn
0: the map, the shades of the start and its player id; `turn_message` is
what a seat still alive reads each turn: every shade, standing tomb and
human, its stored humans and the turn number. Every seat sees the same
snapshot of a turn (SH-3). The reply is an order's JSON form
(`orders.parse_order`).

The init message is rebuilt from any later state: the start's shades are
shade i on tomb i, for every assigned tomb (SH-2), whatever became of them.
"""

from __future__ import annotations

from domain.rules.contract import JSON, check_seat_number
from domain.rules.shades.state import State


def init_message(state: State, seat: int) -> JSON:
    """Returns the protocol's init message for `seat` (UnknownSeatError for no such seat)."""
    check_seat_number("shades", seat, len(state.seats))
    board = state.settings.board
    return {
        "map": {
            "width": board.width,
            "height": board.height,
            "water_tiles": [_point(square) for square in sorted(board.water, key=_map_order)],
            "tombstone_positions": [_point(square) for square in board.tombs],
        },
        "spawn_positions": [
            {"position": _point(tomb.square), "owner": tomb.owner, "id": tomb.id}
            for tomb in state.tombs
        ],
        "my_id": seat,
    }


def turn_message(state: State, seat: int) -> JSON:
    """Returns the protocol's per-turn message for `seat` (UnknownSeatError for no such seat)."""
    check_seat_number("shades", seat, len(state.seats))
    return {
        "alive_ants": {
            str(shade.id): {"position": _point(shade.square), "owner": shade.owner, "id": shade.id}
            for shade in state.shades
        },
        "alive_hills": [
            {"position": _point(tomb.square), "owner": tomb.owner, "id": tomb.id}
            for tomb in state.standing_tombs
        ],
        "alive_food": [
            {"position": _point(human.square), "id": human.id} for human in state.humans
        ],
        "food_count": state.seat(seat).stored,
        "turn_num": state.turn,
    }


def _point(square: tuple[int, int]) -> JSON:
    return {"x": square[0], "y": square[1]}


def _map_order(square: tuple[int, int]) -> tuple[int, int]:
    return (square[1], square[0])
