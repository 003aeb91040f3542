"""While a simultaneous movement is open, no endpoint shows a seat's order to anyone but that
seat; the referee (and the operator) see everything, and each such look is an event.

Every endpoint is probed with every kind of token: none, a wrong one, the sender's, another
seat's, the referee's and the operator's.
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from types import SimpleNamespace
from typing import Any
from uuid import UUID

import pytest

from service.tournaments import Tournaments
from tests.api.conftest import OPERATOR, HttpMatch, HttpTournament, bearer
from tests.support.pages import sign_in

ALICE_ORDER = {"pick": 3}
PROBES: list[tuple[str, str, Any]] = [
    ("get", "/rulesets", None),
    ("get", "/rulesets/toy", None),
    ("get", "/rulesets/toy?version=1", None),
    ("get", "/matches", None),
    ("get", "/matches/{id}", None),
    ("get", "/matches/{id}/state", None),
    ("get", "/matches/{id}/state?movement=1", None),
    ("get", "/matches/{id}/state?seat=1", None),
    ("get", "/matches/{id}/state?movement=1&phase=0", None),  # open: no phases yet
    ("get", "/matches/{id}/state?phase=1", None),
    ("get", "/matches/{id}/scores", None),
    ("get", "/matches/{id}/display", None),
    ("get", "/matches/{id}/display?movement=1", None),
    ("get", "/matches/{id}/events", None),
    ("get", "/matches/{id}/events?after=6&wait=1", None),
    ("get", "/matches/{id}/events?seat=1", None),  # issue 17: filters show nothing more
    ("get", "/matches/{id}/events?type=OrderSubmitted,MovementClosed&movement=1", None),
    ("get", "/matches/{id}/events?type=OrderSubmitted&seat=2&after=3&limit=1", None),
    ("get", "/matches/{id}/stream", None),  # issue 47: the public stream, from the start
    ("get", "/matches/{id}/stream?after=6", None),
    # the pages' own streams: the live part (public); a seat's and the referee's need
    # their page's session, which no bearer token opens (401)
    ("get", "/ui/matches/{id}/live/stream", None),
    ("get", "/ui/matches/{id}/seat/stream", None),
    ("get", "/ui/matches/{id}/referee/stream", None),
    ("get", "/matches/{id}/scoreboard", None),
    ("get", "/matches/{id}/replay", None),
    ("get", "/matches/{id}/audit", None),  # the referee's look is recorded
    ("get", "/matches/{id}/verify", None),
    ("post", "/matches/{id}/verify", {"heads": [{"version": 1, "chain": "0" * 64}]}),
    ("get", "/matches/{id}/archive", None),  # unfinished: the referee's only (docs/archive.md)
    ("get", "/matches/{id}/orders", None),
    # issue 48: a seat's legal orders, to that seat or the referee (another seat: 403)
    ("get", "/matches/{id}/legal-orders?seat=1", None),
    ("get", "/matches/{id}/seed", None),
    ("get", "/matches/{id}/movements/1", None),  # open: no record yet (404)
    ("get", "/matches/{id}/receipts/" + "0" * 64, None),  # no such receipt (404)
    ("get", "/matches/{id}/protocol", None),  # the toy has no bot protocol: 404
    ("get", "/matches/{id}/protocol?seat=1&message=init", None),
    ("post", "/matches/{id}/start", None),
    ("post", "/matches/{id}/seats", {"name": "dave"}),
    ("post", "/matches/{id}/seats/3/token", None),
    ("put", "/matches/{id}/seats/result-address", {"address": "probe@example.org"}),
    ("post", "/matches/{id}/seats/result-address/confirm", {"code": "a" * 32}),
    ("put", "/matches/{id}/referee/result-address", {"address": "probe@example.org"}),
    ("post", "/matches/{id}/referee/result-address/confirm", {"code": "a" * 32}),
    ("post", "/matches/{id}/orders", {"order": "9"}),  # illegal: refused, nothing replaced
    ("post", "/matches/{id}/deadline", {"seconds": 60}),
    ("post", "/matches/{id}/actions", {"action": "grant", "args": {}, "reason": "probe"}),
    ("post", "/matches/{id}/retry", None),  # not quarantined: 409 to the referee
    # issue 45: players and ratings hold no match's secrets
    ("post", "/players", {"name": "probe"}),
    ("get", "/players/probe", None),
    ("post", "/players/probe/key", None),
    ("post", "/players/probe/address", {"address": "probe@example.org"}),
    ("post", "/players/probe/address/confirm", {"code": "a" * 32}),
    ("get", "/players/probe/ratings", None),
    ("get", "/ratings?ruleset=toy", None),
    ("post", "/tournaments", {"name": "probe", "format": "round_robin", "ruleset": "toy"}),
    ("get", "/tournaments/{id}", None),  # no tournament of a match's id: 404
    ("post", "/tournaments/{id}/players", {"player": "probe"}),
    # the organiser's acts (no tournament of a match's id: 404 to every token)
    ("post", "/tournaments/{id}/players/probe/withdrawal", {"reason": "probe"}),
    ("post", "/tournaments/{id}/pause", {"reason": "probe"}),
    ("post", "/tournaments/{id}/resume", None),
    ("post", "/tournaments/{id}/pair", None),
    ("post", "/tournaments/{id}/seat", {"player": "probe"}),  # a player's key only
    ("get", "/tournaments/{id}/archive", None),
    ("get", "/tournaments/{id}/standings", None),
    ("get", "/tournaments/{id}/verify", None),
    # the pages of tournaments and players (issue 45): no match's secrets either
    ("get", "/ui/tournaments", None),
    ("get", "/ui/tournaments/{id}", None),  # no tournament of a match's id: the 404 page
    ("get", "/ui/players/probe", None),
    # issue 18: another seat may not cite alice's open order (version 7); the referee may,
    # and the dispute shows the cited event in its public form only
    ("post", "/matches/{id}/disputes", {"cites": [1, 7], "text": "probe"}),
    ("get", "/matches/{id}/disputes", None),
    ("get", "/matches/{id}/disputes/1", None),
    ("post", "/matches/{id}/disputes/1/ruling", {"ruling": "dismissed", "reason": "probe"}),
    # issue 19: movement 1 is open, so no correction of it (409 to the referee)
    (
        "post",
        "/matches/{id}/corrections",
        {"movement": 1, "changes": [{"seat": 1, "order": "2"}], "reason": "probe"},
    ),
    ("get", "/matches/{id}/corrections", None),
    # issue 27: forum posts (the operator's only; an unmapped author is refused, stored
    # nowhere in the log), the posts to make, the mapping, a seat's one-time code
    ("post", "/matches/{id}/posts", {"author": "probe-author", "post_id": "p1", "body": "2"}),
    ("get", "/matches/{id}/posts/outgoing", None),
    ("post", "/matches/{id}/forum-users", {"user": "probe-user", "seat": 3}),
    ("get", "/matches/{id}/forum-users", None),
    ("post", "/matches/{id}/seats/forum-code", None),
    ("get", "/matches/{id}/replay?timeline=1", None),
    ("post", "/matches", {"ruleset": "toy"}),
    ("get", "/standings", None),
    ("get", "/health", None),
]


@pytest.fixture
def open_movement(client, service):
    """A three-seat toy match where seats 1 and 2 have ordered and seat 3 has not."""
    table = HttpMatch(client, names=("alice", "bob", "carol"))
    assert table.order(1, ALICE_ORDER).status_code == 201
    assert table.order(2, "1").status_code == 201
    salt = service.get_match(table.id).pending[0].salt
    return table, salt


def responses(client, table: HttpMatch, token: str | None) -> list[tuple[str, int, str, Any]]:
    """Returns (method and url, status, text, JSON) of every probe with this token."""
    out = []
    for method, path, body in PROBES:
        url = path.format(id=table.id)
        response = getattr(client, method)(url, json=body, headers=bearer(token))
        out.append(
            (
                f"{method.upper()} {url}",
                response.status_code,
                response.get_data(as_text=True),
                response.get_json(),
            )
        )
    return out


def shows(value: Any, order: dict[str, Any]) -> bool:
    """Returns whether a JSON value holds the order anywhere."""
    if value == order:
        return True
    if isinstance(value, dict):
        return any(shows(v, order) for v in value.values())
    if isinstance(value, list):
        return any(shows(v, order) for v in value)
    return False


def secret_looks(client, table: HttpMatch) -> list[dict[str, Any]]:
    items = client.get(f"/matches/{table.id}/events").get_json()["items"]
    return [item["data"] for item in items if item["type"] == "SecretViewed"]


@pytest.mark.parametrize("who", ["anyone", "a wrong token", "another seat"])
def test_no_endpoint_shows_an_open_order_to_anyone_but_its_seat(client, open_movement, who):
    table, salt = open_movement
    token = {"anyone": None, "a wrong token": "guess", "another seat": table.seats[1]}[who]
    seen = responses(client, table, token)
    for url, status, text, body in seen:
        assert status < 500 or (url, status) == ("GET /health", 503), (url, text)  # no sweep
        assert salt not in text, url
        assert not shows(body, ALICE_ORDER), url
    filed = next(status for url, status, _, _ in seen if url.endswith("/disputes"))
    assert filed == {"anyone": 401, "a wrong token": 401, "another seat": 403}[who]
    assert secret_looks(client, table) == []
    assert client.get(f"/matches/{table.id}").get_json()["movement"] == 1  # still open


def test_the_seat_that_ordered_sees_its_own_order(client, open_movement):
    table, _ = open_movement
    seen = {url: body for url, _, _, body in responses(client, table, table.seats[0])}
    own = seen[f"GET /matches/{table.id}/orders"]["items"]
    assert [(o["seat"], o["order"]) for o in own] == [(1, ALICE_ORDER)]
    events = seen[f"GET /matches/{table.id}/events"]["items"]
    assert [e["sealed"]["order"] for e in events if "sealed" in e] == [ALICE_ORDER]
    assert not shows(seen[f"GET /matches/{table.id}/orders"], {"pick": 1})  # not bob's
    state = seen[f"GET /matches/{table.id}/state"]  # the board with its own pending orders
    assert [(o["seat"], o["order"]) for o in state["orders"]] == [(1, ALICE_ORDER)]
    assert secret_looks(client, table) == []


@pytest.mark.parametrize("viewer", ["referee", "operator"])
def test_the_referee_and_the_operator_see_everything_and_each_look_is_recorded(
    client, open_movement, viewer
):
    table, salt = open_movement
    token = table.referee if viewer == "referee" else OPERATOR
    seen = {url: body for url, _, _, body in responses(client, table, token)}
    orders = seen[f"GET /matches/{table.id}/orders"]["items"]
    assert [(o["seat"], o["order"]) for o in orders] == [(1, ALICE_ORDER), (2, {"pick": 1})]
    events = seen[f"GET /matches/{table.id}/events"]["items"]
    assert next(e["sealed"]["salt"] for e in events if e["type"] == "OrderSubmitted") == salt
    assert seen[f"GET /matches/{table.id}/seed"]["seed"]
    assert seen[f"GET /matches/{table.id}/state?seat=1"]["orders"] == []  # only /orders, recorded
    looks = secret_looks(client, table)
    assert {look["what"] for look in looks} == {
        "open orders",
        "event log with sealed values",
        "match archive with sealed values",
        "seed",
        "audit",
    }
    archive = seen[f"GET /matches/{table.id}/archive"]
    assert archive["form"] == "full" and shows(archive["events"], ALICE_ORDER)
    assert {look["viewer"] for look in looks} == {viewer}


def test_orders_are_shown_to_everyone_once_the_movement_closes(client, open_movement):
    table, salt = open_movement
    table.order(3, "2")
    events = client.get(f"/matches/{table.id}/events").get_json()["items"]
    revealed = [e["sealed"] for e in events if e["type"] == "OrderSubmitted"]
    assert revealed[0] == {"order": ALICE_ORDER, "sent": ALICE_ORDER, "salt": salt}
    closed = next(e for e in events if e["type"] == "MovementClosed")
    assert closed["data"]["orders"][0]["order"] == ALICE_ORDER
    assert secret_looks(client, table) == []


def test_the_probes_cover_every_operation_of_the_document(client):
    spec = client.get("/openapi.json").get_json()
    documented = {
        (
            method,
            path.replace("{match_id}", "{id}")
            .replace("{seat}", "3")
            .replace("{name}", "toy")
            .replace("{movement}", "1")
            .replace("{number}", "1")
            .replace("{digest}", "0" * 64)
            .replace("{player}", "probe")
            .replace("{tournament}", "{id}"),
        )
        for path, operations in spec["paths"].items()
        for method in operations
        if method in ("get", "post", "put", "delete")
    }
    probed = {(method, path.split("?")[0]) for method, path, _ in PROBES}
    assert documented <= probed, documented - probed


REFUSED = "seventy-seven"  # what alice sends and the movement refuses: quoted in the reason


@pytest.fixture
def refused(client, open_movement):
    """The open movement of `open_movement`, where alice's second order was refused."""
    table, _ = open_movement
    response = table.order(1, REFUSED)
    assert response.status_code == 422
    assert REFUSED in response.get_json()["message"]  # the sender gets the full reason
    return table, response.get_json()["message"]


def refusals(client, table: HttpMatch, token: str | None = None) -> list[dict[str, Any]]:
    items = client.get(f"/matches/{table.id}/events", headers=bearer(token)).get_json()["items"]
    return [item for item in items if item["type"] == "OrderRejected"]


@pytest.mark.parametrize("who", ["anyone", "a wrong token", "another seat"])
def test_a_refused_order_is_sealed_while_its_movement_is_open(client, refused, who):
    table, reason = refused
    token = {"anyone": None, "a wrong token": "guess", "another seat": table.seats[1]}[who]
    for url, status, text, _ in responses(client, table, token):
        assert status < 500 or (url, status) == ("GET /health", 503), (url, text)  # no sweep
        assert REFUSED not in text and reason not in text, url
    [public] = [r for r in refusals(client, table) if r["data"]["seat"] == 1]
    assert "sealed" not in public
    assert public["data"]["error"] == "invalid_order" and public["data"]["reason"] == ""
    assert public["data"]["received_at"] and public["data"]["digest"]


def test_the_seat_that_was_refused_sees_its_refusal_in_the_log(client, refused):
    table, reason = refused
    [own] = refusals(client, table, table.seats[0])
    assert own["sealed"]["order"] == REFUSED and own["sealed"]["reason"] == reason


def test_a_refused_order_is_shown_to_everyone_once_its_movement_resolves(client, refused):
    table, reason = refused
    assert table.order(3, "2").status_code == 201  # the last seat: the movement resolves
    [public] = [r for r in refusals(client, table) if r["data"]["seat"] == 1]
    assert public["sealed"]["order"] == REFUSED and public["sealed"]["reason"] == reason
    assert client.get(f"/matches/{table.id}/verify").get_json()["broken"] is None


def test_a_refusal_aimed_at_a_closed_movement_is_public_at_once(client, open_movement):
    table, _ = open_movement
    assert table.order(3, "2").status_code == 201  # movement 1 resolves
    late = table.order(2, "3", movement=1)
    assert late.status_code == 409
    [public] = [r for r in refusals(client, table) if r["data"]["movement"] == 1]
    assert public["data"]["error"] == "movement_closed"
    assert public["sealed"]["order"] == "3"
    assert "movement 1" in public["sealed"]["reason"]
    assert client.get(f"/matches/{table.id}/verify").get_json()["broken"] is None


def stream_entries(client, table: HttpMatch, token: str | None = None) -> list[Any]:
    """Returns the entries the public stream sends from the start (read for as long as the
    app's streams last), with `token` sent (the stream reads none)."""
    text = client.get(f"/matches/{table.id}/stream", headers=bearer(token)).get_data(True)
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


@pytest.mark.parametrize("who", ["anyone", "the seat that ordered", "the referee"])
def test_the_public_stream_carries_only_the_public_feed_while_a_movement_is_open(
    client, open_movement, who
):
    """Issue 47: the stream sends the entries the events feed shows to anyone, whatever
    token comes with it: no seat's open order, no salt, and no look at a secret recorded."""
    table, salt = open_movement
    token = {"anyone": None, "the seat that ordered": table.seats[0], "the referee": table.referee}
    entries = stream_entries(client, table, token[who])
    public = client.get(f"/matches/{table.id}/events").get_json()["items"]
    assert entries == public and len(entries) == public[-1]["version"]
    assert not shows(entries, ALICE_ORDER) and salt not in json.dumps(entries)
    assert not any("sealed" in entry for entry in entries)
    assert secret_looks(client, table) == []


def page_stream(client, table: HttpMatch, path: str, token: str) -> str:
    """Returns what a page's stream sends from the start to a session signed in with
    `token` (read for as long as the app's streams last)."""
    sign_in(client, SimpleNamespace(match_id=table.id), token)
    return client.get(f"/ui/matches/{table.id}/{path}/stream").get_data(True)


def test_a_seats_stream_carries_its_own_receipts_and_no_other_seats_order(client, open_movement):
    """Issue 47: bob's stream has bob's receipt, with his order, and not alice's (nor her
    salt); alice's has hers; neither is a look."""
    table, salt = open_movement
    bob = page_stream(client, table, "seat", table.seats[1])
    assert "event: receipt" in bob and '"seat":2' in bob and '"seat":1' not in bob
    assert salt not in bob and not shows(json.loads(receipt_of(bob)), ALICE_ORDER)
    alice = page_stream(client, table, "seat", table.seats[0])
    assert shows(json.loads(receipt_of(alice)), ALICE_ORDER)
    live = page_stream(client, table, "live", table.seats[1])
    assert salt not in live and "event: receipt" not in live
    assert secret_looks(client, table) == []


def test_the_referees_stream_is_one_recorded_look(client, open_movement):
    """Issue 47: the referee's stream shows counts, not orders, and its opening is one
    SecretViewed ("referee stream")."""
    table, salt = open_movement
    desk = page_stream(client, table, "referee", table.referee)
    assert '"open_orders":2' in desk and '"seats_ordered":[1,2]' in desk and salt not in desk
    assert [look["what"] for look in secret_looks(client, table)] == ["referee stream"]


def receipt_of(text: str) -> str:
    """Returns the data of the one receipt message in a stream's text."""
    (data,) = re.findall(r"event: receipt\nid: \d+\ndata: (.*)\n", text)
    return data


ORGANISER_ACTS = ["withdrawal:di", "pause", "resume", "pair"]


def test_the_organisers_acts_refuse_every_other_token_and_show_no_token(client, service):
    """The organiser's acts (issue 45) take only the organiser's token (or the
    operator's): none, a wrong one, a seat's of one of its matches, a player's key, a
    match referee's are refused and record nothing; no answer shows a token."""
    event = HttpTournament(client)
    assert event.act("pair").status_code == 200
    seat = Tournaments(service).seat_token(event.id, "ada", event.keys["ada"])["token"]
    others = {None: 401, "guess": 403, seat: 403, event.keys["ada"]: 403}
    others[HttpMatch(client).referee] = 403
    before = Tournaments(service).items(UUID(event.id))
    for act in ORGANISER_ACTS:
        for token, status in others.items():
            response = event.act(act, token=token)
            assert response.status_code == status, (act, response.get_json())
    assert Tournaments(service).items(UUID(event.id)) == before
    texts = [event.act(act).get_data(as_text=True) for act in ORGANISER_ACTS]
    texts.append(client.get(f"/tournaments/{event.id}").get_data(as_text=True))
    assert not any(event.token in text or seat in text for text in texts)


@pytest.fixture
def lettered(client, service, tmp_path):
    """A toy round robin whose round 1 is paired: alice has a confirmed address, so her
    seat's letter (its token, its order address) waits in the outbox (issue 45)."""
    alice = service.players.create("alice-letter")
    service.players.set_address(alice.name, alice.key, "alice-letter@example.org")
    (sent,) = (tmp_path / "outbox" / "new").iterdir()
    letter = email.message_from_bytes(sent.read_bytes(), policy=email.policy.default)
    (code,) = re.findall(r"\b[a-z2-7]{32}\b", letter.get_body().get_content())
    service.players.confirm_address(alice.name, alice.key, code)
    bob = service.players.create("bob-letter")
    tournaments = Tournaments(service)
    tid = tournaments.create("Letters", "round_robin", "toy").tournament_id
    for one in (alice, bob):
        tournaments.register(tid, one.name, one.key)
    tournaments.advance(tid)
    (match_id,) = tournaments.get(tid).rounds[0]["links"][0]
    (row,) = service.read_models.view("mail_outbox").query(
        "SELECT secret FROM {mail_notices} WHERE kind = 'seat'", {}
    )
    kept = {**json.loads(row["secret"]), "player_id": str(alice.player_id)}
    return tid, match_id, kept, "alice-letter@example.org"


def test_no_endpoint_shows_a_players_address_nor_the_token_mailed_to_it(client, lettered):
    tid, match_id, kept, address = lettered
    table = SimpleNamespace(id=match_id)  # the probes need only the match's id
    extra = [
        f"/tournaments/{tid}",
        f"/tournaments/{tid}/standings",
        f"/tournaments/{tid}/verify",
        f"/ui/tournaments/{tid}",
        "/ui/players/alice-letter",
        "/players/alice-letter",
        "/players/alice-letter/ratings",
        f"/ui/matches/{match_id}",
        f"/matches/{kept['player_id']}/events",  # the player's own log is served nowhere
        f"/matches/{kept['player_id']}/archive",
    ]
    texts = [text for _, _, text, _ in responses(client, table, None)]
    texts += [client.get(url).get_data(as_text=True) for url in extra]
    for text in texts:
        for secret in (address, "example.org", kept["token"], kept["order_secret"]):
            assert secret not in text
    assert client.get("/players/alice-letter").get_json().keys() == {"player_id", "name"}
