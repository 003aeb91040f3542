"""GET /matches/{id}/archive (docs/archive.md): a finished match's archive to anyone, an
unfinished one's to its referee only (a recorded look); a match imported from an archive
answers every write with 409 match_imported, and every read as any match."""

from __future__ import annotations

import pytest

from service.matches import Matches
from service.settings import Settings
from tests.api.conftest import OPERATOR, HttpMatch, assert_error, bearer


def finished_match(client) -> HttpMatch:
    table = HttpMatch(client, "district_war", config={"troops": 2})
    for seat, order in [(2, "first 1"), (1, "e4"), (2, "b4"), (1, "g4"), (2, "g1")]:
        assert table.order(seat, order).status_code == 201
    return table


def test_a_finished_match_is_archived_for_anyone_in_its_public_form(client):
    table = finished_match(client)
    response = client.get(f"/matches/{table.id}/archive")
    assert response.status_code == 200 and response.mimetype == "application/json"
    archive = response.get_json()
    events = client.get(f"/matches/{table.id}/events").get_json()["items"]
    assert archive["events"] == events
    assert {k: archive[k] for k in ("format", "format_version", "match_id", "form")} == {
        "format": "drts-match-archive",
        "format_version": 1,
        "match_id": table.id,
        "form": "public",
    }
    assert archive["head"] == {"version": events[-1]["version"], "chain": events[-1]["chain"]}
    assert archive == client.get(
        f"/matches/{table.id}/archive", headers=bearer(table.seats[0])
    ).get_json() | {"exported_at": archive["exported_at"]}


def test_an_unfinished_match_is_archived_only_for_its_referee(client):
    table = HttpMatch(client, "district_war", config={"troops": 2})
    url = f"/matches/{table.id}/archive"
    assert_error(client.get(url), 401, "missing_token")
    assert_error(client.get(url, headers=bearer("guess")), 401, "invalid_token")
    assert_error(client.get(url, headers=bearer(table.seats[0])), 403, "not_referee")
    for token, viewer in ((table.referee, "referee"), (OPERATOR, "operator")):
        archive = client.get(url, headers=bearer(token)).get_json()
        assert archive["form"] == "full" and archive["events"][0]["sealed"]["seed"]
        assert archive["events"][-1]["data"] == {
            "viewer": viewer,
            "what": "match archive with sealed values",
        }


def test_no_archive_of_a_match_that_does_not_exist(client):
    url = "/matches/00000000-0000-4000-8000-000000000000/archive"
    assert_error(client.get(url), 404, "match_not_found")


@pytest.fixture
def imported(client, service, tmp_path) -> HttpMatch:
    """A District War match started elsewhere and imported into the API's store."""
    elsewhere = Matches(env=Settings(f"sqlite:///{tmp_path}/elsewhere.sqlite").event_store_env())
    try:
        new = elsewhere.create_match("district_war", {"troops": 2})
        seats = [elsewhere.join(new.match_id, name).token for name in ("ada", "bo")]
        elsewhere.start(new.match_id, new.referee_token)
        service.import_archive(elsewhere.export_archive(new.match_id, new.referee_token))
    finally:
        elsewhere.close()
    table = HttpMatch.__new__(HttpMatch)  # the match, without creating one over HTTP
    table.client, table.id, table.seats = client, str(new.match_id), seats
    table.referee = str(new.referee_token)
    return table


def test_an_imported_match_answers_writes_with_409_match_imported(client, imported):
    base = f"/matches/{imported.id}"
    referee = bearer(imported.referee)
    assert_error(imported.order(2, "first 1"), 409, "match_imported")
    assert_error(
        client.post(f"{base}/deadline", json={"seconds": 60}, headers=referee),
        409,
        "match_imported",
    )
    assert_error(client.post(f"{base}/seats", json={"name": "cy"}), 409, "match_imported")
    assert_error(client.post(f"{base}/seats/1/token", headers=referee), 409, "match_imported")
    summary = client.get(base).get_json()
    assert summary["status"] == "started" and client.get(f"{base}/verify").get_json()["ok"]
    listed = client.get("/matches").get_json()["items"]
    assert [item["match_id"] for item in listed] == [imported.id]
