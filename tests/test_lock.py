"""Every install is the lock (issue 39): uv.lock agrees with pyproject.toml, and the
interpreter running the tests holds exactly the distributions the lock pins for it.

scripts/venv.sh installs the project, its `test` extra and the `dev` group from
uv.lock (`uv sync --locked`); docs/contributing.md says how to refresh the lock.
"""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name

from tests.support.lock import disagreements, load_toml, locked_for

ROOT = Path(__file__).resolve().parents[1]
PROJECT = "drts"
EXTRAS, GROUPS = ("test",), ("dev",)  # what scripts/venv.sh installs


@pytest.fixture(scope="module")
def pyproject() -> dict:
    return load_toml(ROOT / "pyproject.toml")


@pytest.fixture(scope="module")
def lock() -> dict:
    return load_toml(ROOT / "uv.lock")


def test_the_lock_was_made_from_this_pyproject(pyproject, lock):
    assert disagreements(pyproject, lock) == [], "refresh the lock: .venv/bin/uv lock"


def test_a_requirement_changed_added_or_dropped_without_relocking_is_named(pyproject, lock):
    changed = {**pyproject, "project": dict(pyproject["project"])}
    changed["project"]["dependencies"] = [
        "rich>=14" if text == "rich>=13" else text for text in pyproject["project"]["dependencies"]
    ] + ["requests>=2"]
    changed["project"]["optional-dependencies"] = {
        "test": [
            t for t in pyproject["project"]["optional-dependencies"]["test"] if "mypy" not in t
        ]
    }
    changed["dependency-groups"] = {"dev": ["uv>=0.13.9"]}
    assert disagreements(changed, lock) == [
        "group dev: uv.lock records pre-commit>=4.7, pyproject.toml does not",
        "requires-dist: pyproject.toml asks for requests>=2, uv.lock does not",
        "requires-dist: pyproject.toml asks for rich>=14, uv.lock does not",
        'requires-dist: uv.lock records mypy>=2.4; extra == "test", pyproject.toml does not',
        "requires-dist: uv.lock records rich>=13, pyproject.toml does not",
    ]


def test_a_new_extra_without_relocking_is_named(pyproject, lock):
    changed = {**pyproject, "project": dict(pyproject["project"])}
    changed["project"]["optional-dependencies"] = {
        **pyproject["project"]["optional-dependencies"],
        "docs": ["sphinx>=8"],
    }
    assert disagreements(changed, lock) == [
        "extras: pyproject.toml has ['docs', 'test'], uv.lock ['test']",
        'requires-dist: pyproject.toml asks for sphinx>=8; extra == "docs", uv.lock does not',
    ]


def test_uv_itself_finds_the_lock_up_to_date_offline():
    """uv's own check (the one `uv sync --locked` makes) agrees, with no network needed."""
    uv = shutil.which("uv", path=str(Path(sys.executable).parent))
    assert uv, "uv is in the dev group: scripts/venv.sh installs it into the venv"
    checked = subprocess.run(
        [uv, "lock", "--check", "--offline", "--project", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr


def test_the_interpreter_running_the_tests_holds_exactly_the_locked_distributions(lock):
    if sys.prefix == sys.base_prefix:
        pytest.skip("not run from a virtual environment: scripts/venv.sh makes .venv from the lock")
    installed = {
        canonicalize_name(dist.metadata["Name"]): dist.version
        for dist in importlib.metadata.distributions()
    }
    installed.pop(PROJECT)
    locked = locked_for(lock, PROJECT, EXTRAS, GROUPS)
    wrong = {name: (v, locked[name]) for name, v in installed.items() if locked.get(name, v) != v}
    assert wrong == {}, "installed, locked: run scripts/venv.sh (uv sync --locked)"
    assert sorted(installed.keys() - locked.keys()) == [], "installed but not in uv.lock"
    assert sorted(locked.keys() - installed.keys()) == [], "locked for here but not installed"


def test_the_lock_pins_the_tools_ci_runs(lock):
    """ruff, mypy and pytest (and uv, which installs the rest) come from the lock."""
    locked = locked_for(lock, PROJECT, EXTRAS, GROUPS)
    for tool in ("ruff", "mypy", "pytest", "uv", "pre-commit"):
        assert importlib.metadata.version(tool) == locked[tool], tool


def test_markers_pick_what_another_platform_and_python_would_install(lock):
    """The lock is universal: colorama, tzdata, and gevent's cffi (with pycparser) only on
    Windows; async-timeout (redis's)
    only before Python 3.11.3; every tool on each of 3.11, 3.12 and 3.13."""
    windows = locked_for(lock, PROJECT, EXTRAS, GROUPS, {"sys_platform": "win32"})
    linux = locked_for(lock, PROJECT, EXTRAS, GROUPS, {"sys_platform": "linux"})
    assert windows.keys() - linux.keys() == {"colorama", "tzdata", "cffi", "pycparser"}
    early = locked_for(lock, PROJECT, EXTRAS, GROUPS, {"python_full_version": "3.11.2"})
    assert early.keys() - linux.keys() == {"async-timeout"}
    for version in ("3.11.9", "3.12.1", "3.13.0"):
        on = locked_for(lock, PROJECT, EXTRAS, GROUPS, {"python_full_version": version})
        assert {"ruff", "mypy", "pytest", "celery", "eventsourcing", "uv"} <= on.keys(), version
