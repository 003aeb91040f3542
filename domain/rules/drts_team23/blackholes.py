"""Step 2 of DRTS Team 23 v2: Blackhole absorptions (DRTS-13).

Every piece (any team, Stars too) on a Blackhole's square after the moves
is absorbed: its seat -1 and that seat's team -1 (its team after step 1; a
teamless seat loses no team point); the piece is out as if captured
(DRTS-18) and the Blackhole disappears. A Blackhole nobody entered stays.
"""

from __future__ import annotations

from domain.rules.contract import JSON, Step
from domain.rules.drts_team23.scoring import add_points, take_out
from domain.rules.drts_team23.state import Item, State, Team


def absorb(state: State) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after step 2 and one step per absorbed piece (DRTS-13)."""
    if not any(item.item is Item.BLACKHOLE for item in state.board_items):
        return state, ()
    squares = state.squares
    holes = [i for i in state.board_items if i.item is Item.BLACKHOLE and i.square in squares]
    if not holes:
        return state, ()
    seat_points: dict[int, int] = {}
    team_points: dict[Team, int] = {}
    victims: list[int] = []
    for hole in holes:
        for index in squares[hole.square]:
            seat = state.pieces[index].seat
            seat_points[seat] = seat_points.get(seat, 0) - 1
            team = state.seat(seat).team
            if team is not None:
                team_points[team] = team_points.get(team, 0) - 1
            victims.append(index)
    left = tuple(item for item in state.board_items if item not in holes)
    scored = add_points(state.changed(board_items=left), seat_points, team_points)
    out, back = take_out(scored, victims)
    return out, tuple(_step(state, index, back) for index in victims)


def _step(state: State, index: int, back: int) -> Step:
    piece = state.pieces[index]
    team = state.seat(piece.seat).team
    team_text = f"{team} -1" if team is not None else "no team point (teamless)"
    text = (
        f"{piece.label} is absorbed by the Blackhole on square {piece.square}: seat "
        f"{piece.seat} -1, {team_text}; the Blackhole disappears; it may be recovered from "
        f"movement {back} (DRTS-18)"
    )
    data: dict[str, JSON] = {
        "square": piece.square,
        "seat": piece.seat,
        "piece": str(piece.kind),
        "recover_from": back,
        "seat_points": {str(piece.seat): -1},
        "team_points": {str(team): -1} if team is not None else {},
    }
    return Step("DRTS-13", text, data)
