"""`drts tournament create/register/withdraw/pair/pause/resume/standings/verify`
(issue 45): a round robin of four District War players run by hand to its end and
verified, and the errors as one line naming what is wrong."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner, Result

from cli.main import main
from service.matches import connect
from service.tournaments import Tournaments

OPERATOR = "cli-operator"


@pytest.fixture
def drts(tmp_path, monkeypatch):
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/cli.sqlite")
    monkeypatch.setenv("DRTS_OPERATOR_TOKEN", OPERATOR)
    monkeypatch.setenv("DRTS_MAIL_OUTBOX", str(tmp_path / "outbox"))
    runner = CliRunner()

    def run(*args: str, ok: bool = True) -> Result:
        result = runner.invoke(main, list(args))
        assert (result.exit_code == 0) == ok, result.output
        return result

    return run


def _field(out: str, name: str) -> str:
    return re.search(rf"^{name} (\S+)", out, re.M).group(1)


def _forfeit_round(tid: str) -> None:
    app = connect()
    try:
        record = Tournaments(app).get(tid).rounds[-1]
        for links in record["links"]:
            app.act(links[-1], OPERATOR, "forfeit", {"seat": 2}, "test")
    finally:
        app.close()


def test_a_round_robin_is_run_by_hand_and_verified(drts):
    out = drts(
        "tournament", "create", "Cup", "--format", "round_robin", "--ruleset", "district_war"
    ).output
    tid, token = _field(out, "tournament"), _field(out, "token")
    keys = {}
    for name in ("ada", "bo", "cy", "di"):
        keys[name] = _field(drts("player", "create", name).output, "key")
        assert "registered" in drts("tournament", "register", tid, name, "--key", keys[name]).output
    wrong = drts("tournament", "register", tid, "ada", "--key", "nope", ok=False).output
    assert "wrong_player_key" in wrong
    drts("tournament", "pause", tid, "--token", token)
    assert "nothing due" in drts("tournament", "pair", tid).output
    assert "not_organiser" in drts("tournament", "resume", tid, "--token", "x", ok=False).output
    drts("tournament", "resume", tid, "--token", token)
    assert "round 1 paired" in drts("tournament", "pair", tid).output
    assert "nothing due" in drts("tournament", "pair", tid).output  # idempotent
    for _ in range(3):
        _forfeit_round(tid)
        drts("tournament", "pair", tid)
    standing = json.loads(drts("tournament", "standings", tid, "--json").output)["standings"]
    assert [row["rank"] for row in standing] == [1, 2, 3, 4]
    assert "1. " in drts("tournament", "standings", tid).output
    report = json.loads(drts("tournament", "verify", tid, "--json").output)
    assert report["ok"] and report["pairings_derived"] and report["results"] == 6
    assert "sound" in drts("tournament", "verify", tid).output


def test_errors_name_what_is_wrong(drts):
    bad = drts(
        "tournament", "create", "Cup", "--format", "ladder", "--ruleset", "district_war", ok=False
    )
    assert "unknown format 'ladder'" in bad.output
    missing = drts("tournament", "standings", "no-such-id", ok=False).output
    assert "tournament_not_found" in missing
    out = drts(
        "tournament", "create", "Cup", "--format", "swiss", "--ruleset", "district_war"
    ).output
    tid = _field(out, "tournament")
    key = _field(drts("player", "create", "ada").output, "key")
    drts("tournament", "register", tid, "ada", "--key", key)
    assert "withdrawn" in drts("tournament", "withdraw", tid, "ada", "--token", key).output


def test_a_player_gets_its_seat_token_by_its_key(drts):
    out = drts(
        "tournament", "create", "Cup", "--format", "round_robin", "--ruleset", "district_war"
    ).output
    tid = _field(out, "tournament")
    keys = {}
    for name in ("ada", "bo"):
        keys[name] = _field(drts("player", "create", name).output, "key")
        drts("tournament", "register", tid, name, "--key", keys[name])
    early = drts("tournament", "seat", tid, "ada", "--key", keys["ada"], ok=False).output
    assert "no_tournament_match" in early
    drts("tournament", "pair", tid)
    got = drts("tournament", "seat", tid, "ada", "--key", keys["ada"]).output
    match_id, token = _field(got, "match"), _field(got, "token")
    app = connect()
    try:
        assert app.holder(match_id, token).seat == int(_field(got, "seat"))
    finally:
        app.close()
    assert (
        "wrong_player_key" in drts("tournament", "seat", tid, "ada", "--key", "x", ok=False).output
    )


def test_pair_with_a_token_checks_it_as_the_api_does(drts):
    out = drts(
        "tournament", "create", "Cup", "--format", "round_robin", "--ruleset", "district_war"
    ).output
    tid, token = _field(out, "tournament"), _field(out, "token")
    for name in ("ada", "bo"):
        key = _field(drts("player", "create", name).output, "key")
        drts("tournament", "register", tid, name, "--key", key)
    assert "not_organiser" in drts("tournament", "pair", tid, "--token", "x", ok=False).output
    assert "round 1 paired" in drts("tournament", "pair", tid, "--token", token).output
