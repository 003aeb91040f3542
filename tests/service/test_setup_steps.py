"""The start's random draws are recorded in the Started event (Ruleset.setup_steps):
Shades' tombs (SH-2) and human cap (SH-8); a game whose start draws nothing, and a start
from a state the referee gives, record none. Old Started events read `steps` as ()."""

from __future__ import annotations

from domain.match import Match
from domain.rules.registry import get_ruleset
from domain.rules.rng import Rng
from domain.rules.shades.ruleset import setup_steps


def started_event(matches, match_id):
    return next(e for e in matches.event_log(match_id) if e["type"] == "Started")


def test_a_shades_start_records_its_tomb_and_human_cap_draws(matches):
    new = matches.create_match("shades", {"map": "small"}, seats=2, seed="draws")
    for name in ("ann", "bob"):
        matches.join(new.match_id, name)
    matches.start(new.match_id, new.referee_token)
    steps = started_event(matches, new.match_id)["data"]["steps"]
    state = get_ruleset("shades").load_state(matches.get_match(new.match_id).state)
    assert [s["rule"] for s in steps] == ["SH-2", "SH-8"]
    assert steps[1]["data"] == {"human_cap": state.human_cap}
    owned = {seat: {t[0] for t in tombs} for seat, tombs in steps[0]["data"]["tombs"].items()}
    assert owned == {str(s): {t.id for t in state.tombs if t.owner == s} for s in (1, 2)}
    assert [s.to_json() for s in setup_steps(state)] == steps
    assert matches.verify_chain(new.match_id).ok


def test_a_start_that_draws_nothing_or_is_given_its_state_records_no_step(matches):
    toy = matches.create_match("toy", seed="toy")
    for name in ("ann", "bob"):
        matches.join(toy.match_id, name)
    matches.start(toy.match_id, toy.referee_token)
    assert started_event(matches, toy.match_id)["data"]["steps"] == []

    shades = matches.create_match("shades", {"map": "small"}, seats=2, seed="given")
    for name in ("ann", "bob"):
        matches.join(shades.match_id, name)
    ruleset = get_ruleset("shades")
    config = matches.get_match(shades.match_id).config
    given = ruleset.dump_state(ruleset.initial_state(config, 2, Rng("elsewhere", 0)))
    matches.start(shades.match_id, shades.referee_token, state=given)
    assert started_event(matches, shades.match_id)["data"]["steps"] == []
    assert matches.verify_chain(shades.match_id).ok


def test_a_started_event_stored_before_the_field_reads_no_steps():
    assert Match.Started.steps == ()
