"""Every `drts` command that opens the store refuses a PostgreSQL database that was never
migrated with the one-line `schema_out_of_date` message of docs/operations.md and exit
status 1, never a traceback; the commands that start a process refuse before starting it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.postgres


def refusal(url: str) -> str:
    """Returns the line docs/operations.md shows for a database never migrated."""
    shown = url.replace("postgresql://", "postgresql+psycopg://")
    return (
        f"Error: schema_out_of_date: the database {shown} has no drts tables yet (it was "
        "never migrated): run `drts db upgrade` with the same DRTS_DATABASE_URL, then start again"
    )


def drts_process(args: list[str], url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Runs `drts ARGS` in a process of its own; kills it (and anything it started) if it
    is still running after 60 s, which means it started instead of refusing.
    """
    env = {**os.environ, "DRTS_DATABASE_URL": url, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.main", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"`drts {' '.join(args)}` started on a database never migrated")
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


@pytest.mark.parametrize(
    "args",
    [
        ["api", "--port", "1"],
        ["worker", "--pool", "solo"],
        ["beat"],
        ["run", "--port", "1"],
    ],
    ids=["api", "worker", "beat", "run"],
)
def test_a_process_refuses_a_database_never_migrated_in_one_line(args, empty_pg_url, tmp_path):
    done = drts_process(args, empty_pg_url, tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [refusal(empty_pg_url)]
    assert done.stdout == ""
    assert list(tmp_path.iterdir()) == []  # nothing started: no broker or beat files


@pytest.mark.parametrize(
    "args",
    [["projections", "status"], ["match", "list"], ["match", "show", "some-match"]],
    ids=["projections-status", "match-list", "match-show"],
)
def test_a_command_refuses_a_database_never_migrated_in_one_line(args, empty_pg_url, monkeypatch):
    monkeypatch.setenv("DRTS_DATABASE_URL", empty_pg_url)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    assert result.output.splitlines() == [refusal(empty_pg_url)]
