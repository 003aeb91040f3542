"""`drts match events --type/--movement/--seat` and `drts match scoreboard` (issue 17), on
a real SQLite store through click's runner."""

from __future__ import annotations

import json

from tests.support.cli import created


def played(drts) -> tuple[str, str, str, str]:
    """A District War match three movements in."""
    match_id, referee, alice, bob = created(drts)
    drts("start", match_id, "--referee-token", referee)
    for token, order in ((bob, "first 1"), (alice, "e4"), (bob, "b4")):
        drts("order", match_id, order, "--token", token)
    return match_id, referee, alice, bob


def listed(drts, match_id: str, *options: str) -> list[dict]:
    return json.loads(drts("events", match_id, "--json", *options).output)


def test_events_are_filtered_by_type_movement_and_seat(drts):
    match_id, *_ = played(drts)
    orders = listed(drts, match_id, "--type", "OrderSubmitted")
    assert [(e["data"]["movement"], e["data"]["seat"]) for e in orders] == [(1, 2), (2, 1), (3, 2)]
    both = listed(drts, match_id, "--type", "Started", "--type", "MovementResolved")
    assert both == listed(drts, match_id, "--type", "Started,MovementResolved")
    assert [e["type"] for e in both] == ["Started", *["MovementResolved"] * 3]
    second = listed(drts, match_id, "--movement", "2")
    assert {e["data"]["movement"] for e in second} == {2} and len(second) == 5
    combined = listed(drts, match_id, "--type", "OrderSubmitted", "--seat", "2", "--movement", "3")
    assert [e["version"] for e in combined] == [16]
    text = drts("events", match_id, "--seat", "1").output.splitlines()
    assert [line.split()[2] for line in text] == ["SeatJoined", "OrderSubmitted"]


def test_an_unknown_event_type_exits_1_naming_it(drts):
    match_id, *_ = played(drts)
    result = drts("events", match_id, "--type", "Bogus", ok=False)
    assert "unknown_event_type: unknown event type 'Bogus'" in result.output
    assert "OrderSubmitted" in result.output


def test_the_scoreboard_is_a_table_empty_before_the_first_movement(drts):
    match_id, *_ = created(drts)
    out = drts("scoreboard", match_id).output.splitlines()
    assert out[0] == f"match {match_id} (district_war, open)"
    assert out[1].split() == ["movement", "1", "alice", "2", "bob", "ranking"]
    assert out[2] == "(no movement resolved yet)"


def test_the_scoreboard_after_a_few_movements(drts):
    match_id, *_ = played(drts)
    rows = [line.split() for line in drts("scoreboard", match_id).output.splitlines()[2:]]
    board = json.loads(drts("scoreboard", match_id, "--json").output)
    assert [row[0] for row in rows] == ["1", "2", "3"]
    for row, movement in zip(rows, board["movements"], strict=True):
        scores = {s["seat"]: s["score"] for s in movement["seats"]}
        assert row[1:3] == [str(scores[1]), str(scores[2])]
        assert row[3:] == [str(s["seat"]) for s in movement["seats"]]  # the ranking
    assert rows[2] == ["3", "4", "5", "2", "1"]
    assert board["left_out"] is False and board["status"] == "started"


def test_the_scoreboard_of_an_unknown_match_exits_1(drts):
    result = drts("scoreboard", "00000000-0000-4000-8000-000000000000", ok=False)
    assert "match_not_found" in result.output
