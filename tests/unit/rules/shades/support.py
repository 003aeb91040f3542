"""Builders of Shades positions for the unit tests, and an Rng whose draws a test scripts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from domain.rules.contract import Step
from domain.rules.registry import get_ruleset
from domain.rules.rng import Rng
from domain.rules.shades import RULESET
from domain.rules.shades.config import GameSettings
from domain.rules.shades.orders import parse_order
from domain.rules.shades.resolve import resolve
from domain.rules.shades.scoring import start_score
from domain.rules.shades.state import Elimination, Human, Reason, Seat, Shade, State, Tomb

# 7 columns, 5 rows: a tomb in each corner, water in the middle of the top and bottom rows
FIELD = (
    "T..~..T",
    ".......",
    ".......",
    ".......",
    "T..~..T",
)


def position(
    rows: Sequence[str] = FIELD,
    *,
    shades: Sequence[tuple[int, int, int]] = (),
    tombs: Sequence[tuple[int, int, int]] | None = None,
    humans: Sequence[tuple[int, int]] = (),
    seats: int = 2,
    stored: Mapping[int, int] | None = None,
    scores: Mapping[int, int | Fraction] | None = None,
    eliminated: Mapping[int, tuple[int, str]] | None = None,
    razed: Mapping[int, int] | None = None,
    cap: int | None = None,
    turn: int = 0,
    version: int = RULESET.info.version,
    **config: object,
) -> State:
    """Returns a valid state of the ruleset's `version` (the latest by default): `shades` and
    `tombs` as (owner, x, y), ids 1, 2, ... in the order given; `humans` as (x, y); the human
    cap defaults to the humans there are (so no births), scores to the start score, tombs to
    the map's four corners for seats 1, 2, 1, 2.
    """
    ruleset = get_ruleset("shades", version)
    settings = GameSettings.of(ruleset.validate_config({"map": list(rows), **config}))
    corners = [(1, 0, 0), (2, 6, 0), (1, 0, 4), (2, 6, 4)]
    tomb_list = tuple(
        Tomb(i + 1, owner, x, y, (razed or {}).get(i + 1))
        for i, (owner, x, y) in enumerate(corners if tombs is None else tombs)
    )
    per_seat = len(tomb_list) // seats
    seat_list = tuple(
        Seat(
            n,
            (stored or {}).get(n, 0),
            Fraction((scores or {}).get(n, start_score(settings, per_seat))),
            _elimination((eliminated or {}).get(n)),
        )
        for n in range(1, seats + 1)
    )
    state = State(
        settings=settings,
        turn=turn,
        human_cap=len(humans) if cap is None else cap,
        seats=seat_list,
        tombs=tomb_list,
        shades=tuple(Shade(i + 1, o, x, y) for i, (o, x, y) in enumerate(shades)),
        humans=tuple(Human(i + 1, x, y) for i, (x, y) in enumerate(humans)),
        next_shade=len(shades) + 1,
        next_human=len(humans) + 1,
    )
    assert ruleset.load_state(ruleset.dump_state(state)) == state, "not a valid state"
    return state


def _elimination(value: tuple[int, str] | None) -> Elimination | None:
    return None if value is None else Elimination(value[0], Reason(value[1]))


def play(
    state: State, orders: Mapping[int, str], rng: Rng | None = None
) -> tuple[State, tuple[Step, ...]]:
    """Resolves one turn with the orders' texts (or JSON), by seat."""
    parsed = [(seat, parse_order(text)) for seat, text in orders.items()]
    return resolve(state, parsed, rng or Rng("test", state.turn + 1))


def squares(state: State, owner: int | None = None) -> dict[int, tuple[int, int]]:
    """Returns the square of each shade (of `owner`, or every one), by id."""
    return {s.id: s.square for s in state.shades if owner is None or s.owner == owner}


def rules(steps: Sequence[Step]) -> list[str]:
    """Returns the rule id of each step, in order."""
    return [step.rule for step in steps]


def steps_of(steps: Sequence[Step], rule: str) -> list[Step]:
    """Returns the steps naming `rule`."""
    return [step for step in steps if step.rule == rule]


class ScriptedRng(Rng):
    """An Rng whose 64-bit draws are given: `below(n)` of a small draw d is d (d < n), so a
    test says exactly what each draw gives. Raises when the script runs out."""

    def __init__(self, draws: Sequence[int]) -> None:
        super().__init__("scripted", 0)
        self.script = list(draws)

    def next_u64(self) -> int:
        if not self.script:
            raise AssertionError("the scripted Rng ran out of draws: an unexpected draw")
        self.draws += 1
        return self.script.pop(0)
