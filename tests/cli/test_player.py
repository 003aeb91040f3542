"""`drts player create/show/reissue` (issue 45): a key printed once, a seat naming its
player, and the player's rating with its history after a rated District War."""

from __future__ import annotations

import email
import email.policy
import re

import pytest
from click.testing import CliRunner, Result

from cli.main import main

OPERATOR = "cli-operator"


@pytest.fixture
def drts_player(tmp_path, monkeypatch):
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/cli.sqlite")
    monkeypatch.setenv("DRTS_OPERATOR_TOKEN", OPERATOR)
    monkeypatch.setenv("DRTS_MAIL_OUTBOX", str(tmp_path / "outbox"))
    runner = CliRunner()

    def run(*args: str, ok: bool = True) -> Result:
        result = runner.invoke(main, list(args))
        assert (result.exit_code == 0) == ok, result.output
        return result

    return run


def made(run, name: str) -> tuple[str, str]:
    out = run("player", "create", name).output
    ident = re.search(r"^player (\S+) ", out, re.M).group(1)
    return ident, re.search(r"^key (\S+)$", out, re.M).group(1)


def test_a_player_is_created_once_per_name_and_shown_by_name_or_id(drts_player):
    ident, key = made(drts_player, "Alice")
    assert len(key) >= 40
    shown = drts_player("player", "show", "ALICE").output
    assert f"player {ident} Alice" in shown and key not in shown
    assert "address" not in shown and "no rated match yet" in shown
    assert ident in drts_player("player", "show", ident).output
    taken = drts_player("player", "create", "alice", ok=False).output
    assert "player_name_taken" in taken
    assert "player_not_found" in drts_player("player", "show", "nobody", ok=False).output


def test_the_operator_reissues_a_key_and_the_old_one_no_longer_seats_the_player(drts_player):
    _, old = made(drts_player, "Alice")
    new = drts_player("player", "reissue", "alice", "--reason", "lost").output.split()[-1]
    out = drts_player("match", "create", "district_war").output
    match_id = re.search(r"^match (\S+)", out, re.M).group(1)
    refused = drts_player(
        "match", "join", match_id, "a", "--player", "alice", "--player-key", old, ok=False
    )
    assert "wrong_player_key" in refused.output
    drts_player("match", "join", match_id, "a", "--player", "alice", "--player-key", new)


def test_a_rated_match_gives_each_player_a_rating_with_its_history(drts_player):
    alice, alice_key = made(drts_player, "Alice")
    _, bob_key = made(drts_player, "Bob")
    out = drts_player(
        "match", "create", "district_war", "--config", '{"troops": 2}', "--seed", "cli", "--rated"
    ).output
    match_id = re.search(r"^match (\S+)", out, re.M).group(1)
    referee = re.search(r"^referee token (\S+)", out, re.M).group(1)
    seats = [
        drts_player(
            "match", "join", match_id, name, "--player", name, "--player-key", key
        ).output.split()[-1]
        for name, key in (("alice", alice_key), ("bob", bob_key))
    ]
    drts_player("match", "start", match_id, "--referee-token", referee)
    drts_player("match", "order", match_id, "first 1", "--token", seats[1])
    for seat, cell in ((0, "e4"), (1, "b4"), (0, "g4"), (1, "g1")):
        drts_player("match", "order", match_id, cell, "--token", seats[seat])
    shown = drts_player("player", "show", alice).output
    # bob won 11 to 9 (tests/cli/test_match.py plays the same match)
    assert "rating district_war v1: mu 22.364611 sigma 8.065901" in shown
    assert f"match {match_id}: mu 25.0 -> 22.364611, sigma 8.333333 -> 8.065901" in shown


def test_a_player_sets_its_address_with_its_key_and_confirms_it_with_the_mailed_code(
    drts_player, tmp_path
):
    _, key = made(drts_player, "Alice")
    refused = drts_player("player", "address", "alice", "a@example.org", "--key", "x", ok=False)
    assert "wrong_player_key" in refused.output
    drts_player("player", "address", "alice", "a@example.org", "--key", key)
    (mail,) = (tmp_path / "outbox" / "new").iterdir()
    letter = email.message_from_bytes(mail.read_bytes(), policy=email.policy.default)
    (code,) = re.findall(r"\b[a-z2-7]{32}\b", letter.get_body().get_content())
    assert "a@example.org" not in drts_player("player", "show", "alice").output
    confirmed = drts_player("player", "confirm-address", "alice", code, "--key", key).output
    assert "address a@example.org confirmed" in confirmed
    assert "a@example.org" not in drts_player("player", "show", "alice").output  # never shown
