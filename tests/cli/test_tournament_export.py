"""`drts tournament export ID [FILE]` (issue 45, docs/tournaments.md, Exporting a
tournament): a finished round robin's archive printed, or written to a file that the
standalone verifier then passes; an unknown tournament refused in one line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner, Result

from cli.main import main
from service.matches import connect
from tests.support.tournament_archives import install_verifiers, round_robin, run_verifier

OPERATOR = "cli-operator"


@pytest.fixture
def drts(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/cli.sqlite")
    monkeypatch.setenv("DRTS_OPERATOR_TOKEN", OPERATOR)
    monkeypatch.setenv("DRTS_MAIL_OUTBOX", str(tmp_path / "outbox"))
    runner = CliRunner()

    def run(*args: str, ok: bool = True) -> Result:
        result = runner.invoke(main, ["tournament", *args])
        assert (result.exit_code == 0) == ok, result.output
        return result

    return run


@pytest.fixture
def finished(drts) -> str:  # type: ignore[no-untyped-def]
    """The id of a District War round robin of four played to its end, in the CLI's store."""
    app = connect()
    try:
        return str(round_robin(app, OPERATOR))
    finally:
        app.close()


def without_time(archive: dict) -> dict:  # type: ignore[type-arg]
    """Returns the archive without its export times (its own and its matches')."""
    matches = [{**match, "exported_at": None} for match in archive["matches"]]
    return {**archive, "exported_at": None, "matches": matches}


def test_the_archive_is_printed_or_written_and_passes_the_verifier(drts, finished, tmp_path):
    printed = json.loads(drts("export", finished).output)
    assert printed["format"] == "drts-tournament-archive"
    assert printed["tournament_id"] == finished and len(printed["matches"]) == 6
    assert without_time(json.loads(drts("export", finished, "-").output)) == without_time(printed)
    (tmp_path / "auditor").mkdir()
    auditor = install_verifiers(tmp_path / "auditor")
    out = drts("export", finished, str(auditor / "cup.json")).output
    assert out == (
        f"tournament {finished}: {len(printed['events'])} events, 6 match archive(s), "
        f"0 unfinished match(es) left out, written to {auditor / 'cup.json'}\n"
    )
    written = json.loads((auditor / "cup.json").read_text(encoding="utf-8"))
    assert without_time(written) == without_time(printed)
    status, report = run_verifier(auditor, "cup.json")
    assert status == 0 and report.endswith(
        "every check passed (the pairings are re-derived by `drts tournament verify`)\n"
    ), report


def test_an_unknown_tournament_is_refused_in_one_line(drts, tmp_path):
    out = drts("export", "no-such-tournament", str(tmp_path / "x.json"), ok=False).output
    assert "tournament_not_found" in out and len(out.strip().splitlines()) == 1
    assert not (tmp_path / "x.json").exists()
