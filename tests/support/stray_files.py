"""A pytest plugin: the session fails when the tests left anything in the checkout.

Tests write only under their own temporary folders (issue 39). At the session's
start the plugin records `git status --porcelain --ignored` of the checkout (pytest's
rootdir); at its end it records it again, and every line that is new (a path
untracked or ignored, since `drts-outbox/`, `*.sqlite` and `.hypothesis/` are ignored
by git; or a tracked file changed) fails the session and is listed, except the
virtual environment and the tool caches (ALLOWED). Outside a git checkout, or without
git, it says so in the header and checks nothing.

tests/conftest.py loads it; tests/test_stray_files.py runs it on throwaway repositories.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

# path components that may appear: the venv and the caches of pytest, Python, mypy, ruff
ALLOWED = frozenset({".venv", ".pytest_cache", "__pycache__", ".mypy_cache", ".ruff_cache"})
BEFORE = pytest.StashKey[frozenset[str] | None]()
STRAYS = pytest.StashKey[list[str]]()
UNCHECKED = pytest.StashKey[str]()


def git_status(root: Path) -> frozenset[str] | str:
    """Returns the lines of `git status --porcelain --ignored` of the checkout at `root`,
    or why there are none (not a git checkout, no git)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--ignored"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except OSError as error:
        return f"no git ({error})"
    if done.returncode != 0:
        return f"not a git checkout ({done.stderr.strip().splitlines()[0]})"
    return frozenset(line for line in done.stdout.splitlines() if line)


def is_allowed(line: str) -> bool:
    """Returns whether a status line is the venv's or a tool cache's."""
    path = line[3:].strip('"')
    return any(part in ALLOWED for part in Path(path).parts)


def strays(before: frozenset[str], after: frozenset[str]) -> list[str]:
    """Returns the status lines new in `after`, sorted, less the allowed ones."""
    return sorted(line for line in after - before if not is_allowed(line))


def pytest_sessionstart(session: pytest.Session) -> None:
    status = git_status(session.config.rootpath)
    if isinstance(status, str):
        session.config.stash[UNCHECKED] = status
        session.config.stash[BEFORE] = None
    else:
        session.config.stash[BEFORE] = status


def pytest_report_header(config: pytest.Config) -> str | None:
    why = config.stash.get(UNCHECKED, None)
    return None if why is None else f"files left in the checkout: not checked, {why}"


def pytest_sessionfinish(session: pytest.Session) -> None:
    before = session.config.stash.get(BEFORE, None)
    if before is None:
        return
    after = git_status(session.config.rootpath)
    if isinstance(after, str):
        return
    found = strays(before, after)
    session.config.stash[STRAYS] = found
    if found and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    found = terminalreporter.config.stash.get(STRAYS, [])
    if not found:
        return
    terminalreporter.write_sep("=", "files the tests left in the checkout", red=True)
    for line in found:
        terminalreporter.write_line(line)
    terminalreporter.write_line(
        "(git status --porcelain --ignored, new since the session started: a test must "
        "write under its own tmp_path; the session fails)",
        red=True,
    )
