"""JSON a caller hands the command line (a `--config`, a `--state`, an order's JSON form,
a receipt, an archive) nested far too deep is refused with a clear message and exit
status 2 or 1, never a RecursionError's traceback (issue 41: the same class of fault as
`drts forum import`'s), on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cli.main import main

DEEP = 100_000


@pytest.fixture
def drts(database_url: str, monkeypatch: pytest.MonkeyPatch, toy_rulesets: None) -> Any:
    monkeypatch.setenv("DRTS_DATABASE_URL", database_url)
    runner = CliRunner()
    return lambda *args: runner.invoke(main, list(args))


@pytest.fixture
def deep(tmp_path: Path) -> Path:
    path = tmp_path / "deep.json"
    path.write_text("[" * DEEP + "]" * DEEP)
    return path


def refused(result: Result, *words: str) -> None:
    assert result.exit_code in (1, 2), (result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception  # not a crash
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.output, result.output


def test_a_config_nested_100000_deep_is_refused(drts, deep: Path) -> None:
    refused(drts("match", "create", "toy", "--config", f"@{deep}"), "deeper than 256 levels")


def test_an_archive_nested_100000_deep_is_refused(drts, deep: Path) -> None:
    refused(drts("match", "import", str(deep)), "deeper than 256 levels")


def test_a_receipt_nested_100000_deep_is_refused(drts, deep: Path) -> None:
    created = drts("match", "create", "toy").output.split()
    result = drts("match", "verify", created[1], "--receipt", str(deep))
    refused(result, "deeper than 256 levels")


def test_an_order_json_form_nested_deep_is_refused(drts) -> None:
    created = drts("match", "create", "toy").output.split()
    tokens = [drts("match", "join", created[1], n).output.split()[-1] for n in ("al", "bo")]
    assert drts("match", "start", created[1], "--referee-token", created[-1]).exit_code == 0
    order = '{"pick": ' + "[" * DEEP + "]" * DEEP + "}"
    result = drts("match", "order", created[1], order, "--token", tokens[0])
    refused(result, "deeper than")
