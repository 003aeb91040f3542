"""The project's maps: data files of the service, named on create and recorded as content.

A game with maps keeps them in `service/data/maps/<ruleset>/<name>.ppm`
(Shades, SH-2: plain PPM, white ground, blue water, red tombs; the first
comment line describes the map). A match names one (`"map": "river"`) or
gives its content; `expand_map` replaces a name by the file's content before
the ruleset validates the config, so the match's Created event records the
map itself: editing or removing a file later never changes a stored match.
The domain never reads these files.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from domain.errors import InvalidConfigError
from domain.rules.contract import JSON
from domain.rules.registry import get_ruleset, ruleset_names

MAPS = Path(__file__).resolve().parent / "data" / "maps"
MAP_OPTION = "map"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


@dataclass(frozen=True)
class MapInfo:
    """One map file: its name, what its first comment says, and its content."""

    name: str
    description: str
    content: str

    def summary(self, ruleset: str) -> dict[str, JSON]:
        """Returns the map as GET /rulesets/{name} and `drts maps` show it: name,
        description, size, tombs, water squares and the most seats it takes."""
        board = get_ruleset(ruleset).validate_config({MAP_OPTION: self.content})[MAP_OPTION]
        tombs = sum(row.count("T") for row in board)
        return {
            "name": self.name,
            "description": self.description,
            "width": len(board[0]),
            "height": len(board),
            "tombs": tombs,
            "water": sum(row.count("~") for row in board),
            "max_seats": min(tombs, get_ruleset(ruleset).info.max_seats),
        }


def catalogue(ruleset: str) -> tuple[MapInfo, ...]:
    """Returns the maps a ruleset's matches may name, by name (none for a game without)."""
    folder = MAPS / ruleset
    if ruleset not in ruleset_names() or not folder.is_dir():
        return ()
    return tuple(_read(path) for path in sorted(folder.glob("*.ppm")))


def find_map(ruleset: str, name: str) -> MapInfo:
    """Returns the map called `name`; raises InvalidConfigError naming the maps there are."""
    for info in catalogue(ruleset):
        if info.name == name:
            return info
    known = ", ".join(info.name for info in catalogue(ruleset)) or "none"
    raise InvalidConfigError(f"config option 'map': {ruleset} has no map {name!r} (maps: {known})")


def expand_map(ruleset: str, config: Mapping[str, JSON] | None) -> dict[str, JSON]:
    """Returns the config with a map name replaced by that map's content (SH-2).

    Only a game with maps is touched, and only a `map` that is a name (a
    short lower-case word); content passes through for the ruleset to check.
    Raises InvalidConfigError for a name no map has.
    """
    expanded = dict(config or {})
    value = expanded.get(MAP_OPTION)
    if isinstance(value, str) and _NAME.match(value) and catalogue(ruleset):
        expanded[MAP_OPTION] = find_map(ruleset, value).content
    return expanded


def _read(path: Path) -> MapInfo:
    content = path.read_text(encoding="utf-8")
    first = next((line for line in content.splitlines() if line.startswith("#")), "")
    return MapInfo(path.stem, first.lstrip("# ").strip(), content)
