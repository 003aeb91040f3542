"""District War's state, the queries derived from it, and its JSON form.

State JSON (`dump_state`), all keys always present:

    {"config": {...},          the validated match config (board, dmo, troops, clock)
     "first": 1,               the seat placing first, null until the DMO's choice (DW-2)
     "placements": ["d4", "d2", ...],   every troop in the order placed; seats alternate
                                        starting with "first"
     "cells": {"d4": 1, "d2": 2, ...},  derived: the seat on each occupied cell
     "forfeited": null}        the seat that forfeited the match, if any (DW-6)

`load_state` accepts the same object ("cells" may be left out; if given it
must agree with "placements"); it checks the shape, not that each placement
obeyed DW-3, so that a referee can set up any position.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from domain.errors import InvalidStateError
from domain.rules.contract import JSON, load_config
from domain.rules.district_war.board import CELLS
from domain.rules.district_war.config import CONFIG_FIELDS, GameSettings, config_of, settings_of

SEATS = (1, 2)
_KEYS = {"config", "first", "placements", "cells", "forfeited"}


@dataclass(frozen=True)
class State:
    """A District War position: settings, who places first, the troops in order, any forfeit."""

    settings: GameSettings
    first: int | None = None
    placements: tuple[str, ...] = ()
    forfeited: int | None = None


def opponent(seat: int) -> int:
    """Returns the other seat."""
    return 3 - seat


def placer(state: State, index: int) -> int:
    """Returns the seat of the troop placed at `index` (0-based); seats alternate (rule text)."""
    assert state.first is not None, "no troop is placed before the DMO's choice"
    return state.first if index % 2 == 0 else opponent(state.first)


def occupants(state: State) -> dict[str, int]:
    """Returns the seat on each occupied cell."""
    return {cell: placer(state, i) for i, cell in enumerate(state.placements)}


def troops_placed(state: State, seat: int) -> int:
    """Returns how many troops a seat has placed."""
    return sum(1 for i in range(len(state.placements)) if placer(state, i) == seat)


def is_over(state: State) -> bool:
    """Returns whether the match has ended: a forfeit, or every troop placed (rule text)."""
    total = 2 * state.settings.troops
    return state.forfeited is not None or len(state.placements) == total


def seat_to_act(state: State) -> int | None:
    """Returns the seat that owes the next order: the DMO before its choice, then the placers."""
    if is_over(state):
        return None
    if state.first is None:
        return state.settings.dmo
    return placer(state, len(state.placements))


def with_placement(state: State, cell: str) -> State:
    """Returns the state with one more troop, on `cell`, for the seat to act."""
    return replace(state, placements=(*state.placements, cell))


def dump_state(state: State) -> JSON:
    """Returns the documented JSON form of a state (module docstring)."""
    return {
        "config": config_of(state.settings),
        "first": state.first,
        "placements": list(state.placements),
        "cells": occupants(state),
        "forfeited": state.forfeited,
    }


def load_state(data: JSON) -> State:
    """Returns the state a `dump_state` object describes; raises InvalidStateError if malformed."""
    if not isinstance(data, dict) or not {"config", "first", "placements"} <= set(data):
        raise InvalidStateError("a District War state is an object with config, first, placements")
    if set(data) - _KEYS:
        raise InvalidStateError(f"unknown state key(s) {', '.join(sorted(set(data) - _KEYS))}")
    state = State(
        settings=settings_of(load_config(CONFIG_FIELDS, data["config"])),
        first=_seat_or_none("first", data["first"]),
        placements=_placements(data["placements"]),
        forfeited=_seat_or_none("forfeited", data.get("forfeited")),
    )
    _check_consistent(state, data.get("cells"))
    return state


def _seat_or_none(key: str, value: JSON) -> int | None:
    if value is None or (value in SEATS and not isinstance(value, bool)):
        return value
    raise InvalidStateError(f"state {key} must be 1, 2 or null, got {value!r}")


def _placements(value: JSON) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise InvalidStateError(f"state placements must be a list of cells, got {value!r}")
    for cell in value:
        if cell not in CELLS:
            raise InvalidStateError(f"state placements: {cell!r} is not a cell a1-g7")
        if value.count(cell) > 1:
            raise InvalidStateError(f"state placements: {cell} is placed on twice")
    return tuple(value)


def _check_consistent(state: State, cells: JSON) -> None:
    if state.placements and state.first is None:
        raise InvalidStateError("state has placements but no first seat (DW-2)")
    if len(state.placements) > 2 * state.settings.troops:
        raise InvalidStateError(
            f"state has {len(state.placements)} placements; "
            f"{state.settings.troops} troops per seat allow {2 * state.settings.troops}"
        )
    if cells is not None and cells != dump_state(state)["cells"]:
        raise InvalidStateError("state cells disagree with its placements")
