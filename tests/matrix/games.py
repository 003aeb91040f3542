"""The games of the matrix: every version of every ruleset in the registry
(domain.rules.registry), each with the short config and the seat count its stages are
played with, and what the matrix reads in its state JSON (docs/games/*.md).

A ruleset registered later without an entry in PLAYED fails the matrix (test_matrix.py,
`test_every_registered_game_is_played`): say here how to play it short.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain.rules.contract import JSON
from domain.rules.registry import REGISTRY, get_ruleset


@dataclass(frozen=True)
class Play:
    """How the matrix plays a game: its short config, seats, the movements of the
    mid-play stage, and the seeds of its stages."""

    config: dict[str, JSON]
    seats: int
    mid_play: int = 3
    seed: str = "matrix"


PLAYED: dict[str, Play] = {
    # DW-3: three troops each (seven movements with the DMO's choice, DW-2)
    "district_war": Play({"troops": 3}, 2),
    # DRTS-2: five movements (six with golden point, DRTS-20), closing once all ordered
    "drts_team23": Play({"movements": 5, "max_movements": 6, "close_early": True}, 8),
    # SH-1: six turns on the small map; three seats, so that one eliminated leaves a match
    "shades": Play({"turns": 6, "map": "small"}, 3),
    # DT-2: past the nine placements each, so that pieces step; a silent seat is struck
    "dris_et_tessa": Play({"timeout": "strike", "max_strikes": 2}, 2, mid_play=22),
    # BC-2: a Turn of the Field a minute; three seats, so that a forfeit leaves a match
    "b_chess": Play({"turn_seconds": 60}, 3),
}


@dataclass(frozen=True)
class Game:
    """One version of one ruleset, as the matrix plays it."""

    ruleset: str
    version: int
    play: Play = field(compare=False)

    @property
    def key(self) -> str:
        """Returns the game's name in cell ids: `drts_team23@1`."""
        return f"{self.ruleset}@{self.version}"

    @property
    def sequential(self) -> bool:
        return get_ruleset(self.ruleset, self.version).info.dynamics.value == "sequential"


def registered() -> list[tuple[str, int]]:
    """Returns (name, version) of every ruleset version the registry holds."""
    return sorted((name, version) for name, versions in REGISTRY.items() for version in versions)


def games() -> list[Game]:
    """Returns the matrix's games: every registered version of every game PLAYED knows."""
    return [Game(name, version, PLAYED[name]) for name, version in registered() if name in PLAYED]


# -- what a state JSON holds, read from the docs' state JSON (never from the boards) -------

Piece = tuple[str, str, str, str]  # kind, square, seat ("" for none), id ("" for none)


def _dw(state: dict[str, Any]) -> set[Piece]:
    return {("troop", cell, str(seat), "") for cell, seat in (state.get("cells") or {}).items()}


def _drts(state: dict[str, Any]) -> set[Piece]:
    found = set()
    for seat, data in (state.get("seats") or {}).items():
        for kind, square in (data.get("pieces") or {}).items():
            if square is not None:
                found.add((kind, str(square), str(seat), ""))
    for item in state.get("board_items") or []:
        found.add((str(item["item"]), str(item["square"]), str(item.get("seat", "")), ""))
    return found


def _shades(state: dict[str, Any]) -> set[Piece]:
    found = set()
    for kind, key in (("shade", "shades"), ("human", "humans"), ("tomb", "tombs")):
        for thing in state.get(key) or []:
            owner = thing.get("owner")
            square = f"{thing['x']},{thing['y']}"
            found.add((kind, square, "" if owner is None else str(owner), str(thing["id"])))
    return found


def _dt(state: dict[str, Any]) -> set[Piece]:
    return {("piece", point, str(seat), "") for point, seat in (state.get("points") or {}).items()}


def _bc(state: dict[str, Any]) -> set[Piece]:
    return {
        (str(o["id"])[0], f"{o['square'][0]},{o['square'][1]}", str(o["owner"]), str(o["id"]))
        for o in state.get("priority_list") or []
    }


PIECES: dict[str, Callable[[dict[str, Any]], set[Piece]]] = {
    "district_war": _dw,
    "drts_team23": _drts,
    "shades": _shades,
    "dris_et_tessa": _dt,
    "b_chess": _bc,
}
