"""The check that the tests leave nothing in the checkout (tests/support/stray_files.py),
run on throwaway git repositories: the lines it finds, and whole pytest sessions that
it fails or lets pass."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.stray_files import git_status, strays

ROOT = Path(__file__).resolve().parents[1]


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        check=True,
        capture_output=True,
        timeout=60,
    )


def touch(path: Path, text: str = "x") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git checkout with one committed file and drts's ignored outbox."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "tracked.txt").write_text("as committed\n")
    touch(checkout / "pkg/module.py")
    (checkout / ".gitignore").write_text("__pycache__/\n/drts-outbox/\n*.sqlite\n")
    git(checkout, "init", "-q")
    git(checkout, "add", ".")
    git(checkout, "commit", "-q", "-m", "first")
    return checkout


def test_new_untracked_ignored_and_changed_paths_are_strays_but_venv_and_caches_are_not(repo):
    before = git_status(repo)
    assert isinstance(before, frozenset)
    for allowed in (".venv/bin/python", "pkg/__pycache__/m.pyc", ".pytest_cache/v/x"):
        touch(repo / allowed)
    touch(repo / ".mypy_cache/3.11/x.json")
    touch(repo / ".ruff_cache/0.17.6/x")
    touch(repo / "drts-outbox/new/1.mail")  # ignored by git: counted all the same
    touch(repo / "bot-logs/m-seat1.log")
    touch(repo / "store.sqlite")
    touch(repo / "tracked.txt", "changed by a test\n")
    after = git_status(repo)
    assert isinstance(after, frozenset)
    assert strays(before, after) == [
        " M tracked.txt",
        "!! drts-outbox/",
        "!! store.sqlite",
        "?? bot-logs/",
    ]


def test_what_was_there_before_the_session_is_not_a_stray(repo):
    touch(repo / "drts-outbox/new/old.mail")
    touch(repo / "notes.txt")
    before = git_status(repo)
    assert isinstance(before, frozenset)
    assert strays(before, git_status(repo)) == []  # type: ignore[arg-type]


def test_outside_a_git_checkout_there_is_nothing_to_compare(tmp_path, monkeypatch):
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    assert git_status(tmp_path).startswith("not a git checkout")  # type: ignore[union-attr]


def run_session(folder: Path, test_body: str) -> subprocess.CompletedProcess[str]:
    """Runs pytest with the plugin on one test in `folder`; returns its outcome."""
    (folder / "conftest.py").write_text('pytest_plugins = ["tests.support.stray_files"]\n')
    (folder / "test_one.py").write_text(
        f"from pathlib import Path\n\n\ndef test_one():\n{test_body}"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GIT_CEILING_DIRECTORIES": str(folder.parent)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--basetemp", "basetemp"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_session_whose_test_writes_into_the_checkout_fails_naming_the_paths(repo):
    (repo / ".gitignore").write_text("__pycache__/\n/drts-outbox/\n/basetemp/\n")
    git(repo, "commit", "-q", "-am", "ignore pytest's basetemp")
    body = (
        '    Path("drts-outbox/new").mkdir(parents=True)\n'
        '    Path("drts-outbox/new/1.mail").write_text("Subject: confirm")\n'
        '    Path("drts.db").write_text("")\n'
    )
    session = run_session(repo, body)
    assert session.returncode == 1, session.stdout
    assert "1 passed" in session.stdout
    report = session.stdout.split("files the tests left in the checkout", 1)[1]
    assert "!! drts-outbox/" in report and "?? drts.db" in report
    assert "?? conftest.py" not in report and "?? test_one.py" not in report  # there before


def test_a_session_that_writes_only_under_its_tmp_path_passes(repo):
    (repo / ".gitignore").write_text("__pycache__/\n/drts-outbox/\n/basetemp/\n")
    git(repo, "commit", "-q", "-am", "ignore pytest's basetemp")
    session = run_session(repo, '    Path("__pycache__").mkdir(exist_ok=True)\n')
    assert session.returncode == 0, session.stdout
    assert "files the tests left" not in session.stdout


def test_outside_a_git_checkout_the_session_says_it_checked_nothing(tmp_path):
    folder = tmp_path / "plain"
    folder.mkdir()
    session = run_session(folder, '    Path("left.txt").write_text("x")\n')
    assert session.returncode == 0, session.stdout
    assert "files left in the checkout: not checked, not a git checkout" in session.stdout
