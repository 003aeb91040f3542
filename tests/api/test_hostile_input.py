"""The findings of issue 15 as regression tests through HTTP, on SQLite and PostgreSQL:
input anyone can send gets a 4xx in the one error shape naming what is wrong, and never
breaks the service for others: afterwards the match list and the standings still answer
200, and another match's deadline still resolves (`resolve_due`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.app import create_app
from service import limits
from service.channels.forum.desk import posts_of
from service.clock import ManualClock
from service.matches import Matches
from service.settings import Settings
from tests.api.conftest import OPERATOR, HttpMatch, assert_error, bearer

pytestmark = pytest.mark.usefixtures("toy_rulesets")

DEEP_ARRAY = "[" * 1000 + "]" * 1000


@pytest.fixture
def service(database_url: str, clock: ManualClock, toy_rulesets: None) -> Iterator[Matches]:
    """The app's Matches application on SQLite or PostgreSQL, with the hand-driven clock."""
    app = Matches(
        env=Settings(database_url).event_store_env(), clock=clock, operator_token=OPERATOR
    )
    yield app
    app.close()


@pytest.fixture
def client(service: Matches) -> FlaskClient:
    return create_app({"TESTING": True}, matches=service).test_client()


@pytest.fixture
def bystander(client: FlaskClient) -> HttpMatch:
    """Another match, started, whose movement waits for its deadline."""
    return HttpMatch(client, config={"close_early": False})


def still_serving(
    client: FlaskClient, service: Matches, clock: ManualClock, other: HttpMatch
) -> None:
    """Asserts that the service still works for others: listings answer, and the other
    match's deadline resolves."""
    assert client.get("/matches").status_code == 200
    assert client.get("/standings").status_code == 200
    deadline = service.get_match(other.id).deadline
    assert deadline is not None
    clock.reach(deadline)
    assert str(other.id) in {str(closing.match_id) for closing in service.resolve_due()}
    listed = {item["match_id"]: item for item in client.get("/matches").get_json()["items"]}
    assert listed[other.id]["movement"] == 2


def field_error(response: Any, field: str) -> str:
    """Asserts a 422 validation_error naming the body field; returns its message."""
    body = assert_error(response, 422, "validation_error")
    return " ".join(body["details"]["fields"]["json"][field])


def test_a_name_with_a_nul_byte_is_refused(client, service, clock, bystander):
    """Finding: a NUL byte in a seat name was accepted, then broke the match list and the
    standings for everyone on PostgreSQL."""
    table = HttpMatch(client, start=False, names=())
    response = client.post(f"/matches/{table.id}/seats", json={"name": "a\x00b"})
    assert "U+0000" in field_error(response, "name")
    assert "printable" in field_error(response, "name")  # the allowed range is named
    still_serving(client, service, clock, bystander)


@pytest.mark.parametrize("name", ["\ud800", "bad\udfffname"])
def test_a_name_with_a_lone_surrogate_is_refused(client, service, clock, bystander, name):
    """Finding: a lone surrogate in a name raised UnicodeEncodeError (a 500)."""
    table = HttpMatch(client, start=False, names=())
    assert "lone surrogate" in field_error(
        client.post(f"/matches/{table.id}/seats", json={"name": name}), "name"
    )
    still_serving(client, service, clock, bystander)


def test_names_are_stored_in_nfc(client):
    table = HttpMatch(client, start=False, names=())
    joined = client.post(f"/matches/{table.id}/seats", json={"name": "Zoe\u0308"})
    assert joined.status_code == 201
    assert client.get(f"/matches/{table.id}").get_json()["seats"][0]["name"] == "Zo\u00eb"
    again = client.post(f"/matches/{table.id}/seats", json={"name": "Zo\u00eb"})
    assert_error(again, 409, "seat_taken")  # the same player, however it was typed


@pytest.mark.parametrize("movement", [2**31 - 1, limits.MAX_MOVEMENT + 1])
def test_a_match_cannot_start_beyond_the_largest_movement(
    client, service, clock, bystander, movement
):
    """Finding: a match started at movement 2147483647 overflowed an INTEGER column after
    one order, and the match list and the sweep failed for the whole deployment."""
    table = HttpMatch(client, start=False)
    response = client.post(
        f"/matches/{table.id}/start", json={"movement": movement}, headers=bearer(table.referee)
    )
    assert f"less than or equal to {limits.MAX_MOVEMENT}" in field_error(response, "movement")
    still_serving(client, service, clock, bystander)


def test_a_match_at_the_largest_movement_plays_on(client, service, clock, bystander):
    table = HttpMatch(client, start=False, config={"rounds": 2})
    response = client.post(
        f"/matches/{table.id}/start",
        json={"movement": limits.MAX_MOVEMENT},
        headers=bearer(table.referee),
    )
    assert response.status_code == 200
    assert table.order(1, "1").status_code == 201
    assert table.order(2, "2").get_json()["closing"]["resolved"] is True
    listed = {i["match_id"]: i for i in client.get("/matches").get_json()["items"]}
    assert listed[table.id]["movement"] == limits.MAX_MOVEMENT + 1
    assert service.read_models.quarantined() == []
    still_serving(client, service, clock, bystander)


@pytest.mark.parametrize("field", ["placement_seconds", "extension_seconds"])
def test_district_war_durations_are_bounded(client, service, clock, bystander, field):
    """Finding: District War's placement_seconds and extension_seconds had no upper bound;
    10^12 made the start a 500."""
    response = client.post("/matches", json={"ruleset": "district_war", "config": {field: 10**12}})
    error = assert_error(response, 422, "invalid_config")
    assert f"'{field}' must be an integer from 1 to {limits.MAX_SECONDS}" in error["message"]
    still_serving(client, service, clock, bystander)


def test_a_district_war_match_at_the_longest_durations_starts(client):
    config = {"placement_seconds": limits.MAX_SECONDS, "extension_seconds": limits.MAX_SECONDS}
    table = HttpMatch(client, "district_war", config=config, start=False)
    started = client.post(f"/matches/{table.id}/start", headers=bearer(table.referee))
    assert started.status_code == 200, started.get_json()


def test_a_body_nested_1000_levels_is_refused(client, service, clock, bystander):
    """Finding: JSON nested 1,000 levels deep raised RecursionError (a 500)."""
    body = '{"ruleset": "toy", "config": {"rounds": ' + DEEP_ARRAY + "}}"
    response = client.post("/matches", data=body, content_type="application/json")
    error = assert_error(response, 422, "validation_error")
    assert "deeper than 32 levels" in error["details"]["fields"]["json"]["_schema"][0]
    table = HttpMatch(client)
    order = '{"order": {"pick": ' + DEEP_ARRAY + "}}"
    response = client.post(
        f"/matches/{table.id}/orders",
        data=order,
        content_type="application/json",
        headers=bearer(table.seats[0]),
    )
    assert_error(response, 422, "validation_error")
    still_serving(client, service, clock, bystander)


@pytest.mark.parametrize("ruleset", ["toy", "district_war", "drts_team23"])
def test_a_json_form_order_sent_as_text_nested_1000_levels_is_refused(
    client, service, clock, bystander, ruleset
):
    """Finding: an order given as a JSON string nested 1,000 levels deep raised
    RecursionError (a 500)."""
    table = HttpMatch(
        client,
        ruleset,
        names=("p1", "p2") if ruleset != "drts_team23" else tuple(f"p{n}" for n in range(1, 9)),
    )
    seat = 2 if ruleset == "district_war" else 1  # District War: the DMO chooses first
    response = table.order(seat, '{"op": ' + DEEP_ARRAY + "}")
    assert "deeper than 32 levels" in field_error(response, "order")
    response = table.order(seat, "x" * (limits.MAX_ORDER_CHARS + 1))
    assert f"at most {limits.MAX_ORDER_CHARS} characters" in field_error(response, "order")
    still_serving(client, service, clock, bystander)


@pytest.mark.parametrize(
    "path,body,field",
    [
        ("/matches", {"ruleset": "toy", "seats": "2"}, "seats"),
        ("/matches", {"ruleset": "toy", "seats": 2.5}, "seats"),
        ("/matches", {"ruleset": "toy", "seats": True}, "seats"),
        ("/matches", {"ruleset": "toy", "deadline_seconds": "60"}, "deadline_seconds"),
        ("{match}/deadline", {"seconds": 1.5}, "seconds"),
        ("{match}/deadline", {"seconds": "60"}, "seconds"),
        ("{match}/deadline", {"seconds": 60, "movement": "1"}, "movement"),
        ("{match}/orders", {"order": "1", "movement": 1.5}, "movement"),
        ("{match}/orders", {"order": "1", "movement": False}, "movement"),
    ],
)
def test_integers_in_a_body_are_strict(client, service, clock, bystander, path, body, field):
    """Finding: integer fields accepted "1" and 1.5 though bodies are parsed strictly."""
    table = HttpMatch(client)
    token = table.seats[0] if path.endswith("orders") else table.referee
    response = client.post(
        path.format(match=f"/matches/{table.id}"), json=body, headers=bearer(token)
    )
    assert field_error(response, field)
    still_serving(client, service, clock, bystander)


def test_an_integer_without_a_fraction_is_an_integer(client):
    """JSON Schema, and so the OpenAPI document, counts 2.0 as an integer."""
    assert client.post("/matches", json={"ruleset": "toy", "seats": 2.0}).status_code == 201


@pytest.mark.parametrize(
    "query",
    [
        "/matches/{id}/state?movement=1.5",
        "/matches/{id}/state?movement=+1",
        "/matches/{id}/state?movement=%201",
        "/matches/{id}/state?movement=1_0",
        "/matches/{id}/state?movement=%D9%A1",  # ARABIC-INDIC DIGIT ONE
        "/matches/{id}/state?seat=-1",
        "/matches/{id}/scores?movement=1e3",
        "/matches/{id}/events?after=-1",
        "/matches/{id}/events?wait=1e9",
        "/matches/{id}/events?wait=0.5",
        "/matches/{id}/events?limit=0x10",
        "/matches/{id}/events?after=99999999999999999999",
        "/matches?limit=1.0",
        "/standings?limit=nan",
    ],
)
def test_integers_in_a_query_string_are_digits_only(client, service, clock, bystander, query):
    table = HttpMatch(client)
    response = client.get(query.format(id=table.id))
    body = assert_error(response, 422, "validation_error")
    assert body["details"]["fields"]["query"]
    still_serving(client, service, clock, bystander)


@pytest.mark.parametrize(
    "body,status,code",
    [
        ('{"ruleset": "toy", "seats": 1' + "0" * 5000 + "}", 422, "validation_error"),
        ('{"ruleset": "toy", "config": {"rounds": 1e400}}', 400, "malformed_json"),
        ('{"ruleset": "toy", "config": {"\\ud800": 1}}', 422, "validation_error"),
        ('{"ruleset": "toy", "config": {"rounds": 9007199254740993}}', 422, "validation_error"),
    ],
)
def test_numbers_and_text_a_json_reader_cannot_keep_are_refused(
    client, service, clock, bystander, body, status, code
):
    response = client.post("/matches", data=body, content_type="application/json")
    assert_error(response, status, code)
    still_serving(client, service, clock, bystander)


def test_an_order_with_a_lone_surrogate_or_a_nul_is_refused(client, service, clock, bystander):
    table = HttpMatch(client)
    assert "lone surrogate" in field_error(table.order(1, "1\ud800"), "order")
    assert "U+0000" in field_error(table.order(1, "1\x00"), "order")
    assert "lone surrogate" in field_error(table.order(1, {"pick": "\udc00"}), "order")
    still_serving(client, service, clock, bystander)


@pytest.mark.parametrize("path", ["/matches?ruleset=%00", "/standings?ruleset=a%00b"])
def test_a_listing_filter_with_a_nul_byte_is_refused(client, service, clock, bystander, path):
    """Found by tests/api/test_hostile_battery.py: PostgreSQL refused the NUL byte in the
    query (a 500) where SQLite found nothing."""
    body = assert_error(client.get(path), 422, "validation_error")
    assert "ruleset" in body["details"]["fields"]["query"]
    with pytest.raises(limits.LimitError, match="ruleset: got 'a\\\\x00b'"):
        service.standings(ruleset="a\x00b")
    with pytest.raises(limits.LimitError, match="status: got 'x'"):
        service.list_matches(status="x")
    still_serving(client, service, clock, bystander)


def test_a_retry_naming_an_unknown_ruleset_is_refused_though_its_key_is_known(client):
    """Found by schemathesis through gunicorn: with a known Idempotency-Key, a body naming a
    ruleset that does not exist answered 200 with the first match."""
    key = {"Idempotency-Key": "retry-1"}
    assert client.post("/matches", json={"ruleset": "toy"}, headers=key).status_code == 201
    assert client.post("/matches", json={"ruleset": "toy"}, headers=key).status_code == 200
    refused = client.post("/matches", json={"ruleset": "chess"}, headers=key)
    assert_error(refused, 422, "unknown_ruleset")


@pytest.mark.parametrize("field", ["author", "post_id", "body", "identity"])
@pytest.mark.parametrize("char", ["\x00", "\x01", "\x7f", "\x9b"])
def test_a_forum_post_with_a_control_character_is_refused_on_both_stores(
    client, service, clock, bystander, field, char
):
    """Finding (issue 41): a NUL in a post's author or post id answered 500 on PostgreSQL
    (psycopg.DataError) while SQLite stored it. Now both refuse it, naming the field, and
    store nothing (service/limits.py: no control character in stored text; tab and line
    breaks only in a post's body)."""
    table = HttpMatch(client)
    post = {"author": "alice", "post_id": "p-1", "body": "1", field: f"a{char}b"}
    response = client.post(f"/matches/{table.id}/posts", json=post, headers=bearer(OPERATOR))
    assert f"U+{ord(char):04X}" in field_error(response, field)
    assert posts_of(service, table.id) == []
    still_serving(client, service, clock, bystander)


def test_a_forum_post_body_may_hold_tabs_and_line_breaks(client, service):
    table = HttpMatch(client)
    post = {"author": "alice", "post_id": "p-1", "body": "1\r\n\tcode: none"}
    response = client.post(f"/matches/{table.id}/posts", json=post, headers=bearer(OPERATOR))
    assert response.status_code == 201, response.get_json()
    assert [row["body"] for row in posts_of(service, table.id)] == [post["body"]]


@pytest.mark.parametrize("field", ["author", "post_id"])
def test_a_forum_posts_one_line_fields_refuse_line_breaks(client, service, field):
    table = HttpMatch(client)
    post = {"author": "alice", "post_id": "p-1", "body": "1", field: "a\nb"}
    response = client.post(f"/matches/{table.id}/posts", json=post, headers=bearer(OPERATOR))
    assert "U+000A" in field_error(response, field)
    assert posts_of(service, table.id) == []


@pytest.mark.parametrize(
    "path,body,field",
    [
        ("{match}/actions", {"action": "pause", "reason": "late\x00"}, "reason"),
        ("{match}/actions", {"action": "forfeit", "args": {"seat": "\x00"}, "reason": "r"}, "args"),
        ("{match}/deadline", {"seconds": 60, "reason": "r\x1b[2J"}, "reason"),
        ("{match}/seats/1/token", {"reason": "\x00"}, "reason"),
        ("{match}/disputes", {"text": "wrong\x00"}, "text"),
    ],
)
def test_a_referees_text_with_a_control_character_is_refused(
    client, service, clock, bystander, path, body, field
):
    """Found while looking for issue 41's fault in other edges: a referee's reason with a
    NUL or an escape sequence was recorded, for every view and mail to show."""
    table = HttpMatch(client)
    token = table.seats[0] if path.endswith("disputes") else table.referee
    url = path.format(match=f"/matches/{table.id}")
    response = client.post(url, json=body, headers=bearer(token))
    assert field_error(response, field)
    still_serving(client, service, clock, bystander)
