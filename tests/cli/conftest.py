"""Fixtures of the CLI tests."""

from __future__ import annotations

import pytest
from click.testing import CliRunner, Result

from cli.main import main


@pytest.fixture
def drts(tmp_path, monkeypatch):
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/cli.sqlite")
    monkeypatch.delenv("DRTS_REFEREE_TOKEN", raising=False)
    monkeypatch.delenv("DRTS_SEAT_TOKEN", raising=False)
    runner = CliRunner()

    def run(*args: str, ok: bool = True) -> Result:
        result = runner.invoke(main, ["match", *args])
        assert (result.exit_code == 0) == ok, result.output
        return result

    return run
