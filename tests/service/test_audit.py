"""Re-adjudication (issue 17): a match's log played again under its pinned ruleset version
from its config, seed and orders names the first divergence from the stored steps and
state hashes, or says the match re-adjudicates exactly; and who may ask for it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from uuid import UUID

import pytest

from domain.errors import InvalidTokenError, NotRefereeError
from domain.rules import registry
from domain.rules.contract import Step
from domain.rules.registry import get_ruleset
from domain.rules.rng import Rng
from service.clock import ManualClock
from service.errors import MissingTokenError
from service.matches import Matches

# every game, with a config that keeps a random match short
GAMES = {
    "district_war": ({}, 2),
    "drts_team23": ({"movements": 4, "max_movements": 6}, 8),
    "shades": ({"turns": 12}, 3),
    "dris_et_tessa": ({"draw_turns": 12}, 2),
}
MOVEMENTS_AT_MOST = 400


def play_to_the_end(
    matches: Matches, clock: ManualClock, game: str, seed: str, silent_one_in: int = 6
) -> UUID:
    """Plays a whole match of `game` with random legal orders; a seat now and then stays
    silent and the deadline passes (strikes, forfeits, holds: whatever the game says)."""
    config, seats = GAMES[game]
    ruleset = get_ruleset(game)
    new = matches.create_match(game, config, seats=seats, seed=seed)
    tokens = [matches.join(new.match_id, f"bot{n}").token for n in range(1, seats + 1)]
    matches.start(new.match_id, new.referee_token)
    bots = Rng(seed, 0, "bots")
    for _ in range(MOVEMENTS_AT_MOST):
        match = matches.get_match(new.match_id)
        if match.finished:
            return new.match_id
        state, movement = ruleset.load_state(match.state), match.movement
        for seat in ruleset.to_move(state).seats:
            if bots.chance(1, silent_one_in):
                continue
            order = ruleset.dump_order(ruleset.random_order(state, seat, bots))
            matches.submit_order(new.match_id, tokens[seat - 1], order, source="bot")
        match = matches.get_match(new.match_id)
        if match.is_open() and match.movement == movement and match.deadline is not None:
            clock.reach(match.deadline)
            matches.resolve(new.match_id, movement, now=match.deadline)
    raise AssertionError(f"{game} did not finish in {MOVEMENTS_AT_MOST} movements")


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_played_to_the_end_re_adjudicates_exactly(
    matches: Matches, clock: ManualClock, game: str
) -> None:
    match_id = play_to_the_end(matches, clock, game, f"audit-{game}")
    summary = matches.summary(match_id)
    report = matches.audit(match_id)
    assert report.divergence is None, report.divergence
    assert report.exact and not report.given_start
    assert (report.ruleset, report.ruleset_version) == (game, summary.ruleset_version)
    log = matches.event_log(match_id)
    resolved = [e for e in log if e["type"] == "MovementResolved"]
    assert report.movements == len(resolved) > 0
    closes = {e["data"]["reason"] for e in log if e["type"] == "MovementClosed"}
    struck = any(e["type"] == "SeatStruck" for e in log)
    assert "deadline" in closes or struck  # silence met its deadline at least once


def rescored(step: Step) -> Step:
    """DW-4 changed: a district scores twice its size."""
    points = step.data.get("points")
    if step.rule != "DW-4" or not points:
        return step
    text = step.text.replace(f"scores {points}", f"scores {2 * points}")
    return Step(step.rule, text, {**step.data, "points": 2 * points})


def test_an_injected_rules_change_is_named_at_its_first_divergence(
    matches: Matches, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DW-4's scoring changed under the same version: the audit names the last movement's
    first district that scores, its stored and recomputed step, and DW-4."""
    match_id = play_to_the_end(matches, clock, "district_war", "audit-rules-change", 10**9)
    original = get_ruleset("district_war")

    def resolve(state: Any, orders: Any, rng: Rng) -> Any:
        after, steps = original.resolve(state, orders, rng)
        return after, tuple(rescored(step) for step in steps)

    changed = replace(original, resolve=resolve)
    monkeypatch.setitem(registry.REGISTRY["district_war"], original.info.version, changed)
    report = matches.audit(match_id)
    found = report.divergence
    assert not report.exact and found is not None
    log = matches.event_log(match_id)
    last = max(e["data"]["movement"] for e in log if e["type"] == "MovementResolved")
    steps = [e for e in log if e["type"] == "StepApplied" and e["data"]["movement"] == last]
    first = next(
        e for e in steps if e["data"]["rule"] == "DW-4" and e["data"]["data"].get("points")
    )
    stored = {k: first["data"][k] for k in ("rule", "text", "data")}
    assert (found.movement, found.step, found.what) == (last, first["data"]["index"], "step")
    assert (found.version, found.event) == (first["version"], "StepApplied")
    assert found.stored == stored
    assert found.recomputed == rescored(Step(**stored)).to_json()
    assert found.rulings == ("DW-4",)
    assert report.movements == last - 1  # the movements before it re-adjudicated exactly


def test_a_changed_resolution_state_is_named_as_a_state_hash_divergence(
    matches: Matches, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same steps, another state (the toy's bonus point given twice): the first movement's
    state hash differs, with the rule ids of its steps."""
    new = matches.create_match("toy", {"rounds": 2}, seed="audit-state")
    alice, bob = matches.join(new.match_id, "alice"), matches.join(new.match_id, "bob")
    matches.start(new.match_id, new.referee_token)
    for _ in range(2):
        matches.submit_order(new.match_id, alice.token, "3")
        matches.submit_order(new.match_id, bob.token, "1")
    original = get_ruleset("toy")

    def resolve(state: Any, orders: Any, rng: Rng) -> Any:
        after, steps = original.resolve(state, orders, rng)
        return replace(after, scores=tuple(s + 1 for s in after.scores)), steps

    monkeypatch.setitem(registry.REGISTRY, "toy", {1: replace(original, resolve=resolve)})
    found = matches.audit(new.match_id).divergence
    assert found is not None
    assert (found.movement, found.step, found.what, found.event) == (
        1,
        None,
        "state_hash",
        "MovementResolved",
    )
    stored = next(e for e in matches.event_log(new.match_id) if e["type"] == "MovementResolved")
    assert found.stored == stored["data"]["state_hash"] != found.recomputed
    assert found.rulings and all(rule.startswith("TOY-") for rule in found.rulings)


def test_strikes_a_forfeit_and_a_referee_action_re_adjudicate_exactly(
    matches: Matches, clock: ManualClock
) -> None:
    """Silence strikes (then forfeits at the second strike) and a referee's grant are
    played again from the log, as the service played them."""
    config = {"rounds": 3, "silence": "strike", "max_strikes": 2, "close_early": True}
    new = matches.create_match("toy_ref", config, seed="audit-strikes", seats=3)
    tokens = [matches.join(new.match_id, name).token for name in ("a", "b", "c")]
    matches.start(new.match_id, new.referee_token)
    matches.act(new.match_id, new.referee_token, "grant", {"seat": 2, "points": 2}, "fine post")
    for _ in range(2):  # seat 3 stays silent: a strike, then the forfeit
        matches.submit_order(new.match_id, tokens[0], "2")
        matches.submit_order(new.match_id, tokens[1], "3")
        deadline = matches.get_match(new.match_id).deadline
        assert deadline is not None
        clock.reach(deadline)
        matches.resolve(new.match_id, matches.get_match(new.match_id).movement, now=deadline)
    types = [e["type"] for e in matches.event_log(new.match_id)]
    assert {"SeatStruck", "SeatEliminated", "RefereeActed"} <= set(types)
    report = matches.audit(new.match_id, new.referee_token)
    assert report.exact, report.divergence
    assert report.movements == types.count("MovementResolved")


def test_a_referee_given_start_state_is_played_from(matches: Matches) -> None:
    new = matches.create_match("toy", {"rounds": 2}, seed="audit-given")
    alice, bob = matches.join(new.match_id, "alice"), matches.join(new.match_id, "bob")
    ruleset = get_ruleset("toy")
    start = ruleset.initial_state(ruleset.validate_config({"rounds": 2}), 2, Rng("x", 0))
    given = ruleset.dump_state(replace(start, scores=(5, 0)))
    matches.start(new.match_id, new.referee_token, given, movement=3)
    matches.submit_order(new.match_id, alice.token, "1")
    matches.submit_order(new.match_id, bob.token, "2")
    report = matches.audit(new.match_id, new.referee_token)
    assert report.exact and report.given_start and report.movements == 1


# -- who may ask ----------------------------------------------------------------------------


def running(matches: Matches) -> tuple[UUID, str, list[str]]:
    """Returns a toy match with movement 1 resolved and movement 2 open, its referee token
    and its seat tokens."""
    new = matches.create_match("toy", {"rounds": 2}, seed="audit-access")
    seats = [matches.join(new.match_id, name).token for name in ("alice", "bob")]
    matches.start(new.match_id, new.referee_token)
    matches.submit_order(new.match_id, seats[0], "3")
    matches.submit_order(new.match_id, seats[1], "1")
    return new.match_id, str(new.referee_token), seats


def looks(matches: Matches, match_id: UUID) -> list[Any]:
    return [e["data"] for e in matches.event_log(match_id) if e["type"] == "SecretViewed"]


@pytest.mark.parametrize(
    ("token", "error"),
    [(None, MissingTokenError), ("seat", NotRefereeError), ("nobody's", InvalidTokenError)],
)
def test_a_running_match_is_audited_by_its_referee_only(
    matches: Matches, token: str | None, error: type[Exception]
) -> None:
    match_id, _, seats = running(matches)
    with pytest.raises(error):
        matches.audit(match_id, seats[0] if token == "seat" else token)
    assert looks(matches, match_id) == []


def test_the_referees_audit_of_a_running_match_is_recorded_as_a_look(matches: Matches) -> None:
    match_id, referee, _ = running(matches)
    report = matches.audit(match_id, referee)
    assert report.exact and report.movements == 1
    assert looks(matches, match_id) == [{"viewer": "referee", "what": "audit"}]


def test_a_finished_match_is_audited_by_anyone_and_records_nothing(matches: Matches) -> None:
    match_id, referee, seats = running(matches)
    matches.submit_order(match_id, seats[0], "2")
    matches.submit_order(match_id, seats[1], "2")
    assert matches.get_match(match_id).finished
    version = matches.get_match(match_id).version
    for token in (None, seats[1], referee):
        report = matches.audit(match_id, token)
        assert report.exact and report.movements == 2
    assert matches.get_match(match_id).version == version
    with pytest.raises(InvalidTokenError):
        matches.audit(match_id, "a token this match does not know")
