"""A player joins a running match, for a game with `add_seat` (issue 24, B-Chess's BC-5):
the seat is recorded with the state add_seat gives, in one SeatAdded event, chained and
replayed like every event; other games still refuse a join after the start."""

from __future__ import annotations

import json

import pytest

from domain.errors import MatchAlreadyStartedError, SeatTakenError
from domain.rules.b_chess.orders import why_not
from domain.rules.b_chess.state import load_state
from domain.rules.contract import state_hash
from service.matches import Matches


def running(matches: Matches, seats: int | None = None) -> tuple[str, list[str]]:
    new = matches.create_match("b_chess", {"turn_seconds": 60}, seed="join", seats=seats)
    tokens = [matches.join(new.match_id, name).token for name in ("alice", "bob")]
    matches.start(new.match_id, str(new.referee_token))
    return str(new.match_id), tokens


def test_bc_5_a_seat_joins_a_running_match_with_a_king_no_object_can_reach(matches):
    match_id, _ = running(matches)
    before = load_state(matches.state(match_id).state)
    carol = matches.join(match_id, "carol")
    assert carol.seat == 3
    (event,) = [e for e in matches.event_log(match_id) if e["type"] == "SeatAdded"]
    data = event["data"]
    assert (data["seat"], data["name"], data["movement"]) == (3, "carol", 1)
    assert data["steps"][0]["rule"] == "BC-5"
    assert data["state_hash"] == state_hash(data["state"])
    after = load_state(matches.state(match_id).state)
    king = after.king_of(3)
    assert king is not None and after.pieces[-1] == king and after.seat(3).macks == 50
    assert all(why_not(after, piece, king.square) is not None for piece in before.pieces)
    summary = matches.summary(match_id)
    assert [s["name"] for s in summary.seats] == ["alice", "bob", "carol"]
    assert summary.to_move == [1, 2, 3]
    assert matches.verify_chain(match_id).ok and matches.replay(match_id).agrees


def test_the_joined_seat_orders_and_its_order_resolves_at_the_next_firing(matches, clock):
    match_id, _ = running(matches)
    carol = matches.join(match_id, "carol")
    king = load_state(matches.state(match_id).state).king_of(3)
    assert king is not None
    row, col = king.square
    matches.submit_order(match_id, carol.token, f"{king.id} to {row},{(col + 1) % 20}")
    clock.advance(60)
    matches.resolve_due()
    moved = load_state(matches.state(match_id).state).king_of(3)
    assert moved is not None and moved.square == (row, (col + 1) % 20)


def test_the_read_models_list_a_seat_that_joined_later(matches):
    match_id, _ = running(matches)
    matches.join(match_id, "carol")
    matches.read_models.catch_up()
    (item,) = matches.list_matches(status="started").items
    assert [s["name"] for s in item["seats"]] == ["alice", "bob", "carol"]


def test_a_full_running_match_refuses_a_seat(matches):
    match_id, _ = running(matches, seats=2)
    with pytest.raises(SeatTakenError, match="no free seat"):
        matches.join(match_id, "carol")


def test_a_game_without_add_seat_still_refuses_a_join_after_the_start(matches):
    new = matches.create_match("toy", {}, seats=None)
    for name in ("alice", "bob"):
        matches.join(new.match_id, name)
    matches.start(new.match_id, str(new.referee_token))
    with pytest.raises(MatchAlreadyStartedError, match="already started"):
        matches.join(new.match_id, "carol")


def test_bc_5_a_match_where_a_seat_joined_later_re_adjudicates_exactly(matches, clock):
    """The audit (issue 17) re-applies SeatAdded with the game's add_seat and the same Rng."""
    new = matches.create_match("b_chess", {"turn_seconds": 60}, seed="join")
    for name in ("alice", "bob"):
        matches.join(new.match_id, name)
    matches.start(new.match_id, str(new.referee_token))
    carol = matches.join(new.match_id, "carol")
    king = load_state(matches.state(new.match_id).state).king_of(3)
    assert king is not None
    row, col = king.square
    matches.submit_order(new.match_id, carol.token, f"{king.id} to {row},{(col + 1) % 20}")
    clock.advance(60)
    matches.resolve_due()
    report = matches.audit(new.match_id, str(new.referee_token))
    assert report.exact and report.movements == 1, report.divergence


def test_a_seat_that_joined_later_replays_the_movements_before_it_joined(matches, clock):
    # the Field is public (view_is_state): a frame from before the seat joined shows it whole
    match_id, tokens = running(matches)
    step_king(matches, match_id, tokens[0], 1)
    clock.advance(60)
    matches.resolve_due()
    carol = matches.join(match_id, "carol")
    step_king(matches, match_id, carol.token, 3)
    clock.advance(60)
    matches.resolve_due()
    seen, public = matches.replay(match_id, carol.token), matches.replay(match_id)
    assert len(seen.frames) == 2 and seen.agrees
    assert len(load_state(seen.frames[0].state).seats) == 2  # before carol joined
    assert [f.state for f in seen.frames] == [f.state for f in public.frames]
    assert matches.movement(match_id, 1, carol.token).state_after == public.frames[0].state


def step_king(matches: Matches, match_id: str, token: str, seat: int) -> None:
    """Sends the order moving the seat's King one square to the right."""
    king = load_state(matches.state(match_id).state).king_of(seat)
    assert king is not None
    row, col = king.square
    matches.submit_order(match_id, token, f"{king.id} to {row},{(col + 1) % 20}")


def test_a_state_served_is_a_copy_that_changing_leaves_the_match_as_it_is(matches, clock):
    # view_is_state serves the stored state without loading it: never the match's own (a
    # replay's report is kept whole for its head and shared, as it was before)
    match_id, tokens = running(matches)
    step_king(matches, match_id, tokens[0], 1)
    clock.advance(60)
    matches.resolve_due()

    def served() -> list[dict]:
        return [
            matches.state(match_id).state,
            matches.state(match_id, token=tokens[1]).state,
            matches.state(match_id, movement=1).state,
            matches.movement(match_id, 1).state_after,
        ]

    before = [json.dumps(state, sort_keys=True) for state in served()]
    for state in served():
        state["seats"].clear()
        state["meddled"] = True
    assert [json.dumps(state, sort_keys=True) for state in served()] == before
    assert matches.verify_chain(match_id).ok and matches.replay(match_id).agrees
    step_king(matches, match_id, tokens[1], 2)  # the kept match still takes an order
