"""`State.changed` and the cached `sides` and `squares` it carries over (bench/drts_team23.md:
the resolution's steps copy states with it instead of `dataclasses.replace`)."""

from dataclasses import fields, replace

from domain.rules.drts_team23.state import Piece, Team, occupancy
from tests.unit.rules.drts_team23.support import DEFAULT_TEAMS, position


def test_changed_gives_what_replace_gives_for_every_field():
    """Each field `State.changed` takes comes out as `dataclasses.replace` sets it."""
    state = position({"1F": 14, "4W": 15}, teams=DEFAULT_TEAMS)
    other = position({"2P": 20}, movement=7, scores={3: 2}, team_scores=(1, 2, 3))
    for field in fields(state):
        if field.name == "settings":
            continue  # not a field a step changes
        value = getattr(other, field.name)
        assert state.changed(**{field.name: value}) == replace(state, **{field.name: value})


def test_moved_pieces_get_their_own_squares():
    """DRTS-5, DRTS-9: after the moves the battle reads the new squares, not the old ones."""
    state = position({"1F": 14, "4W": 15}, teams=DEFAULT_TEAMS)
    assert state.squares == {14: [1], 15: [9]}
    pieces = tuple(Piece(1, p.kind, 15) if p.seat == 1 and p.square else p for p in state.pieces)
    moved = state.changed(pieces=pieces)
    assert moved.squares == occupancy(pieces) == {15: [1, 9]}


def test_the_squares_carry_over_while_the_pieces_stand_still():
    """DRTS-16: a Star status changes no square, so the occupancy map is the old one."""
    state = position({"1F": 14}, teams=DEFAULT_TEAMS)
    squares = state.squares
    pieces = tuple(p.with_star(3) if p.square else p for p in state.pieces)
    assert state.changed(pieces=pieces, same_squares=True).squares is squares
    assert state.changed(movement=2).squares is squares


def test_a_team_change_gives_new_sides():
    """DRTS-9, DRTS-19: a seat that joins a team fights on that team's side at once."""
    state = position({"1F": 14})
    assert state.sides[0] == -1  # teamless: its own side
    seats = tuple(s.with_team(Team.BLUE) if s.number == 1 else s for s in state.seats)
    assert state.changed(seats=seats).sides[0] == 3
    assert state.changed(movement=2).sides is state.sides
