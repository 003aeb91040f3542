"""`drts status`: the /health report on the command line, exit status 1 when unhealthy."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cli.main import main
from service.health import record_sweep
from service.matches import connect


def test_drts_status_prints_the_health_report_and_fails_until_a_sweep_succeeds(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/status.sqlite")
    monkeypatch.delenv("DRTS_BROKER_URL", raising=False)
    never = CliRunner().invoke(main, ["status"])
    report = json.loads(never.output)
    assert never.exit_code == 1 and report["status"] == "unhealthy"
    assert report["checks"]["sweep"]["status"] == "failing"
    with connect() as matches:
        record_sweep(matches.read_models, matches.clock())
    swept = CliRunner().invoke(main, ["status"])
    assert swept.exit_code == 0, swept.output
    assert json.loads(swept.output)["status"] == "healthy"
