"""DW-5: a District War match drawn on every size gets a rematch, a new match linked both ways.

The stored names say "replay" (the outcome's key, the events ReplayLinked and
ReplayOf): chained, they stay, and mean rematch.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from domain.errors import MovementClosedError, NotYourSeatError
from domain.match import Match
from domain.rules.district_war import RULESET
from tests.support.draws import draw_orders, new_draw, play_to_a_draw


def test_a_draw_on_every_size_creates_a_started_rematch_with_the_same_seats(matches):
    new, _, last = play_to_a_draw(matches)
    rematch_id = last.closing.rematch_id
    assert last.closing.finished and rematch_id is not None and rematch_id != new.match_id
    drawn, rematch = matches.summary(new.match_id), matches.summary(rematch_id)
    assert drawn.outcome["result"] == "draw" and drawn.outcome["rematch"] is True
    assert drawn.rematch_id == str(rematch_id) and rematch.rematch_of == str(new.match_id)
    assert rematch.status == "started" and rematch.movement == 1
    assert [s["name"] for s in rematch.seats] == ["ada", "bo"]
    assert rematch.config == drawn.config
    assert rematch.seed_commitment != drawn.seed_commitment


def test_the_old_names_stay_as_deprecated_aliases_of_the_rematch_fields(matches):
    new, _, last = play_to_a_draw(matches)
    drawn = matches.summary(new.match_id)
    rematch = matches.summary(last.closing.rematch_id)
    assert last.closing.replay_id == last.closing.rematch_id
    assert (drawn.replay_id, rematch.replay_of) == (drawn.rematch_id, str(new.match_id))
    assert drawn.outcome["replay"] is drawn.outcome["rematch"] is True


def test_the_stored_outcome_keeps_its_key_replay(matches):
    """Stored outcomes are chained: `rematch` is stored under "replay", byte for byte."""
    new, _, _ = play_to_a_draw(matches)
    finished = matches.event_log(new.match_id)[-2]  # Finished, then ReplayLinked
    assert finished["type"] == "Finished"
    assert finished["data"]["outcome"]["replay"] is True
    assert "rematch" not in finished["data"]["outcome"]
    assert RULESET.outcome(RULESET.load_state(matches.get_match(new.match_id).state)).rematch


def test_the_players_tokens_and_the_referee_token_still_work_in_the_rematch(matches):
    new, tokens, last = play_to_a_draw(matches)
    rematch_id = last.closing.rematch_id
    matches.extend_deadline(rematch_id, new.referee_token, seconds=30)
    with pytest.raises(NotYourSeatError):  # DW-2: only the DMO (seat 2) chooses first
        matches.submit_order(rematch_id, tokens[1], "first 1")
    receipt = matches.submit_order(rematch_id, tokens[2], "first 1")
    assert receipt.seat == 2 and receipt.closing.resolved


def test_asking_again_finds_the_same_rematch_and_creates_no_other(matches):
    new, _, last = play_to_a_draw(matches)
    before = len(list(matches.match_ids()))
    assert matches.create_rematch_if_due(new.match_id) == last.closing.rematch_id
    assert matches.resolve(new.match_id, last.closing.movement) is None
    assert len(list(matches.match_ids())) == before


def test_a_crash_between_linking_and_creating_the_rematch_is_repaired_by_the_next_resolve(
    matches, monkeypatch
):
    """The link is recorded first; a resolve run again (a redelivered task) creates the
    rematch it names, once."""
    new, tokens = new_draw(matches)
    *early, (seat, order) = draw_orders()
    for s, o in early:
        matches.submit_order(new.match_id, tokens[s], o)

    def crash(*args, **kwargs):
        raise RuntimeError("worker lost")

    with monkeypatch.context() as patched:
        patched.setattr(Match, "rematch", crash)
        # the crash in the early close is counted against the match, not raised (issue 15)
        receipt = matches.submit_order(new.match_id, tokens[seat], order)
        assert receipt.closing is None
    drawn = matches.get_match(new.match_id)
    assert drawn.finished and drawn.rematch_id is not None
    before = len(list(matches.match_ids()))
    assert matches.resolve(new.match_id, drawn.movement - 1) is None
    assert matches.summary(drawn.rematch_id).rematch_of == str(new.match_id)
    assert len(list(matches.match_ids())) == before + 1
    assert str(matches.create_rematch_if_due(new.match_id)) == drawn.rematch_id


def test_a_late_order_whose_deadline_finishes_the_draw_is_refused_and_the_rematch_made(
    matches, clock
):
    """The last movement's deadline passes with the order already pending: the late order
    first lets it pass (the match ends drawn), is refused, and the rematch exists."""
    new, tokens = new_draw(matches)
    *early, (seat, order) = draw_orders()
    for s, o in early:
        matches.submit_order(new.match_id, tokens[s], o)
    matches.submit_order(new.match_id, tokens[seat], order, resolve_when_ready=False)
    clock.reach(matches.get_match(new.match_id).deadline + timedelta(seconds=1))
    with pytest.raises(MovementClosedError, match="finished"):
        matches.submit_order(new.match_id, tokens[seat], order)
    drawn = matches.get_match(new.match_id)
    assert drawn.finished and drawn.rematch_id is not None
    assert matches.summary(drawn.rematch_id).status == "started"


def test_both_chains_verify_and_name_the_link_events(matches):
    new, _, last = play_to_a_draw(matches)
    rematch_id = last.closing.rematch_id
    assert matches.verify_chain(new.match_id).ok and matches.verify_chain(rematch_id).ok
    assert "ReplayLinked" in [e["type"] for e in matches.event_log(new.match_id)]
    assert [e["type"] for e in matches.event_log(rematch_id)][:2] == ["Created", "ReplayOf"]


def test_a_won_match_gets_no_rematch(matches):
    new = matches.create_match("toy", {"rounds": 1}, seed="won")
    a, b = matches.join(new.match_id, "a"), matches.join(new.match_id, "b")
    matches.start(new.match_id, new.referee_token)
    matches.submit_order(new.match_id, a.token, "3")
    closing = matches.submit_order(new.match_id, b.token, "1").closing
    assert closing.finished and closing.rematch_id is None
    assert matches.create_rematch_if_due(new.match_id) is None
