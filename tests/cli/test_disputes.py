"""`drts match dispute file|rule|show` and `drts match disputes` (issue 18): the API's
disputes from the command line, on a real SQLite store, and the same JSON as over HTTP."""

from __future__ import annotations

import json
import os

import pytest

from api.app import create_app
from domain.match.disputes import MAX_OPEN_DISPUTES_PER_SEAT
from service.matches import Matches
from service.settings import Settings

pytestmark = pytest.mark.usefixtures("toy_rulesets")


def toy_match(drts) -> tuple[str, str, list[str]]:
    out = drts("create", "toy", "--seed", "cli").output
    match_id, referee = out.split()[1], out.split()[-1]
    seats = [drts("join", match_id, name).output.split()[-1] for name in ("alice", "bob", "carol")]
    drts("start", match_id, "--referee-token", referee)
    return match_id, referee, seats


def versions(drts, match_id: str, kind: str) -> list[int]:
    items = json.loads(drts("events", match_id, "--json").output)
    return [item["version"] for item in items if item["type"] == kind]


def test_a_dispute_is_filed_dismissed_and_upheld_from_the_cli(drts):
    match_id, referee, (alice, bob, _) = toy_match(drts)
    started = versions(drts, match_id, "Started")[0]
    filed = drts(
        "dispute",
        "file",
        match_id,
        "--cite",
        str(started),
        "--cite",
        "1",
        "--text",
        "the start came early",
        "--token",
        alice,
    ).output
    assert filed.startswith("dispute 1 filed (event ") and "awaits a ruling" in filed
    drts("dispute", "file", match_id, "--cite", "2", "--text", "a note", "--token", referee)
    assert drts("dispute", "waiting").output == f"{match_id} toy started: 2 open, 0 ruled\n"
    listed = drts("disputes", match_id).output
    assert f"dispute 1 (open): seat 1, movement 1, cites 1, {started}" in listed
    assert "dispute 2 (open): referee, movement 1, cites 2" in listed
    ruled = drts(
        "dispute",
        "rule",
        match_id,
        "1",
        "--dismiss",
        "--reason",
        "on time",
        "--referee-token",
        referee,
    ).output
    assert ruled.startswith("dispute 1 dismissed (event ")
    drts(
        "dispute",
        "rule",
        match_id,
        "2",
        "--uphold",
        "--reason",
        "noted",
        "--referee-token",
        referee,
    )
    listed = drts("disputes", match_id).output
    assert "dispute 1 (dismissed by referee)" in listed and "    ruling: on time" in listed
    assert "dispute 2 (upheld by referee)" in listed
    assert drts("dispute", "waiting").output == ""
    again = drts(
        "dispute",
        "rule",
        match_id,
        "1",
        "--uphold",
        "--reason",
        "again",
        "--referee-token",
        referee,
        ok=False,
    ).output
    assert "dispute_already_ruled" in again
    by_seat = drts(
        "dispute",
        "rule",
        match_id,
        "2",
        "--dismiss",
        "--reason",
        "me",
        "--referee-token",
        bob,
        ok=False,
    ).output
    assert "not_referee" in by_seat
    assert (
        "usage"
        in drts(
            "dispute",
            "rule",
            match_id,
            "2",
            "--reason",
            "which?",
            "--referee-token",
            referee,
            ok=False,
        ).output.lower()
    )
    assert "DisputeRuled" in drts("events", match_id).output


def test_a_seat_cannot_cite_another_seats_open_order_from_the_cli(drts):
    match_id, _, (alice, bob, carol) = toy_match(drts)
    drts("order", match_id, "3", "--token", alice)
    [order] = versions(drts, match_id, "OrderSubmitted")
    args = ("dispute", "file", match_id, "--cite", str(order), "--text", "what did she pick?")
    refused = drts(*args, "--token", bob, ok=False).output
    assert "uncitable_event" in refused and f"event {order} cannot be cited by seat 2" in refused
    assert (
        "invalid_dispute"
        in drts(
            "dispute", "file", match_id, "--cite", "99", "--text", "x", "--token", bob, ok=False
        ).output
    )
    drts("order", match_id, "1", "--token", bob)
    drts("order", match_id, "2", "--token", carol)  # the movement closes
    assert drts(*args, "--token", bob).output.startswith("dispute 1 filed")
    shown = json.loads(drts("dispute", "show", match_id, "1").output)
    assert shown["events"][0]["sealed"]["order"] == {"pick": 3}


def test_the_cli_lists_disputes_as_the_api_does(drts):
    match_id, _, (alice, _, _) = toy_match(drts)
    assert drts("disputes", match_id).output == "no disputes\n"
    filed = json.loads(
        drts(
            "dispute", "file", match_id, "--cite", "1", "--text", "t", "--token", alice, "--json"
        ).output
    )
    assert filed["dispute"] == 1 and filed["status"] == "open"
    service = Matches(env=Settings(os.environ["DRTS_DATABASE_URL"]).event_store_env())
    try:
        client = create_app({"TESTING": True}, matches=service).test_client()
        http = client.get(f"/matches/{match_id}/disputes").get_json()
        one = client.get(f"/matches/{match_id}/disputes/1").get_json()
    finally:
        service.close()
    assert json.loads(drts("disputes", match_id, "--json").output) == http
    assert json.loads(drts("dispute", "show", match_id, "1").output) == one


def test_a_dispute_text_cannot_drive_the_referees_terminal(drts):
    """A filed text with a bidi override and a zero-width space is printed with those
    characters escaped; the JSON form still decodes to the text as filed. An ESC
    sequence or a C1 control is refused when filed (issue 41), naming the character."""
    match_id, _, (alice, _, _) = toy_match(drts)
    text = "red \u200bALERT \u202egnp.exe"
    drts("dispute", "file", match_id, "--cite", "1", "--text", text, "--token", alice)
    shown = drts("disputes", match_id).output
    assert "\u200b" not in shown and "\u202e" not in shown
    assert "red \\u200bALERT \\u202egnp.exe" in shown
    as_json = drts("disputes", match_id, "--json").output
    assert "\u200b" not in as_json and "\u202e" not in as_json
    assert json.loads(as_json)["items"][0]["text"] == text
    escape = "red \x1b[31mALERT"
    refused = drts(
        "dispute", "file", match_id, "--cite", "1", "--text", escape, "--token", alice, ok=False
    )
    assert "U+001B" in refused.output


def test_the_cli_lists_disputes_a_page_at_a_time_and_says_how_to_go_on(drts):
    match_id, referee, (alice, bob, _) = toy_match(drts)
    for token, text in ((alice, "a"), (bob, "b"), (referee, "c"), (alice, "d")):
        drts("dispute", "file", match_id, "--cite", "1", "--text", text, "--token", token)
    drts(
        "dispute", "rule", match_id, "2", "--dismiss", "--reason", "no", "--referee-token", referee
    )
    first = drts("disputes", match_id, "--limit", "2").output.splitlines()
    assert [line for line in first if line.startswith("dispute ")] == [
        "dispute 1 (open): seat 1, movement 1, cites 1",
        "dispute 2 (dismissed by referee): seat 2, movement 1, cites 1",
    ]
    assert first[-1] == "more: --after 2"
    last = drts("disputes", match_id, "--after", "2", "--limit", "2").output
    assert "dispute 3 (open)" in last and "dispute 4 (open)" in last and "more:" not in last
    assert drts("disputes", match_id, "--after", "4").output == "no disputes after dispute 4\n"
    waiting = drts("disputes", match_id, "--status", "open", "--seat", "1").output
    assert [line[:9] for line in waiting.splitlines() if line.startswith("dispute")] == [
        "dispute 1",
        "dispute 4",
    ]
    page = json.loads(
        drts("disputes", match_id, "--status", "open", "--limit", "1", "--json").output
    )
    assert [item["dispute"] for item in page["items"]] == [1] and page["next"] == 1
    service = Matches(env=Settings(os.environ["DRTS_DATABASE_URL"]).event_store_env())
    try:
        client = create_app({"TESTING": True}, matches=service).test_client()
        http = client.get(f"/matches/{match_id}/disputes?status=open&limit=1").get_json()
    finally:
        service.close()
    assert page == http
    for bad in (("--limit", "0"), ("--limit", "201"), ("--after", "-1"), ("--status", "shut")):
        refused = drts("disputes", match_id, *bad, ok=False)
        assert refused.exit_code == 2 and bad[0] in refused.output  # a usage error naming it


def test_a_seat_at_the_cap_of_open_disputes_is_refused_from_the_cli(drts):
    match_id, referee, (alice, _, _) = toy_match(drts)
    args = ("dispute", "file", match_id, "--cite", "1", "--text", "again", "--token", alice)
    for _ in range(MAX_OPEN_DISPUTES_PER_SEAT):
        drts(*args)
    refused = drts(*args, ok=False).output
    assert "too_many_open_disputes" in refused and "seat 1 of match" in refused
    drts(
        "dispute", "rule", match_id, "1", "--dismiss", "--reason", "no", "--referee-token", referee
    )
    assert drts(*args).output.startswith(f"dispute {MAX_OPEN_DISPUTES_PER_SEAT + 1} filed")
