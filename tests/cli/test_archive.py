"""`drts match export` writes a match archive to a file and `drts match import` loads it
into another store, verified first; the imported match is read-only (docs/archive.md)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner, Result

from cli.main import main
from tests.support.cli import created


@pytest.fixture
def drts(tmp_path, monkeypatch):
    """Runs `drts match ...` on an SQLite file (DRTS_DATABASE_URL, which a test may change)."""
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/cli.sqlite")
    monkeypatch.delenv("DRTS_REFEREE_TOKEN", raising=False)
    runner = CliRunner()

    def run(*args: str, ok: bool = True, input: str | None = None) -> Result:
        result = runner.invoke(main, ["match", *args], input=input)
        assert (result.exit_code == 0) == ok, result.output
        return result

    return run


def finished(drts) -> tuple[str, str, str]:
    """Returns a District War match of two troops each, played to its end, and its tokens."""
    match_id, referee, alice, bob = created(drts)
    drts("start", match_id, "--referee-token", referee)
    drts("order", match_id, "first 1", "--token", bob)
    for seat, cell in ((alice, "e4"), (bob, "b4"), (alice, "g4"), (bob, "g1")):
        drts("order", match_id, cell, "--token", seat)
    return match_id, alice, bob


def test_a_match_is_exported_to_a_file_and_imported_into_another_store(drts, tmp_path, monkeypatch):
    match_id, alice, _ = finished(drts)
    path = tmp_path / "match.json"
    path.write_text(drts("export", match_id).output, encoding="utf-8")
    archive = json.loads(path.read_text(encoding="utf-8"))
    head = archive["head"]
    assert (archive["form"], archive["match_id"]) == ("public", match_id)
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/other.sqlite")
    assert drts("import", str(path)).output == (
        f"imported match {match_id} (district_war v1, public form): {head['version']} events, "
        f"head {head['version']}:{head['chain']}; read-only here\n"
    )
    assert "nothing imported" in drts("import", "-", input=path.read_text()).output
    assert f"chain head {head['chain']}" in drts("verify", match_id).output
    refused = drts("order", match_id, "a1", "--token", alice, ok=False).output
    assert "match_imported: " in refused and "read-only" in refused


def test_a_tampered_archive_is_refused_naming_the_event(drts, tmp_path, monkeypatch):
    match_id, _, _ = finished(drts)
    archive = json.loads(drts("export", match_id).output)
    step = next(e for e in archive["events"] if e["type"] == "StepApplied")
    step["data"]["text"] = "bob placed nothing"
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/other.sqlite")
    out = drts("import", str(path), ok=False).output
    assert f"tampered_archive: event {step['version']} (StepApplied): chain mismatch" in out
    assert "no match" in drts("show", match_id, ok=False).output


@pytest.mark.parametrize("text", ["{", '{"format": NaN}', "[1, 2]"])
def test_a_file_that_is_no_archive_is_refused_saying_so(drts, tmp_path, text):
    path = tmp_path / "x.json"
    path.write_text(text, encoding="utf-8")
    out = drts("import", str(path), ok=False).output
    assert "is not JSON" in out or "invalid_archive: a match archive is a JSON object" in out


def test_an_unfinished_match_is_exported_only_with_its_referee_token(drts):
    match_id, referee, alice, _ = created(drts)
    assert "missing_token: " in drts("export", match_id, ok=False).output
    assert "not_referee: " in drts("export", match_id, "--referee-token", alice, ok=False).output
    archive = json.loads(drts("export", match_id, "--referee-token", referee).output)
    assert archive["form"] == "full"
    assert archive["events"][-1]["data"] == {
        "viewer": "referee",
        "what": "match archive with sealed values",
    }
