"""GET /tournaments/{id}/archive (issue 45, docs/tournaments.md, Exporting a tournament):
a finished round robin's archive to anyone, the same document as the facade's, the
standalone verifier passing it; 404 tournament_not_found; documented in OpenAPI."""

from __future__ import annotations

from typing import Any

from service.tournaments import Tournaments
from tests.api.conftest import OPERATOR, assert_error
from tests.support.tournament_archives import install_verifiers, round_robin, run_verifier


def without_time(archive: dict[str, Any]) -> dict[str, Any]:
    """Returns the archive without its export times (its own and its matches')."""
    matches = [{**match, "exported_at": None} for match in archive["matches"]]
    return {**archive, "exported_at": None, "matches": matches}


def test_a_finished_tournaments_archive_is_served_to_anyone(client, service, tmp_path):
    tid = round_robin(service, OPERATOR)
    response = client.get(f"/tournaments/{tid}/archive")
    assert response.status_code == 200, response.get_json()
    assert response.mimetype == "application/json"
    served = response.get_json()
    assert without_time(served) == without_time(Tournaments(service).export_archive(tid))
    assert served["finished"] and len(served["matches"]) == 6 and served["unfinished"] == []
    (tmp_path / "auditor").mkdir()
    auditor = install_verifiers(tmp_path / "auditor")
    (auditor / "cup.json").write_text(response.get_data(as_text=True), encoding="utf-8")
    status, out = run_verifier(auditor, "cup.json")
    assert status == 0, out


def test_an_unknown_tournament_has_no_archive(client):
    assert_error(client.get("/tournaments/nope/archive"), 404, "tournament_not_found")
    missing = "/tournaments/6f1d1a4e-0000-4000-8000-000000000000/archive"
    assert_error(client.get(missing), 404, "tournament_not_found")


def test_the_archive_is_in_the_openapi_document(client):
    paths = client.get("/openapi.json").get_json()["paths"]
    operation = paths["/tournaments/{tournament}/archive"]["get"]
    assert operation["operationId"] == "getTournamentArchive"
    assert {"200", "404"} <= set(operation["responses"])
