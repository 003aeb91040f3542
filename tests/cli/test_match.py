"""`drts match ...` plays a whole District War match without HTTP, on an SQLite file."""

from __future__ import annotations

import json
import os
import re

from click.testing import CliRunner

from cli.main import main
from domain.match import Match
from service.matches import Matches
from service.settings import Settings
from tests.support.cli import created
from tests.support.draws import draw_orders, new_draw


def test_a_district_war_match_is_played_replayed_and_verified_from_the_cli(drts):
    match_id, referee, alice, bob = created(drts)
    assert "to move [2]" in drts("start", match_id, "--referee-token", referee).output
    assert "movement 1 resolved" in drts("order", match_id, "first 1", "--token", bob).output
    for seat, cell in ((alice, "e4"), (bob, "b4"), (alice, "g4"), (bob, "g1")):
        drts("order", match_id, cell, "--token", seat)
    scores = json.loads(drts("scores", match_id).output)
    assert scores["outcome"]["finished"] and scores["outcome"]["scores"] == {"1": 9, "2": 11}
    assert "ok: " in drts("verify", match_id).output
    assert "agrees with the stored match" in drts("replay", match_id).output
    phase = json.loads(drts("state", match_id, "--movement", "2", "--phase", "1").output)
    assert phase["steps"][0]["rule"] == "DW-3" and phase["state"]["cells"] == {"e4": 1}
    removed = drts("state", match_id, "--movement", "2", "--step", "1", ok=False).output
    assert "--step was removed" in removed and "--phase" in removed
    log = drts("events", match_id).output
    assert "OrderSubmitted" in log and "Finished" in log
    events = json.loads(drts("events", match_id, "--json").output)
    assert events[-1]["data"]["seed"] == "cli"
    assert match_id in drts("list").output


def test_bad_input_exits_with_a_clear_message(drts):
    match_id, referee, alice, _ = created(drts)
    out = drts("start", match_id, "--referee-token", alice, ok=False).output
    assert "not_referee" in out  # a seat token is not the referee's
    drts("start", match_id, "--referee-token", referee)
    out = drts("order", match_id, "e4", "--token", alice, ok=False).output
    assert "not_your_seat: seat 1 owes no orders in movement 1" in out
    out = drts("order", match_id, "first 1", "--token", "nope", ok=False).output
    assert "invalid_token" in out
    assert "match_not_found" in drts("show", "nope", ok=False).output
    assert "match_already_started" in drts("join", match_id, "carol", ok=False).output


def test_resolve_due_drives_the_clock_by_hand(drts):
    match_id, referee, _, _ = created(drts)
    drts("start", match_id, "--referee-token", referee)
    assert "0 movement(s) handled" in drts("resolve-due").output
    deadline = json.loads(drts("show", match_id).output)["deadline"]
    out = drts("resolve-due", "--now", deadline).output
    assert "movement 1 resolved" in out and "1 movement(s) handled" in out
    assert json.loads(drts("show", match_id).output)["movement"] == 2
    assert "nothing due" in drts("resolve", match_id, "--movement", "1", "--now", deadline).output


def test_resolve_due_every_n_seconds_keeps_resolving(drts):
    match_id, referee, _, _ = created(drts)
    drts("start", match_id, "--referee-token", referee)
    out = drts(
        "resolve-due", "--every", "0.1", "--times", "2", "--now", "2100-01-01T00:00:00Z"
    ).output
    assert out.count("movement(s) handled") == 2
    assert "movement 1 resolved" in out  # DW-2: the DMO was silent, seat 1 places first


def test_display_prints_the_public_display_now_and_after_a_movement(drts):
    match_id, referee, alice, bob = created(drts)
    drts("start", match_id, "--referee-token", referee)
    drts("order", match_id, "first 1", "--token", bob)
    drts("order", match_id, "e4", "--token", alice)
    now = drts("display", match_id).output
    assert now.startswith(f"District War (district_war v1), match {match_id}\n")
    assert "Movement 3 is open; seats to order: 2." in now and " H1* " in now
    after = drts("display", match_id, "--movement", "1").output
    assert "Position after movement 1." in after and " H1* " not in after
    assert "movement_not_found" in drts("display", match_id, "--movement", "3", ok=False).output


def test_create_takes_a_preset_and_a_ruleset_version(drts):
    out = drts("create", "district_war", "--preset", "postal", "--ruleset-version", "1").output
    match_id = re.search(r"^match (\S+)", out, re.M).group(1)
    summary = json.loads(drts("show", match_id).output)
    assert summary["config"]["placement_seconds"] == 86400 and summary["ruleset_version"] == 1
    out = drts("create", "district_war", "--ruleset-version", "2", ok=False).output
    assert "unknown_ruleset_version: ruleset district_war has no version 2" in out
    assert (
        "unknown preset 'blitz'"
        in drts("create", "district_war", "--preset", "blitz", ok=False).output
    )


def test_rulesets_lists_versions_typed_options_and_presets():
    out = CliRunner().invoke(main, ["rulesets"]).output
    assert "district_war v1: District War (2 seats, sequential)" in out
    assert "versions installed: v1 (new matches get v1)" in out
    assert "placement_seconds = 90: an integer from 1 to 31622400" in out
    assert "start = 'on_board': one of 'on_board', 'off_board'" in out
    assert "preset postal:" in out


def test_the_referee_takes_a_games_action_from_the_cli(drts, toy_rulesets):
    out = drts("create", "toy_ref", "--seed", "cli").output
    match_id = re.search(r"^match (\S+)", out, re.M).group(1)
    referee = re.search(r"^referee token (\S+)", out, re.M).group(1)
    seat = drts("join", match_id, "alice").output.split()[-1]
    drts("join", match_id, "bob")
    drts("start", match_id, "--referee-token", referee)
    args = ["action", match_id, "grant", "--args", '{"seat": 2, "points": 5}']
    out = drts(*args, "--reason", "a mack", "--referee-token", referee).output
    assert "referee action grant in movement 1" in out and "grants seat 2 5 point(s)" in out
    assert json.loads(drts("scores", match_id).output)["outcome"]["scores"]["2"] == 5
    refused = drts(*args, "--reason", "x", "--referee-token", seat, ok=False).output
    assert "not_referee" in refused
    unknown = drts(
        "action", match_id, "smite", "--reason", "x", "--referee-token", referee, ok=False
    )
    assert "unknown_action" in unknown.output


def test_resolve_due_creates_a_rematch_a_drawn_match_lacks(drts, monkeypatch):
    """A crash between the draw and its rematch is repaired by `resolve-due`, as by the
    sweep (DW-5)."""
    app = Matches(env=Settings(os.environ["DRTS_DATABASE_URL"]).event_store_env())
    new, tokens = new_draw(app)
    *early, (seat, order) = draw_orders()
    for s, o in early:
        app.submit_order(new.match_id, tokens[s], o)
    with monkeypatch.context() as patched:
        patched.setattr(Match, "rematch", lambda *a, **k: (_ for _ in ()).throw(OSError("lost")))
        app.submit_order(new.match_id, tokens[seat], order)
    rematch_id = app.get_match(new.match_id).rematch_id
    app.close()
    out = drts("resolve-due").output
    assert f"rematch {rematch_id} created" in out
    assert json.loads(drts("show", rematch_id).output)["rematch_of"] == str(new.match_id)


def test_a_seat_and_the_referee_read_legal_orders_from_the_cli(tmp_path, monkeypatch):
    """Issue 48: `drts match legal-orders` prints GET /matches/{id}/legal-orders' answer;
    DT-2: the first seat may place on any of the 24 points, the second owes nothing."""
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/cli.sqlite")
    runner = CliRunner()

    def drts(*args: str, code: int = 0) -> str:
        result = runner.invoke(main, ["match", *args])
        assert result.exit_code == code, result.output
        return result.output

    out = drts("create", "dris_et_tessa")
    match_id = re.search(r"^match (\S+)", out, re.M).group(1)
    referee = re.search(r"^referee token (\S+)", out, re.M).group(1)
    first = drts("join", match_id, "ada").split()[-1]
    drts("join", match_id, "bob")
    drts("start", match_id, "--referee-token", referee)
    own = json.loads(drts("legal-orders", match_id, "--token", first))
    assert own["owes"] and len(own["orders"]) == 24
    other = json.loads(drts("legal-orders", match_id, "--token", referee, "--seat", "2"))
    assert (other["owes"], other["why"]) == (False, "not_its_turn")
    assert "not_your_seat" in drts(
        "legal-orders", match_id, "--token", first, "--seat", "2", code=1
    )
