"""Generators of DRTS Team 23 v2 (DRTS-15) at steps 0, 3, 6 and 7.

Step 0: a piece whose operation (a move or a hold) invokes a Generator becomes
one, unless an own or ally piece (the sides at the start of the movement,
DRTS-5) shares its square after the moves; it loses any Star status (DRTS-7:
a Generator is never a Star). It is permanent, cannot act and captures
nothing. Step 3: every Generator's counter rises by 1 (the creation movement
included); each multiple of 3 gives its owner seat +1 and owner team +1.
Step 6: every piece on its square captures it: each capturer of an opposing
team scores +1 seat, +1 team (even if itself captured in that battle), an own
or ally capturer scores nothing, and the owner's seat loses 1 once if any
opposing piece captured it. Step 7: the captured Generators are removed and
their pieces go to recovery (DRTS-18). DeathStars (step 5) and Blackholes
(step 2) take Generators like any other piece (`deathstars`, `blackholes`).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.rules.contract import JSON, Step
from domain.rules.drts_team23.orders import Order
from domain.rules.drts_team23.scoring import add_points, take_out
from domain.rules.drts_team23.state import Item, Piece, Squares, State, Team, piece_index

POINT_EVERY = 3  # DRTS-15: a point every 3 movements


def convert_generators(
    before: State, state: State, orders: Sequence[tuple[int, Order]]
) -> tuple[State, tuple[Step, ...]]:
    """Returns `state` (after the moves) with step 0's Generator conversions, and one step
    per invocation, converted or not; `before` is the state at the start of the movement,
    whose sides judge "own or ally" (DRTS-5)."""
    invoked = [
        piece_index(seat, operation.piece)
        for seat, order in sorted(orders, key=lambda pair: pair[0])
        for operation in order.operations
        if operation.item is Item.GENERATOR
    ]
    if not invoked:
        return state, ()
    squares = state.squares
    pieces, steps = list(state.pieces), []
    for index in invoked:
        piece = state.pieces[index]
        blocker = _own_or_ally(before, state, squares, index)
        if blocker is not None:
            steps.append(_blocked_step(piece, state.pieces[blocker]))
            continue
        pieces[index] = piece.with_generator(0, 0)
        text = f"{piece.label} becomes a Generator on square {piece.square}"
        data: dict[str, JSON] = _data(piece) | {"converted": True}
        steps.append(Step("DRTS-15", text, data))
    return state.changed(pieces=tuple(pieces), same_squares=True), tuple(steps)


def _own_or_ally(before: State, state: State, squares: Squares, index: int) -> int | None:
    piece = state.pieces[index]
    assert piece.square is not None  # a move or a hold: the piece is on the board
    sides = before.sides
    for other in squares[piece.square]:
        if other != index and sides[state.pieces[other].seat - 1] == sides[piece.seat - 1]:
            return other
    return None


def _blocked_step(piece: Piece, blocker: Piece) -> Step:
    owner = "an own" if blocker.seat == piece.seat else "an ally"
    text = (
        f"{piece.label} does not become a Generator: {owner} piece ({blocker.label}) shares "
        f"square {piece.square}"
    )
    data: dict[str, JSON] = _data(piece) | {"converted": False, "blocker": blocker.label}
    return Step("DRTS-15", text, data)


def count_generators(state: State) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after step 3 (every Generator counts one more movement, its owner
    scoring on each multiple of 3) and one step per Generator."""
    if not any(p.generator is not None for p in state.pieces):
        return state, ()
    pieces, steps = list(state.pieces), []
    seat_points: dict[int, int] = {}
    team_points: dict[Team, int] = {}
    for index, piece in enumerate(state.pieces):
        if piece.generator is None:
            continue
        counter = piece.generator + 1
        pieces[index] = piece.with_generator(counter, piece.star_until)
        team = state.seat(piece.seat).team
        data = _data(piece) | {"counter": counter, "seat_points": {}, "team_points": {}}
        text = f"The Generator ({piece.label}) on square {piece.square} counts {counter}"
        if counter % POINT_EVERY == 0:
            seat_points[piece.seat] = seat_points.get(piece.seat, 0) + 1
            data["seat_points"] = {str(piece.seat): 1}
            text += f": seat {piece.seat} +1, " + (
                f"{team} +1" if team is not None else "no team point (teamless)"
            )
            if team is not None:
                team_points[team] = team_points.get(team, 0) + 1
                data["team_points"] = {str(team): 1}
        steps.append(Step("DRTS-15", text, data))
    counted = state.changed(pieces=tuple(pieces), same_squares=True)
    counted = add_points(counted, seat_points, team_points)
    return counted, tuple(steps)


def capture_generators(state: State) -> tuple[State, tuple[int, ...], tuple[Step, ...]]:
    """Returns the state after step 6's Generator captures (the points only: the Generators
    stay on the board until step 7), the captured Generators' indices and the steps.

    `state` is the state before the battle of step 6 (after step 5), so a piece captured
    in that battle still captures the Generator on its square."""
    if not any(p.generator is not None for p in state.pieces):
        return state, (), ()
    squares = state.squares
    seat_points: dict[int, int] = {}
    team_points: dict[Team, int] = {}
    captured, steps = [], []
    for index, generator in enumerate(state.pieces):
        if generator.generator is None or generator.square is None:
            continue
        capturers = [i for i in squares[generator.square] if state.pieces[i].generator is None]
        if not capturers:
            continue
        captured.append(index)
        side = state.seat(generator.seat).side
        enemy = False
        for capturer in (state.pieces[i] for i in capturers):
            seat = state.seat(capturer.seat)
            scores = seat.side != side
            enemy = enemy or scores
            if scores:
                seat_points[seat.number] = seat_points.get(seat.number, 0) + 1
                if seat.team is not None:
                    team_points[seat.team] = team_points.get(seat.team, 0) + 1
            steps.append(_capture_step(state, generator, capturer, scores))
        if enemy:
            seat_points[generator.seat] = seat_points.get(generator.seat, 0) - 1
        steps.append(_victim_step(generator, enemy))
    return add_points(state, seat_points, team_points), tuple(captured), tuple(steps)


def remove_generators(state: State, captured: Sequence[int]) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after step 7: the captured Generators off the board, their pieces
    out for the next 2 movements (DRTS-18), and one step each."""
    if not captured:
        return state, ()
    out, back = take_out(state, captured)
    steps = []
    for index in captured:
        piece = state.pieces[index]
        text = (
            f"The captured Generator ({piece.label}) is removed from square {piece.square}; "
            f"the piece may be recovered from movement {back} (DRTS-18)"
        )
        steps.append(Step("DRTS-15", text, _data(piece) | {"recover_from": back}))
    return out, tuple(steps)


def _capture_step(state: State, generator: Piece, capturer: Piece, scores: bool) -> Step:
    team = state.seat(capturer.seat).team
    if scores:
        team_text = f"{team} +1" if team is not None else "no team point (teamless)"
        points = f"seat {capturer.seat} +1, {team_text}"
    else:
        points = "no points (an own or ally piece)"
    text = (
        f"{capturer.label} captures the Generator ({generator.label}) on square "
        f"{generator.square}; {points}"
    )
    data: dict[str, JSON] = {
        "square": generator.square,
        "seat": capturer.seat,
        "piece": str(capturer.kind),
        "victim_seat": generator.seat,
        "victim_piece": str(generator.kind),
        "case": "generator",
        "seat_points": {str(capturer.seat): 1} if scores else {},
        "team_points": {str(team): 1} if scores and team is not None else {},
    }
    return Step("DRTS-15", text, data)


def _victim_step(generator: Piece, enemy: bool) -> Step:
    loss = f"seat {generator.seat} -1" if enemy else "no point lost (no opposing capturer)"
    text = (
        f"The Generator ({generator.label}) on square {generator.square} is captured: "
        f"{loss}; it is removed at step 7"
    )
    data = _data(generator) | {
        "seat_points": {str(generator.seat): -1} if enemy else {},
        "team_points": {},
    }
    return Step("DRTS-15", text, data)


def _data(piece: Piece) -> dict[str, JSON]:
    return {"seat": piece.seat, "piece": str(piece.kind), "square": piece.square}
