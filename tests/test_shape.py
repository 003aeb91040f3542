"""The shape of the code, held by tests (issue 44): every module is on the map of
docs/architecture.md, and no module grows past MAX_LINES unless the table below says why.

On the map ("Where each thing lives"), a module is named when a row's first column
names its path (`service/store/loading.py`), or names a folder holding it (`service/channels/mail/`)
and the row names the module by its path below that folder (`desk.py`,
`versions/0001_event_store.py`), or by its file name beside its own folder's name
(`boards/` ... `svg.py`). A package's `__init__.py` is named by its folder.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("domain", "service", "api", "workers", "cli")
MAP = ROOT / "docs/architecture.md"
MAX_LINES = 400
# Modules allowed past MAX_LINES, each with its reason. A row whose module shrinks
# below the limit fails too: take it off the table.
LONG_MODULES = {
    "service/results.py": "a declarative table: one family of small frozen result "
    "dataclasses, one a use case",
    "service/readmodels/tables.py": "a declarative table: the read models' SQLAlchemy "
    "metadata, which Alembic's autogenerate compares",
    "service/readmodels/projections.py": "a declarative table: each projection's topics and "
    "one short handler an event",
    "service/readmodels/recorders.py": "the tracking recorders for PostgreSQL and SQLite side "
    "by side: one contract, two backends",
    "domain/match/__init__.py": "the Match aggregate's event classes: stored by topic "
    "(`domain.match:Match.<Event>`), which never changes",
    "domain/match/play.py": "the commands of a started Match, part of the one aggregate class",
    "domain/rules/contract.py": "the ruleset contract (DESIGN.md): the Protocol and value "
    "types every game implements, in one place",
    "domain/rules/drts_team23/state.py": "DRTS Team 23's state as frozen values and their "
    "documented JSON form: one game's data model",
    "cli/match.py": "a declarative table: `drts match`'s click commands, one short function a verb",
}


def modules() -> list[str]:
    """Returns every module of the five layers, as its path from the repository."""
    return sorted(
        path.relative_to(ROOT).as_posix()
        for layer in LAYERS
        for path in (ROOT / layer).rglob("*.py")
    )


def map_rows(text: str) -> list[tuple[list[str], set[str]]]:
    """Returns each row of the map's tables as (the names in its first column, the names
    in its other columns), the names being what the row writes between backticks."""
    rows = []
    for line in text.splitlines():
        if not line.startswith("| `"):
            continue
        first, *rest = line.strip().strip("|").split("|")
        rows.append(
            (re.findall(r"`([^`]+)`", first), set(re.findall(r"`([^`]+)`", "|".join(rest))))
        )
    return rows


def on_the_map(module: str, rows: list[tuple[list[str], set[str]]]) -> bool:
    """Returns whether the map names the module (module docstring)."""
    path = PurePosixPath(module)
    name = path.name
    if name == "__init__.py":  # a package: named by its folder
        module, name = f"{path.parent}/", f"{path.parent.name}/"
    for heads, names in rows:
        if module in heads:
            return True
        for folder in (h for h in heads if h.endswith("/") and module.startswith(h)):
            below = module[len(folder) :]
            parent = PurePosixPath(below).parent
            if below in names or (name in names and f"{parent.name}/" in names):
                return True
    return False


def lines_of(module: str) -> int:
    return len((ROOT / module).read_text(encoding="utf-8").splitlines())


def test_every_module_is_on_the_map():
    rows = map_rows(MAP.read_text(encoding="utf-8"))
    assert len(modules()) > 200 and rows, (
        "no modules or no map found: the test reads the wrong place"
    )
    assert [module for module in modules() if not on_the_map(module, rows)] == []


@pytest.mark.parametrize(
    ("module", "named"),
    [
        ("service/store/loading.py", True),  # its own row
        ("service/channels/mail/desk.py", True),  # its folder's row names `desk.py`
        ("service/migrations/versions/0001_event_store.py", True),  # `versions/0001_...`
        ("api/pages/boards/svg.py", True),  # `boards/` ... `svg.py` in the api/ row
        ("service/channels/mail/__init__.py", True),  # a package: its folder
        ("api/pages/boards/__init__.py", True),  # `boards/` beside `pages/`
        ("service/channels/mail/nowhere.py", False),
        ("api/pages/boards/nowhere.py", False),
    ],
)
def test_the_map_names_a_module_by_its_row_or_its_folders(module, named):
    rows = map_rows(
        "| `service/store/loading.py` | loading |\n"
        "| `service/channels/mail/` | mail: `desk.py` |\n"
        "| `service/migrations/` | `versions/`: `versions/0001_event_store.py` |\n"
        "| `api/` | `pages/` (`boards/`: `svg.py`) |\n"
    )
    assert on_the_map(module, rows) == named


def test_no_module_is_longer_than_the_limit_unless_the_table_says_why():
    long = {module: lines_of(module) for module in modules() if lines_of(module) > MAX_LINES}
    unexplained = sorted(set(long) - set(LONG_MODULES))
    assert unexplained == [], f"over {MAX_LINES} lines: split them, or say why in LONG_MODULES"
    stale = sorted(m for m in LONG_MODULES if m not in long)
    assert stale == [], f"no longer over {MAX_LINES} lines (or gone): take them off LONG_MODULES"
    assert all(reason.strip() for reason in LONG_MODULES.values())
