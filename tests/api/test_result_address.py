"""Mail addresses over HTTP (docs/mail.md, docs/api.md): the order address shown once with
the seat token and reissued with it; a result address registered at the join or later with
the seat token, confirmed with the code mailed to it (the test's maildir outbox)."""

from __future__ import annotations

import mailbox
from typing import Any

from flask.testing import FlaskClient

from service.matches import Matches
from tests.api.conftest import bearer


def codes_mailed(service: Matches) -> list[tuple[str, str]]:
    """(To, code) of every confirmation in the maildir outbox."""
    folder = mailbox.Maildir(service.outbox.path, create=True)  # type: ignore[attr-defined]
    return [
        (str(message["To"]), str(message["Reply-To"]).split("+")[1].split("@")[0])
        for message in folder
    ]


def new_match(client: FlaskClient) -> dict[str, Any]:
    response = client.post("/matches", json={"ruleset": "toy"})
    assert response.status_code == 201
    return dict(response.get_json())


def test_join_shows_the_order_address_once_and_a_reissue_gives_a_new_one(
    client: FlaskClient,
) -> None:
    match = new_match(client)
    joined = client.post(f"/matches/{match['match_id']}/seats", json={"name": "alice"})
    reissued = client.post(
        f"/matches/{match['match_id']}/seats/1/token", headers=bearer(match["referee_token"])
    )

    first, second = joined.get_json(), reissued.get_json()
    assert joined.status_code == 201 and reissued.status_code == 200
    assert first["order_address"].startswith("orders+")
    assert first["order_address"].endswith("@drts.localhost")
    assert second["order_address"] != first["order_address"]
    assert first["result_address"] is None
    summary = client.get(f"/matches/{match['match_id']}").get_data(as_text=True)
    assert first["order_address"] not in summary


def test_a_result_address_given_at_the_join_is_confirmed_with_the_mailed_code(
    client: FlaskClient, service: Matches
) -> None:
    match = new_match(client)
    joined = client.post(
        f"/matches/{match['match_id']}/seats",
        json={"name": "alice", "result_address": "alice@example.org"},
    ).get_json()
    [(to, code)] = codes_mailed(service)
    url = f"/matches/{match['match_id']}/seats/result-address/confirm"

    wrong = client.post(url, json={"code": "a" * 32}, headers=bearer(joined["token"]))
    right = client.post(url, json={"code": code}, headers=bearer(joined["token"]))

    assert (joined["result_address"], to) == ("alice@example.org", "alice@example.org")
    assert (wrong.status_code, wrong.get_json()["code"]) == (404, "unknown_confirmation_code")
    assert right.status_code == 200
    assert right.get_json() == {
        "match_id": match["match_id"],
        "result_address": "alice@example.org",
        "confirmed": True,
    }


def test_a_seat_registers_a_result_address_later_with_its_token(
    client: FlaskClient, service: Matches
) -> None:
    match = new_match(client)
    seat = client.post(f"/matches/{match['match_id']}/seats", json={"name": "bob"}).get_json()
    url = f"/matches/{match['match_id']}/seats/result-address"

    missing = client.put(url, json={"address": "bob@example.org"})
    bad = client.put(url, json={"address": "bob at home"}, headers=bearer(seat["token"]))
    own = client.put(url, json={"address": "bob@drts.localhost"}, headers=bearer(seat["token"]))
    good = client.put(url, json={"address": "bob@example.org"}, headers=bearer(seat["token"]))

    assert (missing.status_code, missing.get_json()["code"]) == (401, "missing_token")
    assert (bad.status_code, bad.get_json()["code"]) == (422, "validation_error")
    assert (own.status_code, own.get_json()["code"]) == (422, "invalid_result_address")
    assert good.status_code == 200
    assert good.get_json()["confirmed"] is False
    assert [to for to, _ in codes_mailed(service)] == ["bob@example.org"]


def test_the_referee_registers_and_confirms_its_result_address_a_seat_may_not(
    client: FlaskClient, service: Matches
) -> None:
    """The referee's address gets every result and dispute notice (docs/mail.md)."""
    match = new_match(client)
    seat = client.post(f"/matches/{match['match_id']}/seats", json={"name": "bob"}).get_json()
    url = f"/matches/{match['match_id']}/referee/result-address"
    referee = bearer(match["referee_token"])

    by_seat = client.put(url, json={"address": "bob@example.org"}, headers=bearer(seat["token"]))
    registered = client.put(url, json={"address": "ref@example.org"}, headers=referee)
    [(to, code)] = codes_mailed(service)
    wrong = client.post(f"{url}/confirm", json={"code": "a" * 32}, headers=referee)
    right = client.post(f"{url}/confirm", json={"code": code}, headers=referee)

    assert (by_seat.status_code, by_seat.get_json()["code"]) == (403, "not_referee")
    assert registered.get_json()["confirmed"] is False and to == "ref@example.org"
    assert (wrong.status_code, wrong.get_json()["code"]) == (404, "unknown_confirmation_code")
    assert right.get_json() == {
        "match_id": match["match_id"],
        "result_address": "ref@example.org",
        "confirmed": True,
    }
