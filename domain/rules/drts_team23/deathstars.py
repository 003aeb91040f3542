"""DeathStars of DRTS Team 23 v2 at steps 5 and 9 (DRTS-11, DRTS-12, DRTS-16).

Step 5: each DeathStar captures every non-Star piece of an opposing team
(the owner's side after step 1) in its area (`board.deathstar_area`, the
config's `deathstar_area`): per (DeathStar, victim) its owner seat +1 and
owner team +1; each victim's seat -1 once. A DeathStar built in this
movement on a square an enemy piece moved onto captures without scoring for
its owner (DRTS-12). Step 9: every DeathStar on whose square a piece stood
after the moves is destroyed, scoring nothing (DRTS-12: enemy or ally; a
piece captured there in the same movement still destroys it).
"""

from __future__ import annotations

from collections.abc import Collection

from domain.rules.contract import JSON, Step
from domain.rules.drts_team23.board import deathstar_area
from domain.rules.drts_team23.config import Area
from domain.rules.drts_team23.scoring import add_points, take_out
from domain.rules.drts_team23.state import BoardItem, Item, Squares, State, Team


def deathstar_captures(state: State, fresh: Collection[int]) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after step 5 and its steps; `fresh` holds the squares of the
    DeathStars built in this movement."""
    if not any(item.item is Item.DEATHSTAR for item in state.board_items):
        return state, ()
    squares = state.squares
    ray = state.settings.deathstar_area is Area.RAY
    seat_points: dict[int, int] = {}
    team_points: dict[Team, int] = {}
    victims: dict[int, None] = {}
    steps: list[Step] = []
    sides = state.sides
    for star in (i for i in state.board_items if i.item is Item.DEATHSTAR):
        assert star.corner is not None  # a DeathStar points at a corner
        owner = state.seat(star.seat)
        owner_side = sides[star.seat - 1]
        scores = not (star.square in fresh and _enemy_entered(state, squares, star))
        for square in deathstar_area(star.square, star.corner, ray):
            for index in squares.get(square, ()):
                piece = state.pieces[index]
                if piece.is_star(state.movement) or sides[piece.seat - 1] == owner_side:
                    continue
                victims[index] = None
                if scores:
                    seat_points[owner.number] = seat_points.get(owner.number, 0) + 1
                    if owner.team is not None:
                        team_points[owner.team] = team_points.get(owner.team, 0) + 1
                steps.append(_capture_step(state, star, index, scores))
    for index in victims:
        seat = state.pieces[index].seat
        seat_points[seat] = seat_points.get(seat, 0) - 1
    out, back = take_out(add_points(state, seat_points, team_points), list(victims))
    steps += [_victim_step(state, index, back) for index in sorted(victims)]
    return out, tuple(steps)


def _enemy_entered(state: State, squares: Squares, star: BoardItem) -> bool:
    sides = state.sides
    return any(
        sides[state.pieces[i].seat - 1] != sides[star.seat - 1]
        for i in squares.get(star.square, ())
    )


def destroy_deathstars(state: State, entered: Collection[int]) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after step 9: the DeathStars on `entered` squares are gone."""
    gone = [i for i in state.board_items if i.item is Item.DEATHSTAR and i.square in entered]
    if not gone:
        return state, ()
    left = tuple(item for item in state.board_items if item not in gone)
    steps = tuple(
        Step(
            "DRTS-12",
            f"The DeathStar of seat {item.seat} on square {item.square} is destroyed by the "
            "piece that reached its square (no points)",
            {"seat": item.seat, "square": item.square},
        )
        for item in gone
    )
    return state.changed(board_items=left), steps


def _capture_step(state: State, star: BoardItem, index: int, scores: bool) -> Step:
    piece, owner = state.pieces[index], state.seat(star.seat)
    if scores:
        team = f"{owner.team} +1" if owner.team is not None else "no team point (teamless)"
        points = f"seat {owner.number} +1, {team}"
    else:
        points = "no points for its owner: built as an enemy moved onto its square (DRTS-12)"
    text = (
        f"The DeathStar of seat {star.seat} on square {star.square} (pointing at "
        f"{star.corner}) captures {piece.label} on square {piece.square}; {points}"
    )
    data: dict[str, JSON] = {
        "deathstar": star.square,
        "seat": star.seat,
        "square": piece.square,
        "victim_seat": piece.seat,
        "victim_piece": str(piece.kind),
        "seat_points": {str(owner.number): 1} if scores else {},
        "team_points": {str(owner.team): 1} if scores and owner.team is not None else {},
    }
    return Step("DRTS-11", text, data)


def _victim_step(state: State, index: int, back: int) -> Step:
    piece = state.pieces[index]
    text = (
        f"{piece.label} is captured by a DeathStar on square {piece.square}: seat "
        f"{piece.seat} -1; it may be recovered from movement {back} (DRTS-18)"
    )
    data: dict[str, JSON] = {
        "square": piece.square,
        "seat": piece.seat,
        "piece": str(piece.kind),
        "recover_from": back,
        "seat_points": {str(piece.seat): -1},
        "team_points": {},
    }
    return Step("DRTS-10", text, data)
