"""Every action the API offers to a token holder (the referee, the operator, a seat) is a
`drts match` command too, on a real SQLite store: reissuing a seat token, extending a
given movement's deadline, a seat's view, open orders, the replay as the referee sees it.
"""

from __future__ import annotations

import json
import os

import pytest

from api.app import create_app
from cli.main import main
from service.matches import Matches
from service.settings import Settings
from tests.support.cli import created

# operationId of each API operation that takes a bearer token -> the `drts match` command
TOKEN_OPERATIONS = {
    "startMatch": "start",
    "extendDeadline": "extend",
    "reissueSeatToken": "reissue",
    "sendOrder": "order",
    "getOrders": "pending",
    "getState": "state",
    "getEvents": "events",
    "getReplay": "replay",
    "auditMatch": "audit",
    "getSeed": "seed",
    "getMovement": "movement",
    "getArchive": "export",
    "takeRefereeAction": "action",
    "getProtocolMessage": "protocol",
    "getLegalOrders": "legal-orders",
    "retryMatch": "retry",
    "correctMovement": "correct",
    "fileDispute": "dispute file",
    "ruleDispute": "dispute rule",
    "registerResultAddress": "result-address",
    "confirmResultAddress": "confirm-address",
    "registerRefereeAddress": "referee-address",
    "confirmRefereeAddress": "confirm-referee-address",
    "takeForumPost": "forum-post",  # a forum integration's: the operator token
    "mapForumUser": "forum-user",
    "getForumCode": "forum-code",
}
# the players' (issue 45), under `drts player`: the operator's token or the player's key
PLAYER_TOKEN_OPERATIONS = {
    "reissuePlayerKey": ("reissue", "--operator-token"),
    "setPlayerAddress": ("address", "--key"),
    "confirmPlayerAddress": ("confirm-address", "--key"),
}
# operations under `drts tournament` taking a player's key or the organiser's token (issue 45)
TOURNAMENT_TOKEN_OPERATIONS = {
    "registerTournamentPlayer": ("register", "--key"),
    "getTournamentSeatToken": ("seat", "--key"),
    "withdrawTournamentPlayer": ("withdraw", "--token"),
    "pauseTournament": ("pause", "--token"),
    "resumeTournament": ("resume", "--token"),
    "pairTournament": ("pair", "--token"),
}


@pytest.fixture
def service(drts) -> Matches:
    """The Matches application on the CLI's store (for the API the CLI is compared with)."""
    app = Matches(env=Settings(os.environ["DRTS_DATABASE_URL"]).event_store_env())
    yield app
    app.close()


def test_every_api_operation_taking_a_token_has_a_cli_command_taking_one(service):
    spec = create_app({"TESTING": True}, matches=service).test_client().get("/openapi.json")
    with_token = {
        operation["operationId"]
        for path in spec.get_json()["paths"].values()
        for operation in path.values()
        if isinstance(operation, dict) and {"bearerAuth": []} in operation.get("security", [])
    }
    assert with_token == (
        set(TOKEN_OPERATIONS) | set(PLAYER_TOKEN_OPERATIONS) | set(TOURNAMENT_TOKEN_OPERATIONS)
    )
    for group, operations in (
        ("player", PLAYER_TOKEN_OPERATIONS),
        ("tournament", TOURNAMENT_TOKEN_OPERATIONS),
    ):
        for name, option in operations.values():
            command = main.commands[group].commands[name]  # type: ignore[attr-defined]
            assert option in {opt for p in command.params for opt in p.opts}, name
    for command in TOKEN_OPERATIONS.values():
        found = main.commands["match"]
        for name in command.split():
            found = found.commands[name]  # type: ignore[attr-defined]
        options = {name for p in found.params for name in p.opts}
        assert options & {"--referee-token", "--token"}, command


def test_the_referee_reissues_a_lost_seat_token_and_the_old_one_stops(drts):
    match_id, referee, _, bob = created(drts)
    drts("start", match_id, "--referee-token", referee)
    out = drts("reissue", match_id, "2", "--referee-token", referee).output
    assert out.startswith("order address orders+")  # the seat's new one (docs/mail.md)
    assert out.splitlines()[1].startswith("seat 2 token ")
    new_token = out.split()[-1]
    assert new_token != bob
    assert "invalid_token" in drts("order", match_id, "first 1", "--token", bob, ok=False).output
    assert "movement 1 resolved" in drts("order", match_id, "first 1", "--token", new_token).output
    assert "SeatTokenReissued" in drts("events", match_id).output


def test_only_the_referee_reissues_and_only_a_seat_that_exists(drts):
    match_id, referee, alice, _ = created(drts)
    refused = drts("reissue", match_id, "2", "--referee-token", alice, ok=False).output
    assert "not_referee" in refused
    assert (
        "unknown_seat"
        in drts("reissue", match_id, "9", "--referee-token", referee, ok=False).output
    )


def test_the_operator_token_acts_as_referee_from_the_cli(drts, monkeypatch):
    monkeypatch.setenv("DRTS_OPERATOR_TOKEN", "operator-secret")
    match_id, _, _, _ = created(drts)
    out = drts("reissue", match_id, "1", "--referee-token", "operator-secret").output
    assert out.splitlines()[1].startswith("seat 1 token ")


def test_extend_names_the_movement_and_refuses_one_that_is_not_open(drts):
    match_id, referee, _, _ = created(drts)
    drts("start", match_id, "--referee-token", referee)
    args = ("extend", match_id, "--seconds", "60", "--referee-token", referee)
    assert "movement_closed" in drts(*args, "--movement", "2", ok=False).output
    assert drts(*args, "--movement", "1").output.startswith("deadline 20")


def test_the_referee_sees_a_seats_view_and_a_seat_only_its_own(drts):
    match_id, referee, alice, _ = created(drts)
    drts("start", match_id, "--referee-token", referee)
    view = json.loads(drts("state", match_id, "--seat", "1", "--token", referee).output)
    assert view == json.loads(drts("state", match_id, "--token", alice).output)
    refused = drts("state", match_id, "--seat", "2", "--token", alice, ok=False).output
    assert "not_your_seat" in refused


@pytest.mark.usefixtures("toy_rulesets")
def test_the_referee_reads_every_open_order_and_the_look_is_recorded(drts):
    out = drts("create", "toy", "--seed", "cli").output
    match_id, referee = out.split()[1], out.split()[-1]
    alice = drts("join", match_id, "alice").output.split()[-1]
    drts("join", match_id, "bob")
    drts("start", match_id, "--referee-token", referee)
    drts("order", match_id, "2", "--token", alice)
    own = json.loads(drts("pending", match_id, "--token", alice).output)
    assert [(o["seat"], o["order"]) for o in own] == [(1, {"pick": 2})]
    assert "SecretViewed" not in drts("events", match_id).output
    every = json.loads(drts("pending", match_id, "--token", referee).output)
    assert every == own
    assert "SecretViewed" in drts("events", match_id).output


def test_the_replay_as_json_is_the_apis_replay(drts, service):
    match_id, referee, alice, bob = created(drts)
    drts("start", match_id, "--referee-token", referee)
    drts("order", match_id, "first 1", "--token", bob)
    drts("order", match_id, "e4", "--token", alice)
    cli = json.loads(drts("replay", match_id, "--json", "--token", referee).output)
    api = create_app({"TESTING": True}, matches=service).test_client()
    http = api.get(f"/matches/{match_id}/replay", headers={"Authorization": f"Bearer {referee}"})
    assert cli == http.get_json()
    assert cli["agrees"] and [m["movement"] for m in cli["movements"]] == [1, 2]
    assert "invalid_token" in drts("replay", match_id, "--token", "nope", ok=False).output


def test_the_referee_pauses_resumes_and_forfeits_from_the_cli(drts):
    """Issue 18: `drts match pause|resume|forfeit`, each recorded with its reason."""
    match_id, referee, alice, bob = created(drts)
    drts("start", match_id, "--referee-token", referee)
    drts("order", match_id, "first 1", "--token", bob)
    ref = ("--referee-token", referee)
    assert "referee action pause" in drts("pause", match_id, *ref, "--reason", "a dispute").output
    assert "match_paused" in drts("pause", match_id, *ref, "--reason", "again", ok=False).output
    assert "referee action resume" in drts("resume", match_id, *ref, "--reason", "ok").output
    out = drts("forfeit", match_id, "1", *ref, "--reason", "withdrew").output
    assert "referee action forfeit" in out and "[DW-6]" in out
    assert (
        "not_referee"
        in drts(
            "forfeit", match_id, "2", "--referee-token", alice, "--reason", "x", ok=False
        ).output
    )
    events = drts("events", match_id).output
    assert "Paused" in events and "Resumed" in events and "Finished" in events


def test_the_referee_corrects_a_movement_from_the_cli(drts):
    """Issue 19: `drts match correct`, `corrections`, and --timeline on audit and replay."""
    match_id, referee, alice, bob = created(drts)
    drts("start", match_id, "--referee-token", referee)
    drts("order", match_id, "first 1", "--token", bob)
    for seat, cell in ((alice, "e4"), (bob, "b4"), (alice, "g4"), (bob, "g1")):
        drts("order", match_id, cell, "--token", seat)
    out = drts(
        "correct",
        match_id,
        "3",
        "--order",
        "2",
        "c4",
        "--reason",
        "bob wrote c4",
        "--referee-token",
        referee,
    ).output
    assert "movement 3 corrected: timeline 2" in out and "head " in out
    listed = json.loads(drts("corrections", match_id).output)
    assert listed["timeline"] == 2 and listed["items"][0]["changes"] == [{"seat": 2, "order": "c4"}]
    audit = drts("audit", match_id, "--timeline", "1").output
    assert "timeline 1 of 2 (1: exact, 2: exact)" in audit
    assert "agrees" in drts("replay", match_id, "--timeline", "1").output
    assert "(timeline 2 of 2)" in drts("verify", match_id).output
    refused = drts(
        "correct",
        match_id,
        "3",
        "--withdraw",
        "2",
        "--reason",
        "x",
        "--referee-token",
        alice,
        ok=False,
    ).output
    assert "not_referee" in refused
