"""The disputes list by page, and the cap on a seat's disputes awaiting a ruling, over HTTP
(docs/api.md, Disputes): `?after=<number>&limit=<n>` in filing order with `next`, filters
by status and seat; a seat with MAX_OPEN_DISPUTES_PER_SEAT disputes awaiting a ruling is
refused one more (409 too_many_open_disputes) until the referee rules on one."""

from __future__ import annotations

from typing import Any

from domain.match.disputes import MAX_OPEN_DISPUTES_PER_SEAT
from service.queries.disputes import MAX_PAGE_SIZE, PAGE_SIZE
from tests.api.conftest import HttpMatch, assert_error, bearer
from tests.support.disputes import file, rule


def listed(client, table: HttpMatch, query: str = "") -> Any:
    answer = client.get(f"/matches/{table.id}/disputes?{query}")
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def numbers(page: Any) -> list[int]:
    return [item["dispute"] for item in page["items"]]


def filed_by(client, table: HttpMatch, token: str, count: int) -> list[int]:
    answers = [file(client, table, token, [1], f"complaint {n}") for n in range(count)]
    assert all(a.status_code == 201 for a in answers), [a.get_json() for a in answers]
    return [a.get_json()["dispute"] for a in answers]


def test_the_disputes_come_by_page_in_filing_order(client):
    table = HttpMatch(client)
    filed_by(client, table, table.seats[0], 3)
    filed_by(client, table, table.referee, 2)
    first = listed(client, table, "limit=2")
    assert (numbers(first), first["next"]) == ([1, 2], 2)
    second = listed(client, table, f"after={first['next']}&limit=2")
    assert (numbers(second), second["next"]) == ([3, 4], 4)
    last = listed(client, table, f"after={second['next']}&limit=2")
    assert (numbers(last), last["next"]) == ([5], None)
    exactly = listed(client, table, "after=3&limit=2")  # the last page, full: no next
    assert (numbers(exactly), exactly["next"]) == ([4, 5], None)
    everything = listed(client, table)  # the first page, as clients read it before paging
    assert (numbers(everything), everything["next"]) == ([1, 2, 3, 4, 5], None)
    assert set(everything) == {"items", "next"}
    one = client.get(f"/matches/{table.id}/disputes/1").get_json()
    assert everything["items"][0] == {k: v for k, v in one.items() if k != "events"}


def test_a_page_after_the_last_dispute_is_empty_and_the_last(client):
    table, quiet = HttpMatch(client), HttpMatch(client)
    filed_by(client, table, table.seats[0], 2)
    for after in (2, 3, 2**31 - 1):
        assert listed(client, table, f"after={after}") == {"items": [], "next": None}
    assert listed(client, quiet) == {"items": [], "next": None}


def test_the_default_page_and_the_bounds_of_limit_and_after(client):
    table = HttpMatch(client)
    filed_by(client, table, table.referee, PAGE_SIZE + 1)
    page = listed(client, table)
    assert (len(page["items"]), page["next"]) == (PAGE_SIZE, PAGE_SIZE)
    assert numbers(listed(client, table, f"after={PAGE_SIZE}")) == [PAGE_SIZE + 1]
    assert len(listed(client, table, f"limit={MAX_PAGE_SIZE}")["items"]) == PAGE_SIZE + 1
    url = f"/matches/{table.id}/disputes"
    for query, field in (
        ("limit=0", "limit"),
        (f"limit={MAX_PAGE_SIZE + 1}", "limit"),
        ("limit=-1", "limit"),
        ("limit=ten", "limit"),
        ("after=-1", "after"),
        (f"after={2**31}", "after"),
        ("status=closed", "status"),
        ("seat=0", "seat"),
    ):
        body = assert_error(client.get(f"{url}?{query}"), 422, "validation_error")
        assert list(body["details"]["fields"]["query"]) == [field], query
        assert f"query.{field}:" in body["message"], query
    unknown = assert_error(client.get(f"{url}?page=2"), 400, "unknown_parameter")
    assert unknown["details"]["accepted"] == ["after", "limit", "seat", "status"]
    missing = "00000000-0000-4000-8000-000000000000"
    assert_error(client.get(f"/matches/{missing}/disputes?limit=2"), 404, "match_not_found")


def test_the_list_keeps_only_the_disputes_of_a_status_or_a_seat(client):
    """The referee reads those awaiting a ruling first: `status=open`; `next` counts only
    the disputes that pass the filters."""
    table = HttpMatch(client)
    filed_by(client, table, table.seats[0], 2)  # 1, 2
    filed_by(client, table, table.seats[1], 2)  # 3, 4
    filed_by(client, table, table.referee, 1)  # 5
    filed_by(client, table, table.seats[0], 1)  # 6
    for number in (1, 4):
        assert rule(client, table, table.referee, number, "dismissed", "no").status_code == 201
    assert numbers(listed(client, table, "status=open")) == [2, 3, 5, 6]
    assert numbers(listed(client, table, "status=ruled")) == [1, 4]
    page = listed(client, table, "status=open&limit=2")
    assert (numbers(page), page["next"]) == ([2, 3], 3)
    page = listed(client, table, "status=open&limit=2&after=3")
    assert (numbers(page), page["next"]) == ([5, 6], None)
    assert numbers(listed(client, table, "seat=1")) == [1, 2, 6]
    page = listed(client, table, "seat=1&status=open&limit=1")
    assert (numbers(page), page["next"]) == ([2], 2)
    assert listed(client, table, "seat=1&status=open&after=2&limit=1")["next"] is None
    page = listed(client, table, "status=ruled&limit=1&after=1")  # no later one is ruled
    assert (numbers(page), page["next"]) == ([4], None)
    assert listed(client, table, "seat=3") == {"items": [], "next": None}


def test_a_seat_at_the_cap_is_refused_until_the_referee_rules_on_one(client):
    table = HttpMatch(client)
    alice, bob = table.seats
    mine = filed_by(client, table, alice, MAX_OPEN_DISPUTES_PER_SEAT)
    version = client.get(f"/matches/{table.id}/events").get_json()["version"]
    refused = assert_error(file(client, table, alice, [1]), 409, "too_many_open_disputes")
    assert refused["details"] == {"seat": 1, "limit": MAX_OPEN_DISPUTES_PER_SEAT, "open": mine}
    assert f"at most {MAX_OPEN_DISPUTES_PER_SEAT}" in refused["message"]
    assert client.get(f"/matches/{table.id}/events").get_json()["version"] == version
    assert file(client, table, bob, [1]).status_code == 201  # another seat is not held back
    filed_by(client, table, table.referee, MAX_OPEN_DISPUTES_PER_SEAT + 1)  # nor the referee
    assert rule(client, table, table.referee, mine[3], "dismissed", "no case").status_code == 201
    room = file(client, table, alice, [1], "one more")
    assert room.status_code == 201 and room.get_json()["seat"] == 1
    assert_error(file(client, table, alice, [1]), 409, "too_many_open_disputes")
    assert client.get(f"/matches/{table.id}").get_json()["disputes"] == {
        "open": 2 * MAX_OPEN_DISPUTES_PER_SEAT + 2,
        "ruled": 1,
    }
    assert client.get(f"/matches/{table.id}/verify").get_json()["ok"]
    assert client.get(f"/matches/{table.id}/replay").get_json()["agrees"]


def test_a_retry_with_its_idempotency_key_answers_the_first_dispute_even_at_the_cap(client):
    table = HttpMatch(client)

    def keyed(key: str) -> Any:
        headers = {**bearer(table.seats[0]), "Idempotency-Key": key}
        body = {"cites": [1], "text": f"filed with {key}"}
        return client.post(f"/matches/{table.id}/disputes", json=body, headers=headers)

    first = keyed("first")
    assert first.status_code == 201
    filed_by(client, table, table.seats[0], MAX_OPEN_DISPUTES_PER_SEAT - 1)  # at the cap
    again = keyed("first")
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert_error(keyed("second"), 409, "too_many_open_disputes")
    assert client.get(f"/matches/{table.id}").get_json()["disputes"]["open"] == (
        MAX_OPEN_DISPUTES_PER_SEAT
    )
