"""The games the stateful fuzz plays: every registered version of every ruleset
(domain.rules.registry), and Shades under its `contest` preset too, each with short
configs (so that a few dozen steps reach a finish) and the seat counts it is made with.

A ruleset version registered later without an entry here fails
`test_every_registered_game_is_fuzzed`: say here how to play it short.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.rules.registry import REGISTRY


@dataclass(frozen=True)
class FuzzGame:
    """One game as the fuzz plays it: ruleset, version, preset, the configs a match is
    created with (the machine draws one) and the seat counts (the machine draws one)."""

    ruleset: str
    version: int
    configs: tuple[dict[str, Any], ...]
    seats: tuple[int, ...]
    preset: str | None = None

    @property
    def key(self) -> str:
        """Returns the game's test id: `shades@2/contest`."""
        return f"{self.ruleset}@{self.version}" + (f"/{self.preset}" if self.preset else "")

    def __str__(self) -> str:
        return self.key


# a turn a minute, so that a few steps fit in one (each command takes a second)
SHADES = (
    {"turns": 5, "map": "small", "turn_seconds": 60},
    {"turns": 8, "map": "small", "turn_seconds": 60, "razing": "one"},
)
CONTEST = ({"turns": 5, "map": "small", "turn_seconds": 60}, {"turns": 8, "map": "small"})
DRTS = (
    {"movements": 3, "max_movements": 4, "close_early": True},
    {"movements": 4, "max_movements": 5},
)

FUZZED: tuple[FuzzGame, ...] = (
    # BC-2: a Turn of the Field a minute; BC-5: seats join the running match
    FuzzGame("b_chess", 1, ({"turn_seconds": 60}, {"turn_seconds": 60, "torus": False}), (2, 3)),
    # DW-3: three troops each, so that a match ends within the steps
    FuzzGame("district_war", 1, ({"troops": 3}, {"troops": 2, "max_strikes": 1}), (2,)),
    # DT-2: placements then steps; the timeout loses (default) or strikes
    FuzzGame(
        "dris_et_tessa",
        1,
        ({"turn_seconds": 60}, {"timeout": "strike", "max_strikes": 2, "turn_seconds": 60}),
        (2,),
    ),
    # DRTS-2: a few movements, closing early or at the deadline
    FuzzGame("drts_team23", 1, DRTS, (8,)),
    FuzzGame("drts_team23", 2, DRTS, (8,)),
    # SH-1: a few turns on the small map
    FuzzGame("shades", 1, SHADES, (2, 3)),
    FuzzGame("shades", 2, SHADES, (2, 3)),
    FuzzGame("shades", 1, CONTEST, (2, 3), preset="contest"),
    FuzzGame("shades", 2, CONTEST, (2, 3), preset="contest"),
)


def registered() -> set[tuple[str, int]]:
    """Returns (name, version) of every ruleset version the registry holds."""
    return {(name, version) for name, versions in REGISTRY.items() for version in versions}
