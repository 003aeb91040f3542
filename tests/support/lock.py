"""Reading uv.lock for the tests that hold the installs to it (tests/test_lock.py).

uv.lock (made by `uv lock`, docs/contributing.md) records, for the project's own
package, what pyproject.toml asked for when the lock was made (`requires-dist`, the
extras, `requires-dev` for the dependency groups), and every package of the universal
resolution with its version and its dependencies, each under a PEP 508 marker.
`disagreements` compares the first with pyproject.toml; `locked_for` walks the second
from the project's requirements, with the markers evaluated for one interpreter, to
say which distributions an exact install on it holds.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from packaging.markers import Marker, default_environment
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

Lock = Mapping[str, Any]
# (name, extras, specifier, marker), each normalised: how a requirement is compared
Wanted = tuple[str, tuple[str, ...], str, str]


def load_toml(path: Path) -> dict[str, Any]:
    """Returns the TOML document at `path`."""
    with path.open("rb") as file:
        return tomllib.load(file)


def project_entry(lock: Lock, name: str) -> Mapping[str, Any]:
    """Returns the lock's entry of the project itself (the package installed editable)."""
    for package in lock["package"]:
        if package["name"] == name and "editable" in package["source"]:
            return package  # type: ignore[no-any-return]
    raise LookupError(f"uv.lock has no editable package {name!r}: run `.venv/bin/uv lock`")


def _normal(name: str, extras: Iterable[str], specifier: str, marker: str) -> Wanted:
    return (
        canonicalize_name(name),
        tuple(sorted(canonicalize_name(extra) for extra in extras)),
        str(SpecifierSet(specifier)),
        str(Marker(marker)) if marker else "",
    )


def _from_pyproject(text: str, extra: str | None = None) -> Wanted:
    requirement = Requirement(text)
    marker = str(requirement.marker) if requirement.marker else ""
    if extra is not None:
        clause = f'extra == "{extra}"'
        marker = f"({marker}) and {clause}" if marker else clause
    return _normal(requirement.name, requirement.extras, str(requirement.specifier), marker)


def _from_lock(entry: Mapping[str, Any]) -> Wanted:
    return _normal(
        entry["name"], entry.get("extras", ()), entry.get("specifier", ""), entry.get("marker", "")
    )


def pyproject_wants(pyproject: Mapping[str, Any]) -> dict[str, set[Wanted]]:
    """Returns what pyproject.toml asks for: `requires-dist` (dependencies and every extra)
    and each dependency group by name."""
    project = pyproject["project"]
    wants = {"requires-dist": {_from_pyproject(text) for text in project.get("dependencies", [])}}
    for extra, texts in project.get("optional-dependencies", {}).items():
        wants["requires-dist"] |= {_from_pyproject(text, extra) for text in texts}
    for group, texts in pyproject.get("dependency-groups", {}).items():
        wants[f"group {group}"] = {_from_pyproject(text) for text in texts}
    return wants


def lock_records(lock: Lock, name: str) -> dict[str, set[Wanted]]:
    """Returns what the lock says pyproject.toml asked for when it was made, in the shape
    of `pyproject_wants`."""
    metadata = project_entry(lock, name).get("metadata", {})
    records = {"requires-dist": {_from_lock(entry) for entry in metadata.get("requires-dist", [])}}
    for group, entries in metadata.get("requires-dev", {}).items():
        records[f"group {group}"] = {_from_lock(entry) for entry in entries}
    return records


def disagreements(pyproject: Mapping[str, Any], lock: Lock) -> list[str]:
    """Returns a line for every requirement that pyproject.toml and the lock do not share
    (empty when they agree): a lock made from another pyproject.toml."""
    name = pyproject["project"]["name"]
    wants, records = pyproject_wants(pyproject), lock_records(lock, name)
    lines = []
    for part in sorted(wants.keys() | records.keys()):
        asked, locked = wants.get(part, set()), records.get(part, set())
        lines += [
            f"{part}: pyproject.toml asks for {_show(w)}, uv.lock does not" for w in asked - locked
        ]
        lines += [
            f"{part}: uv.lock records {_show(w)}, pyproject.toml does not" for w in locked - asked
        ]
    provided = set(pyproject["project"].get("optional-dependencies", {}))
    recorded = set(project_entry(lock, name).get("metadata", {}).get("provides-extras", []))
    if provided != recorded:
        lines.append(f"extras: pyproject.toml has {sorted(provided)}, uv.lock {sorted(recorded)}")
    return sorted(lines)


def _show(wanted: Wanted) -> str:
    name, extras, specifier, marker = wanted
    text = name + (f"[{','.join(extras)}]" if extras else "") + specifier
    return f"{text}; {marker}" if marker else text


def locked_for(
    lock: Lock,
    name: str,
    extras: Iterable[str],
    groups: Iterable[str],
    environment: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Returns the distributions (canonical name: version) that an exact install of project
    `name` with `extras` and dependency `groups` holds under `environment` (this
    interpreter's markers by default), the project itself left out."""
    env = {**default_environment(), **(environment or {}), "extra": ""}
    root = project_entry(lock, name)
    pending = [
        *root.get("dependencies", []),
        *(dep for extra in extras for dep in root.get("optional-dependencies", {})[extra]),
        *(dep for group in groups for dep in root.get("dev-dependencies", {})[group]),
    ]
    chosen: dict[str, str] = {}
    seen: set[tuple[str, str, str]] = set()
    while pending:
        dependency = pending.pop()
        if "marker" in dependency and not Marker(dependency["marker"]).evaluate(env):
            continue
        package = _package(lock, dependency)
        for extra in ["", *dependency.get("extra", [])]:
            key = (package["name"], package["version"], extra)
            if key in seen:
                continue
            seen.add(key)
            chosen[canonicalize_name(package["name"])] = package["version"]
            more = package.get("optional-dependencies", {}).get(extra, [])
            pending += package.get("dependencies", []) if not extra else more
    return chosen


def _package(lock: Lock, dependency: Mapping[str, Any]) -> Mapping[str, Any]:
    """Returns the entry a dependency names (by version too where the lock forked)."""
    for package in lock["package"]:
        if package["name"] == dependency["name"] and dependency.get("version") in (
            None,
            package["version"],
        ):
            return package  # type: ignore[no-any-return]
    raise LookupError(f"uv.lock names {dependency['name']} but holds no entry for it")
