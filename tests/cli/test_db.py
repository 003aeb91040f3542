"""`drts db ...` and `drts projections ...` on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner, Result

from cli.main import main
from service.matches import Matches
from service.settings import Settings

pytestmark = pytest.mark.usefixtures("toy_rulesets")


@pytest.fixture
def drts(empty_url: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("DRTS_DATABASE_URL", empty_url)
    runner = CliRunner()

    def run(*args: str, ok: bool = True) -> Result:
        result = runner.invoke(main, list(args))
        assert (result.exit_code == 0) == ok, result.output
        return result

    return run


def test_db_upgrade_and_current_say_where_the_database_stands(drts):
    assert (
        "empty (never migrated); latest is 0018: run `drts db upgrade`"
        in drts("db", "current", ok=False).output
    )
    assert drts("db", "upgrade").output == "database at 0018 (was empty)\n"
    assert drts("db", "current").output == "0018 (latest)\n"
    assert drts("db", "downgrade", "0001").output == "database at 0001\n"
    assert "0001; latest is 0018" in drts("db", "current", ok=False).output
    assert (
        "refusing to downgrade below revision 0001"
        in drts("db", "downgrade", "base", ok=False).output
    )
    assert drts("db", "upgrade").output == "database at 0018 (was 0001)\n"


def test_projections_rebuild_catch_up_and_status(drts, empty_url):
    drts("db", "upgrade")
    app = Matches(env=Settings(empty_url).event_store_env())
    new = app.create_match("toy", {})
    app.join(new.match_id, "alice")
    app.close()
    status = drts("projections", "status").output
    assert "match_list: at 0, log at 2: 2 event(s) to apply" in status
    assert "deadlines: at 0, log at 2: up to date" in status
    assert drts("projections", "catch-up", "match_list").output == "match_list: 2 new event(s)\n"
    assert "match_list: at 2, log at 2: up to date" in drts("projections", "status").output
    rebuilt = drts("projections", "rebuild").output.splitlines()
    assert rebuilt == [
        "match_list: rebuilt from 2 event(s)",
        "deadlines: rebuilt from 0 event(s)",
        "scoreboards: rebuilt from 0 event(s)",
        "standings: rebuilt from 2 event(s)",
        "mail_outbox: rebuilt from 0 event(s)",
        "rated_matches: rebuilt from 2 event(s)",
    ]
    assert "Invalid value" in drts("projections", "rebuild", "leaderboard", ok=False).output
