"""Disputes over HTTP (issue 18, docs/referee.md): a seat or the referee files one citing
event versions; the referee dismisses it or upholds it with a note; anyone lists them;
the referee is told in the match's counts and the match list's filter. A seat may not
cite another seat's order while it is sealed, and nothing of a sealed order shows anywhere.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from tests.api.conftest import OPERATOR, HttpMatch, assert_error, bearer
from tests.support.disputes import TEXT, file, rule

ALICE_ORDER = {"pick": 3}


def events(client, table: HttpMatch, query: str = "", token: str | None = None) -> list[Any]:
    url = f"/matches/{table.id}/events?{query}"
    return client.get(url, headers=bearer(token)).get_json()["items"]


def version_of(client, table: HttpMatch, kind: str, seat: int | None = None) -> int:
    return next(
        e["version"]
        for e in events(client, table)
        if e["type"] == kind and (seat is None or e["data"]["seat"] == seat)
    )


def counts(client, table: HttpMatch) -> dict[str, int]:
    return client.get(f"/matches/{table.id}").get_json()["disputes"]


def needing_a_ruling(client) -> list[str]:
    items = client.get("/matches?disputes=open").get_json()["items"]
    return [item["match_id"] for item in items]


def test_a_dispute_dismissed(client):
    table, quiet = HttpMatch(client), HttpMatch(client)
    started = version_of(client, table, "Started")
    filed = file(client, table, table.seats[0], [started, 1, started])
    assert filed.status_code == 201, filed.get_json()
    dispute = filed.get_json()
    assert dispute["dispute"] == 1 and dispute["status"] == "open"
    assert (dispute["by"], dispute["seat"], dispute["movement"]) == ("seat", 1, 1)
    assert dispute["cites"] == [1, started] and dispute["text"] == TEXT  # sorted, unique
    assert counts(client, table) == {"open": 1, "ruled": 0}
    assert counts(client, quiet) == {"open": 0, "ruled": 0}
    assert needing_a_ruling(client) == [table.id]
    [feed] = events(client, table, "type=DisputeFiled", table.referee)  # the referee's feed
    assert feed["data"]["text"] == TEXT and feed["version"] == dispute["version"]
    ruled = rule(client, table, table.referee, 1, "dismissed", "the log shows it on time")
    assert ruled.status_code == 201, ruled.get_json()
    body = ruled.get_json()
    assert (body["status"], body["ruling"], body["ruled_by"]) == ("ruled", "dismissed", "referee")
    assert body["reason"] == "the log shows it on time" and body["correction"] is None
    assert counts(client, table) == {"open": 0, "ruled": 1}
    assert needing_a_ruling(client) == []
    [listed] = client.get(f"/matches/{table.id}/disputes").get_json()["items"]
    assert listed == body
    assert client.get(f"/matches/{table.id}/verify").get_json()["ok"]


def test_a_dispute_upheld_with_a_note(client):
    table = HttpMatch(client)
    assert (
        file(client, table, table.referee, [1], "the seed commitment was shown late").status_code
        == 201
    )
    assert file(client, table, OPERATOR, [2], "seat 1 joined twice?").status_code == 201
    second = rule(client, table, OPERATOR, 2, "upheld", "noted: seat 1 joined once; log fixed")
    assert second.status_code == 201, second.get_json()
    assert (second.get_json()["ruling"], second.get_json()["ruled_by"]) == ("upheld", "operator")
    listed = client.get(f"/matches/{table.id}/disputes").get_json()["items"]
    assert [(d["by"], d["seat"], d["status"]) for d in listed] == [
        ("referee", None, "open"),
        ("operator", None, "ruled"),
    ]
    assert counts(client, table) == {"open": 1, "ruled": 1}
    ruled = events(client, table, "type=DisputeRuled")
    assert [e["data"]["ruling"] for e in ruled] == ["upheld"]
    assert ruled[0]["data"]["correction"] is None


def test_a_seat_may_not_cite_another_seats_open_order_until_its_movement_closes(client):
    table = HttpMatch(client, names=("alice", "bob", "carol"))
    assert table.order(1, ALICE_ORDER).status_code == 201
    order = version_of(client, table, "OrderSubmitted", seat=1)
    refused = assert_error(file(client, table, table.seats[1], [1, order]), 403, "uncitable_event")
    assert f"event {order} cannot be cited by seat 2" in refused["message"]
    assert "seat 1's OrderSubmitted in movement 1" in refused["message"]
    assert file(client, table, table.seats[0], [order], "mine, received late").status_code == 201
    by_referee = file(client, table, table.referee, [order], "the referee looks into it")
    assert by_referee.status_code == 201
    cited = client.get(f"/matches/{table.id}/disputes/2").get_json()["events"]
    assert [(e["version"], "sealed" in e) for e in cited] == [(order, False)]  # public form
    assert table.order(2, "1").status_code == 201
    assert table.order(3, "2").status_code == 201  # the movement closes: orders revealed
    assert file(client, table, table.seats[1], [order], "alice picked 3?").status_code == 201
    cited = client.get(f"/matches/{table.id}/disputes/3").get_json()["events"]
    assert cited[0]["sealed"]["order"] == ALICE_ORDER


def test_disputes_never_show_an_open_order(client):
    table = HttpMatch(client, names=("alice", "bob", "carol"))
    assert table.order(1, ALICE_ORDER).status_code == 201
    salt = next(e for e in events(client, table, "", table.seats[0]) if "sealed" in e)["sealed"][
        "salt"
    ]
    order = version_of(client, table, "OrderSubmitted", seat=1)
    assert file(client, table, table.seats[0], [order], "my own order").status_code == 201
    assert file(client, table, table.referee, [order], "the referee's").status_code == 201
    assert rule(client, table, table.referee, 1, "dismissed", "no case").status_code == 201
    for token in (None, table.seats[1], table.seats[2]):
        texts = [
            client.get(url, headers=bearer(token)).get_data(as_text=True)
            for url in (
                f"/matches/{table.id}/disputes",
                f"/matches/{table.id}/disputes/1",
                f"/matches/{table.id}/disputes/2",
                f"/matches/{table.id}/events?type=DisputeFiled,DisputeRuled",
                f"/matches/{table.id}",
                "/matches?disputes=open",
            )
        ]
        assert all(salt not in text and '"pick"' not in text for text in texts), token
    looks = [e for e in events(client, table) if e["type"] == "SecretViewed"]
    assert looks == []  # filing and listing disputes looks at nothing secret


def test_a_dispute_after_the_match_finished_and_one_before_the_start(client):
    waiting = HttpMatch(client, start=False)
    early = file(client, waiting, waiting.seats[1], [2], "alice's name is taken")
    assert early.status_code == 201 and early.get_json()["movement"] == 0
    table = HttpMatch(client, config={"rounds": 1})
    assert table.order(1, ALICE_ORDER).status_code == 201
    assert table.order(2, "1").status_code == 201
    assert client.get(f"/matches/{table.id}").get_json()["status"] == "finished"
    finished = version_of(client, table, "Finished")
    late = file(client, table, table.seats[1], [finished], "the scores are wrong")
    assert late.status_code == 201 and late.get_json()["movement"] == 1
    assert (
        rule(client, table, table.referee, 1, "upheld", "noted for the league").status_code == 201
    )
    assert client.get(f"/matches/{table.id}/verify").get_json()["ok"]
    assert client.get(f"/matches/{table.id}/audit").get_json()["exact"]
    assert client.get(f"/matches/{table.id}/replay").get_json()["agrees"]
    assert events(client, table)[-1]["type"] == "DisputeRuled"


def test_bad_disputes_and_rulings_get_clear_errors(client):
    table, other = HttpMatch(client), HttpMatch(client)
    seat = table.seats[0]
    assert (
        "at least one event"
        in assert_error(file(client, table, seat, []), 422, "invalid_dispute")["message"]
    )
    assert_error(file(client, table, seat, [1], ""), 422, "validation_error")
    blank = assert_error(file(client, table, seat, [1], " \n "), 422, "invalid_dispute")
    assert "needs a text" in blank["message"]
    assert_error(file(client, table, seat, [1], "x" * 4001), 422, "validation_error")
    assert_error(file(client, table, seat, list(range(1, 22))), 422, "validation_error")
    beyond = assert_error(file(client, table, seat, [1, 99]), 422, "invalid_dispute")
    assert "event 99 cannot be cited" in beyond["message"] and "events 1.." in beyond["message"]
    assert_error(file(client, table, seat, [0]), 422, "validation_error")  # versions are 1..
    assert_error(file(client, table, seat, [-3]), 422, "validation_error")
    assert_error(file(client, table, seat, ["1"]), 422, "validation_error")
    assert_error(file(client, table, None, [1]), 401, "missing_token")
    assert_error(file(client, table, other.seats[0], [1]), 401, "invalid_token")
    assert file(client, table, seat, [1]).status_code == 201
    assert_error(rule(client, table, seat, 1, "upheld", "me"), 403, "not_referee")
    assert_error(rule(client, table, other.referee, 1, "upheld", "me"), 401, "invalid_token")
    assert_error(rule(client, table, table.referee, 2, "upheld", "why"), 404, "unknown_dispute")
    assert_error(rule(client, table, table.referee, 1, "maybe", "why"), 422, "validation_error")
    assert_error(rule(client, table, table.referee, 1, "upheld", ""), 422, "validation_error")
    assert_error(rule(client, table, table.referee, 1, "upheld", "  "), 422, "invalid_dispute")
    assert rule(client, table, table.referee, 1, "dismissed", "no case").status_code == 201
    again = assert_error(
        rule(client, table, table.referee, 1, "upheld", "on second thought"),
        409,
        "dispute_already_ruled",
    )
    assert "already dismissed" in again["message"]
    assert_error(client.get(f"/matches/{table.id}/disputes/7"), 404, "unknown_dispute")
    assert_error(client.get("/matches?disputes=closed"), 422, "validation_error")
    assert len(client.get(f"/matches/{table.id}/disputes").get_json()["items"]) == 1


def test_a_retried_dispute_with_its_idempotency_key_files_once(client):
    """A filer's retry with the same Idempotency-Key answers 200 with the first dispute and
    records nothing; another filer's same key, or the filer's new key, files anew."""
    table = HttpMatch(client)

    def keyed(token: str, key: str, text: str = TEXT):
        headers = {**bearer(token), "Idempotency-Key": key}
        url = f"/matches/{table.id}/disputes"
        return client.post(url, json={"cites": [1], "text": text}, headers=headers)

    first = keyed(table.seats[0], "retry-1")
    assert first.status_code == 201, first.get_json()
    version = client.get(f"/matches/{table.id}/events").get_json()["version"]
    again = keyed(table.seats[0], "retry-1", "a retry whose body changed")
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert client.get(f"/matches/{table.id}/events").get_json()["version"] == version
    assert keyed(table.seats[1], "retry-1").get_json()["dispute"] == 2  # another filer
    assert keyed(table.referee, "retry-1").get_json()["dispute"] == 3  # the referee
    assert keyed(table.seats[0], "retry-2").get_json()["dispute"] == 4  # a new key
    [stored, *_] = events(client, table, "type=DisputeFiled", table.referee)
    assert stored["data"]["key_digest"] == hashlib.sha256(b"retry-1").hexdigest()
    assert "retry-1" not in json.dumps(events(client, table))  # only the digest is kept
    assert client.get(f"/matches/{table.id}/verify").get_json()["ok"]
    assert client.get(f"/matches/{table.id}/replay").get_json()["agrees"]
